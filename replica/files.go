package replica

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"filippo.io/age"
)

// The data dir's files on the replica (docs/REPLICATION.md, "Files"):
//
//	files/blobs/<sha256>.age        a blob, named by the SHA-256 of its plaintext:
//	                                a piece of a file, a folder's file list (a tree),
//	                                or a file's list of big chunks (its sealed list)
//	files/manifests/<time>.json.age what the box held at <time>: its trees
//
// Every object is an age file encrypted to the same recipients as the
// database; none is ever overwritten. A manifest names one tree per
// folder, so a change in tse-sim/ uploads tse-sim's tree and a manifest
// of a few hundred bytes, not the list of ten years of archive files;
// a file's big chunks are listed in its sealed list, so the journal's
// entry stays small while it grows.
const (
	blobsDir     = filesPrefix + "blobs"
	manifestsDir = filesPrefix + "manifests"
	ageExt       = ".age"
	manifestExt  = ".json" + ageExt
	// manifestTime names manifests: fixed width, so names sort by time.
	manifestTime = "20060102T150405.000000000Z"

	manifestFormat  = "posbox-files"
	manifestVersion = 1

	// A file is cut into big chunks up to its last whole bigChunk, then
	// small ones: an appended journal seals a big chunk once per 4 MiB
	// and otherwise uploads only its last small chunk (up to 64 KiB).
	bigChunk   = 4 << 20
	smallChunk = 64 << 10
)

// filesManifest is one manifest: the files the box held at CreatedAt.
type filesManifest struct {
	Format    string    `json:"format"`
	Version   int       `json:"version"`
	CreatedAt time.Time `json:"created_at"`
	// ScannedAt is when the scan began: an append-only file holds at
	// least what was written to it before.
	ScannedAt time.Time `json:"scanned_at"`
	// RecoveryKey is the public key (age1...) of the box's own recovery
	// key: a restore copies a key file into the new box only when it is
	// this one, not another recipient's such as HQ's ("" in manifests of
	// a posbox before it was recorded).
	RecoveryKey string    `json:"recovery_key,omitempty"`
	Trees       []treeRef `json:"trees"`
}

// treeRef names the tree of one folder (Dir, slash-separated, "" for the
// data dir itself, configDir for the config files): a blob holding the
// JSON list of its files' entries.
type treeRef struct {
	Dir    string `json:"dir"`
	SHA256 string `json:"sha256"`
	Files  int    `json:"files"`
	Bytes  int64  `json:"bytes"`
}

// configDir is the tree of the config files.
const configDir = ":config"

// fileEntry is one file. Path is relative to the data dir,
// slash-separated; a Config file (the config file and the secret files
// it names) is named by Path alone and restored into RestoredConfigDir.
type fileEntry struct {
	Path   string `json:"path"`
	Config bool   `json:"config,omitempty"`
	// AppendOnly: state the database refers to (the simulator's journal,
	// whose signature counters the sales record). A restore takes the
	// database as of the manifest's ScannedAt, so that it names no
	// signature the restored journal lacks.
	AppendOnly bool      `json:"append_only,omitempty"`
	Size       int64     `json:"size"`
	Mode       uint32    `json:"mode"` // permission bits on the box
	ModTime    time.Time `json:"mod_time"`
	SHA256     string    `json:"sha256"` // of the whole file, hex
	// Sealed is the blob listing the SHA-256 of the file's big chunks
	// (each bigChunk long), which come first; Chunks are the small ones
	// after them. In memory (after expand) Chunks are all and Sealed is "".
	Sealed string     `json:"sealed,omitempty"`
	Chunks []chunkRef `json:"chunks"`
}

