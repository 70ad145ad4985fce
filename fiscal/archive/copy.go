package archive

// The archive's copy off the box (`posbox archive copy DEST`, e.g. onto a
// USB stick for the tax office): every archived TAR with its .sha256,
// checked before and after copying; nothing in DEST is overwritten.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// CopyResult counts what Copy did: files copied, and files the
// destination held already with the same content.
type CopyResult struct{ Copied, Present int }

// Copy copies every TAR of src that has its .sha256 (an archived
// one) into dest with that file, checked before and after. It goes on
// past a damaged or conflicting file and reports them all at the end.
func Copy(ctx context.Context, src, dest string) (CopyResult, error) {
	var res CopyResult
	if fi, err := os.Stat(dest); err != nil {
		return res, fmt.Errorf("archive copy: %w (the folder must exist: is the USB stick mounted?)", err)
	} else if !fi.IsDir() {
		return res, fmt.Errorf("archive copy: %s is not a folder", dest)
	}
	entries, err := os.ReadDir(src)
	if errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("archive copy: %s does not exist: nothing is archived yet", src)
	}
	if err != nil {
		return res, err
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); e.Type().IsRegular() && strings.HasSuffix(n, ".tar") && !strings.HasPrefix(n, ".") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var errs []error
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		copied, err := copyArchived(src, dest, name)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		case copied:
			res.Copied++
		default:
			res.Present++
		}
	}
	return res, errors.Join(errs...)
}

// copyArchived copies one TAR and its .sha256 unless dest has them
// already; copied says whether it wrote anything.
func copyArchived(src, dest, name string) (copied bool, err error) {
	line, err := os.ReadFile(filepath.Join(src, name+".sha256"))
	if errors.Is(err, fs.ErrNotExist) {
		return false, errors.New("no .sha256 beside it: not archived yet (posbox finishes it at its next run)")
	}
	if err != nil {
		return false, err
	}
	want, _, _ := strings.Cut(string(line), " ")
	if have, err := FileSHA256(filepath.Join(src, name)); err != nil {
		return false, err
	} else if have != want {
		return false, fmt.Errorf("damaged on the box: sha256 %s, its .sha256 says %s (copy it from a backup)", have, want)
	}
	for _, n := range []string{name, name + ".sha256"} {
		target := filepath.Join(dest, n)
		if _, err := os.Lstat(target); err == nil {
			same, err := sameFile(filepath.Join(src, n), target)
			if err != nil {
				return copied, err
			}
			if !same {
				return copied, fmt.Errorf("%s exists with other content: not overwritten", target)
			}
			continue
		}
		if err := copyChecked(filepath.Join(src, n), dest, n); err != nil {
			return copied, err
		}
		copied = true
	}
	return copied, nil
}

// copyChecked copies src to dest/name through a temporary file, compares
// the copy with the original, and only then gives it its name.
func copyChecked(src, dest, name string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := filepath.Join(dest, "."+name+".tmp")
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		var same bool
		if same, err = sameFile(src, tmp); err == nil && !same {
			err = errors.New("the copy differs from the original")
		}
	}
	if err == nil {
		_ = os.Chmod(tmp, 0o400) // where the file system knows modes
		err = os.Rename(tmp, filepath.Join(dest, name))
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// sameFile reports whether a and b hold the same bytes (by SHA-256).
func sameFile(a, b string) (bool, error) {
	x, err := FileSHA256(a)
	if err != nil {
		return false, err
	}
	y, err := FileSHA256(b)
	return err == nil && bytes.Equal([]byte(x), []byte(y)), err
}
