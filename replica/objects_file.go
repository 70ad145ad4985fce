package replica

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// fileObjects is the object store of a file:// replica (a NAS or USB
// mount). Like folderGuard, it never creates the replica's folder
// itself: while it is missing (the share not mounted) every call fails.
type fileObjects struct{ root string }

func (s *fileObjects) path(key string) string { return filepath.Join(s.root, filepath.FromSlash(key)) }

func (s *fileObjects) checkRoot() error {
	if fi, err := os.Stat(s.root); err != nil || !fi.IsDir() {
		return fmt.Errorf("replica folder %s is missing (share or disk not mounted?); create it once on the mounted share", s.root)
	}
	return nil
}

// Put writes a temporary file beside the object, syncs it and links it
// into place: a link fails when the object exists, so nothing is ever
// overwritten, and a reader never sees half an object.
func (s *fileObjects) Put(_ context.Context, key string, r io.Reader) error {
	if err := s.checkRoot(); err != nil {
		return err
	}
	p := s.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), filepath.Base(p)+tmpMark+"*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Link(f.Name(), p); errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s: %w", key, errExists)
	} else if err != nil {
		return err
	}
	return syncDir(filepath.Dir(p))
}

func (s *fileObjects) Get(_ context.Context, key string) (io.ReadCloser, error) {
	if err := s.checkRoot(); err != nil {
		return nil, err
	}
	return os.Open(s.path(key))
}

func (s *fileObjects) List(_ context.Context, prefix string) ([]string, error) {
	if err := s.checkRoot(); err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(s.path(prefix))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return baseNames(prefix, names), nil
}

func (s *fileObjects) Delete(_ context.Context, key string) error {
	if err := os.Remove(s.path(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (s *fileObjects) Close() error { return nil }

// syncDir makes a new name in dir durable; Windows cannot sync a
// folder (the file itself was synced).
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