// chunkRef is one piece of a file, in order: the blob named by SHA256.
type chunkRef struct {
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

func blobKey(sum string) string { return blobsDir + "/" + sum + ageExt }

func manifestKey(t time.Time) string {
	return manifestsDir + "/" + t.UTC().Format(manifestTime) + manifestExt
}

// blobSum is the hash a blob key names, "" for another key.
func blobSum(key string) string {
	s, ok := strings.CutSuffix(path.Base(key), ageExt)
	if !ok || len(s) != sha256.Size*2 {
		return ""
	}
	if _, err := hex.DecodeString(s); err != nil {
		return ""
	}
	return s
}

// chunkEnd is where the chunk starting at off ends in a file of size:
// big chunks up to the last multiple of bigChunk, small ones after it.
func chunkEnd(off, size int64) int64 {
	sealed := size / bigChunk * bigChunk
	if off < sealed {
		return off + bigChunk
	}
	return min(off+smallChunk, size)
}

// sealedEnd is the end of a file's big chunks.
func sealedEnd(size int64) int64 { return size / bigChunk * bigChunk }

// sumHex is the SHA-256 of b, hex.
func sumHex(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// seal encrypts plain to recips.
func seal(plain []byte, recips []age.Recipient) ([]byte, error) {
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, recips...)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(plain); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// open reads the object key, decrypts it and checks that its plaintext
// hashes to want (hex; "" takes any), returning the plaintext.
func openObject(ctx context.Context, s objectStore, key string, ids []age.Identity, want string, limit int64) ([]byte, error) {
	rc, err := s.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	defer rc.Close()
	r, err := age.Decrypt(rc, ids...)
	var noMatch *age.NoIdentityMatchError
	if errors.As(err, &noMatch) {
		return nil, fmt.Errorf("%s: the key does not open it (a replica of another box, or the wrong key file): %w", key, err)
	} else if err != nil {
		return nil, fmt.Errorf("%s: not a readable age file (damaged or not ours): %w", key, err)
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: damaged: %w", key, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: larger than any object posbox writes", key)
	}
	if want != "" && sumHex(b) != want {
		return nil, fmt.Errorf("%s: its content does not match its SHA-256 (changed on the replica)", key)
	}
	return b, nil
}

// putVerified uploads plain encrypted as key, then reads it back,
// decrypts it and compares its SHA-256: an object is counted as on the
// replica only once it was read back whole.
func putVerified(ctx context.Context, s objectStore, key string, plain []byte, recips []age.Recipient, ids []age.Identity) error {
	ct, err := seal(plain, recips)
	if err != nil {
		return err
	}
	if err := s.Put(ctx, key, bytes.NewReader(ct)); err != nil && !errors.Is(err, errExists) {
		return fmt.Errorf("upload %s: %w", key, err)
	}
	if err := verifyObject(ctx, s, key, ids, sumHex(plain), int64(len(plain))); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	return nil
}

// verifyObject reads the object key back, decrypting, and checks that
// its plaintext is size bytes hashing to want, without holding it.
func verifyObject(ctx context.Context, s objectStore, key string, ids []age.Identity, want string, size int64) error {
	rc, err := s.Get(ctx, key)
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	defer rc.Close()
	r, err := age.Decrypt(rc, ids...)
	if err != nil {
		return fmt.Errorf("%s: not readable with the key: %w", key, err)
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(r, size+1))
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	if n != size || hex.EncodeToString(h.Sum(nil)) != want {
		return fmt.Errorf("%s: read back, it is not what was uploaded (%d bytes)", key, n)
	}
	return nil
}

// listLimit bounds a manifest, tree or sealed list read back (some
// 100,000 files).
const listLimit = 64 << 20

// newestManifest is the newest manifest on the replica (nil and no
// error when there is none), with its key.
func newestManifest(ctx context.Context, s objectStore, ids []age.Identity) (*filesManifest, string, error) {
	keys, err := manifestKeys(ctx, s)
	if err != nil || len(keys) == 0 {
		return nil, "", err
	}
	key := keys[len(keys)-1]
	m, err := readManifest(ctx, s, key, ids)
	return m, key, err
}

// manifestKeys lists the manifests, oldest first.
func manifestKeys(ctx context.Context, s objectStore) ([]string, error) {
	all, err := s.List(ctx, manifestsDir)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, k := range all {
		if strings.HasSuffix(k, manifestExt) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys, nil
}

func readManifest(ctx context.Context, s objectStore, key string, ids []age.Identity) (*filesManifest, error) {
	b, err := openObject(ctx, s, key, ids, "", listLimit)
	if err != nil {
		return nil, err
	}
	var m filesManifest
	if err := json.Unmarshal(b, &m); err != nil || m.Format != manifestFormat {
		return nil, fmt.Errorf("%s: not a posbox files manifest", key)
	}
	if m.Version != manifestVersion {
		return nil, fmt.Errorf("%s: manifest version %d, this posbox reads %d (use a newer posbox)", key, m.Version, manifestVersion)
	}
	return &m, nil
}

// readJSONBlob reads the blob sum and decodes it into v.
func readJSONBlob(ctx context.Context, s objectStore, ids []age.Identity, sum string, v any) error {
	b, err := openObject(ctx, s, blobKey(sum), ids, sum, listLimit)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: not a posbox file list", blobKey(sum))
	}
	return nil
}

// manifestFiles reads every file entry m names, expanded (all chunks
// in Chunks), and the blobs m refers to: trees, sealed lists, chunks.
func manifestFiles(ctx context.Context, s objectStore, ids []age.Identity, m *filesManifest) ([]fileEntry, []string, error) {
	var files []fileEntry
	var refs []string
	for _, t := range m.Trees {
		f, r, err := treeFiles(ctx, s, ids, t.SHA256)
		if err != nil {
			return nil, nil, err
		}
		files, refs = append(files, f...), append(refs, r...)
	}
	return files, refs, nil
}

// treeFiles reads the tree sum: its file entries, expanded, and the
// blobs it refers to (itself, its sealed lists, their chunks).
func treeFiles(ctx context.Context, s objectStore, ids []age.Identity, sum string) ([]fileEntry, []string, error) {
	var entries []fileEntry
	if err := readJSONBlob(ctx, s, ids, sum, &entries); err != nil {
		return nil, nil, err
	}
	refs := []string{sum}
	for i, e := range entries {
		if e.Sealed != "" {
			var big []string
			if err := readJSONBlob(ctx, s, ids, e.Sealed, &big); err != nil {
				return nil, nil, err
			}
			refs = append(refs, e.Sealed)
			sealed := make([]chunkRef, 0, len(big)+len(e.Chunks))
			for _, b := range big {
				sealed = append(sealed, chunkRef{SHA256: b, Size: bigChunk})
			}
			e.Chunks, e.Sealed = append(sealed, e.Chunks...), ""
		}
		for _, c := range e.Chunks {
			refs = append(refs, c.SHA256)
		}
		entries[i] = e
	}
	return entries, refs, nil
}

// stored is e as a tree holds it: its big chunks moved to a sealed
// list (returned, nil without big chunks).
func stored(e fileEntry) (fileEntry, []byte) {
	n := 0
	for n < len(e.Chunks) && e.Chunks[n].Size == bigChunk && int64(n+1)*bigChunk <= sealedEnd(e.Size) {
		n++
	}
	if n == 0 {
		return e, nil
	}
	big := make([]string, n)
	for i := range n {
		big[i] = e.Chunks[i].SHA256
	}
	list, _ := json.Marshal(big)
	e.Sealed, e.Chunks = sumHex(list), e.Chunks[n:]
	return e, list
}

// treeDir is the tree an entry belongs to.
func treeDir(e fileEntry) string {
	if e.Config {
		return configDir
	}
	if d := path.Dir(e.Path); d != "." {
		return d
	}
	return ""
}
