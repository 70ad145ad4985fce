package replica

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"
)

const (
	// keepManifests and keepAge: the manifests kept are the newest
	// keepManifests and every one younger than keepAge; the blobs they
	// name stay, every other blob and manifest goes. keepAge is the time
	// a restore of a running box has to read what the newest manifest
	// named when it began (2 GB of archive, then the journal) while the
	// box goes on writing a manifest per changed scan.
	keepManifests = 5
	keepAge       = time.Hour
	// gcInterval: how often the garbage is collected. Until then the
	// replica holds at most one manifest and one tail chunk per changed
	// scan more than kept.
	gcInterval = 10 * time.Minute
)

// prime reads what the replica holds: its blobs and its newest
// manifest. A manifest the box's key cannot read stops the uploader
// (a URL naming another box's replica): nothing of it is deleted.
func (u *fileUploader) prime(ctx context.Context) error {
	blobs, err := u.store.List(ctx, blobsDir)
	if err != nil {
		return fmt.Errorf("list: %w", err)
	}
	keys, err := manifestKeys(ctx, u.store)
	if err != nil {
		return fmt.Errorf("list: %w", err)
	}
	u.kept, u.trees, u.state = map[string][]string{}, map[string][]string{}, map[string]*fileState{}
	var last *filesManifest
	if len(keys) > 0 {
		k := keys[len(keys)-1]
		if last, err = readManifest(ctx, u.store, k, u.ids); err != nil {
			return err
		}
		u.kept[k] = treeSums(last)
		for _, t := range last.Trees {
			files, refs, err := treeFiles(ctx, u.store, u.ids, t.SHA256)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			u.trees[t.SHA256] = refs
			for _, e := range files {
				key := e.Path
				if e.Config {
					key = configKey(e.Path)
				}
				u.state[key] = &fileState{entry: e}
			}
		}
	}
	u.known = map[string]bool{}
	for _, b := range blobs {
		if s := blobSum(b); s != "" {
			u.known[s] = true
		}
	}
	u.last, u.primed = last, true
	return nil
}

// treeSums are the trees m names.
func treeSums(m *filesManifest) []string {
	out := make([]string, len(m.Trees))
	for i, t := range m.Trees {
		out[i] = t.SHA256
	}
	return out
}

// manifestAt is the time a manifest's key names (zero for another name).
func manifestAt(key string) time.Time {
	s, _ := strings.CutSuffix(path.Base(key), manifestExt)
	t, err := time.Parse(manifestTime, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// keptFrom is the index in keys (oldest first) of the oldest manifest
// kept at now: the newest keepManifests and those younger than keepAge.
func keptFrom(keys []string, now time.Time) int {
	cut := max(0, len(keys)-keepManifests)
	for cut > 0 && now.Sub(manifestAt(keys[cut-1])) < keepAge {
		cut--
	}
	return cut
}

// collect deletes, every gcInterval, the manifests keptFrom lets go
// and the blobs no kept manifest names. The newest manifest is always
// kept, so what it names is never deleted; nor, for keepAge, what a
// restore that began with an older one still reads.
func (u *fileUploader) collect(ctx context.Context) error {
	if !u.lastGC.IsZero() && u.now().Sub(u.lastGC) < gcInterval {
		return nil
	}
	keys, err := manifestKeys(ctx, u.store)
	if err != nil || len(keys) == 0 {
		return err
	}
	cut := keptFrom(keys, u.now())
	kept, trees := map[string][]string{}, map[string][]string{}
	live := map[string]bool{}
	for _, k := range keys[cut:] {
		sums, ok := u.kept[k]
		if !ok {
			m, err := readManifest(ctx, u.store, k, u.ids)
			if err != nil {
				return err
			}
			sums = treeSums(m)
		}
		kept[k] = sums
		for _, t := range sums {
			refs, ok := u.trees[t]
			if !ok {
				if _, refs, err = treeFiles(ctx, u.store, u.ids, t); err != nil {
					return fmt.Errorf("%s: %w", k, err)
				}
			}
			trees[t] = refs
			for _, s := range refs {
				live[s] = true
			}
		}
	}
	for _, k := range keys[:cut] {
		if err := u.store.Delete(ctx, k); err != nil {
			return fmt.Errorf("delete %s: %w", k, err)
		}
	}
	u.kept, u.trees = kept, trees
	blobs, err := u.store.List(ctx, blobsDir)
	if err != nil {
		return err
	}
	for _, b := range blobs {
		s := blobSum(b)
		if s == "" || live[s] {
			continue
		}
		delete(u.known, s) // before: a failed delete may have removed it
		if err := u.store.Delete(ctx, b); err != nil {
			return fmt.Errorf("delete %s: %w", b, err)
		}
	}
	u.lastGC = u.now()
	return nil
}
