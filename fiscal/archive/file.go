package archive

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"posbox/store"
	"posbox/tse"
)

// file downloads a completed export into a temporary file beside the
// archive (".<export id>.tar.tmp", which backups skip), verifies it and,
// only when it passes, moves it to its final name, read-only, with its
// SHA-256 in the store and in a ".sha256" file beside it. A TAR that
// fails verification is deleted, its range stays pending with the reason
// and tse_error is raised (store.RejectTSEArchive).
func (a *Archive) file(ctx context.Context, r *store.TSEArchive, info tse.TSSInfo, pub *ecdsa.PublicKey) error {
	tmp := filepath.Join(a.o.Dir, "."+r.ExportID+".tar.tmp")
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	keep := false
	defer func() {
		f.Close()
		if !keep {
			os.Remove(tmp)
		}
	}()
	h := sha256.New()
	size, err := a.ex.DownloadExport(ctx, r.ExportID, io.MultiWriter(f, h))
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if err := a.st.VerifyingTSEArchive(ctx, r.ID); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	res, finding, err := a.verify(ctx, r, f, info, pub)
	if err != nil {
		return err
	}
	now := a.now()
	if finding != nil {
		a.log.Error("archive: TAR failed verification; the range stays pending", "archive_id", r.ID, "export_id", r.ExportID,
			"code", finding.Code, "reason", finding.Reason)
		return a.st.RejectTSEArchive(ctx, r, now.Add(retryRejected), *finding)
	}
	res.SizeBytes, res.SHA256 = size, sum
	res.FileName = fileName(r, info.SerialNumber, res)
	if err := f.Chmod(0o400); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := a.place(tmp, res.FileName, sum); err != nil {
		return err
	}
	keep = true // renamed: nothing left to remove
	ar, err := a.st.ArchiveTSEArchive(ctx, r.ID, res)
	if err != nil {
		return err
	}
	a.log.Info("archive: TAR archived", "archive_id", ar.ID, "file", ar.FileName, "first_counter", res.FirstCounter,
		"last_counter", res.LastCounter, "log_messages", res.LogMessages, "sha256", sum)
	return nil
}

// fileName names an archived TAR by the TSS serial and its counter range;
// an admin's dates export adds "dates" and the export id's first group, as
// the same dates may be exported more than once.
func fileName(r *store.TSEArchive, serial string, res store.TSEArchiveResult) string {
	if r.Kind != store.TSEArchiveDates {
		return RangeFileName(serial, res.FirstCounter, res.LastCounter)
	}
	id, _, _ := strings.Cut(r.ExportID, "-")
	return fmt.Sprintf("%s_%d-%d_dates_%s.tar", strings.ToLower(serial), res.FirstCounter, res.LastCounter, id)
}

// RangeFileName names the TAR of a nightly range: the TSS serial and the
// signature counters it holds (the seeder files history under it too).
func RangeFileName(serial string, first, last int64) string {
	return fmt.Sprintf("%s_%d-%d.tar", strings.ToLower(serial), first, last)
}

// SumLine is name's line in name.sha256, the format of sha256sum -c.
func SumLine(sum, name string) []byte { return []byte(sum + "  " + name + "\n") }

// place moves the verified temporary file to name and writes name.sha256
// (the format of sha256sum -c), both 0400. It never replaces a file: a
// restart between the rename and the store's commit finds the same
// content there, which is fine; other content is an error.
func (a *Archive) place(tmp, name, sum string) error {
	final := filepath.Join(a.o.Dir, name)
	if _, err := os.Lstat(final); err == nil {
		have, err := FileSHA256(final)
		if err != nil {
			return err
		}
		if have != sum {
			return fmt.Errorf("archive: %s exists with other content (sha256 %s, the new TAR %s): not replaced", final, have, sum)
		}
		if err := os.Remove(tmp); err != nil {
			return err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	} else if err := os.Rename(tmp, final); err != nil {
		return err
	}
	sumFile := final + ".sha256"
	line := SumLine(sum, name)
	if old, err := os.ReadFile(sumFile); err == nil {
		if !bytes.Equal(old, line) {
			return fmt.Errorf("archive: %s exists with another checksum: not replaced", sumFile)
		}
	} else {
		stmp := filepath.Join(a.o.Dir, "."+name+".sha256.tmp")
		if err := os.WriteFile(stmp, line, 0o400); err != nil {
			os.Remove(stmp)
			return err
		}
		if err := os.Rename(stmp, sumFile); err != nil {
			os.Remove(stmp)
			return err
		}
	}
	return store.SyncDir(a.o.Dir)
}

// FileSHA256 is the hex SHA-256 of a file (as in its .sha256 beside it).
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
