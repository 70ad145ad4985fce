package replica

import (
	"context"
	"fmt"
	"time"
)

const (
	// keepManifests: the newest manifests kept; the blobs they name stay,
	// every other blob and manifest goes.
	keepManifests = 5
	// gcInterval: how often the garbage is collected. Until then the
	// replica holds at most one manifest and one tail chunk per changed
	// scan more than kept.
	gcInterval = 10 * time.Minute
)

// prime reads what the replica holds: its blobs and its newest
// manifests. A manifest the box's key cannot read stops the uploader
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
	kept := map[string][]string{}
	var last *filesManifest
	var files []fileEntry
	for _, k := range keys[max(0, len(keys)-keepManifests):] {
		m, err := readManifest(ctx, u.store, k, u.ids)
		if err != nil {
			return err
		}
		if files, kept[k], err = manifestFiles(ctx, u.store, u.ids, m); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		last = m
	}
	u.known = map[string]bool{}
	for _, b := range blobs {
		if s := blobSum(b); s != "" {
			u.known[s] = true
		}
	}
	u.state, u.kept, u.last = map[string]*fileState{}, kept, last
	if last != nil {
		u.lastRefs = kept[keys[len(keys)-1]]
		for _, e := range files {
			k := e.Path
			if e.Config {
				k = configKey(e.Path)
			}
			u.state[k] = &fileState{entry: e}
		}
	}
	u.primed = true
	return nil
}

// collect deletes, every gcInterval, the manifests older than the newest
// keepManifests and the blobs none of those names. The newest manifest
// is always among those kept, so what it names is never deleted.
func (u *fileUploader) collect(ctx context.Context) error {
	if !u.lastGC.IsZero() && u.now().Sub(u.lastGC) < gcInterval {
		return nil
	}
	keys, err := manifestKeys(ctx, u.store)
	if err != nil || len(keys) == 0 {
		return err
	}
	cut := max(0, len(keys)-keepManifests)
	kept := map[string][]string{}
	live := map[string]bool{}
	for _, k := range keys[cut:] {
		refs, ok := u.kept[k]
		if !ok {
			m, err := readManifest(ctx, u.store, k, u.ids)
			if err != nil {
				return err
			}
			if _, refs, err = manifestFiles(ctx, u.store, u.ids, m); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
		kept[k] = refs
		for _, s := range refs {
			live[s] = true
		}
	}
	for _, k := range keys[:cut] {
		if err := u.store.Delete(ctx, k); err != nil {
			return fmt.Errorf("delete %s: %w", k, err)
		}
	}
	u.kept = kept
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
