package retention

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"posbox/store"
)

const (
	// vacuumStep is what one incremental_vacuum gives back (8 MiB of
	// 4 KiB pages): one short write, the tills' writes wait behind it
	// for milliseconds.
	vacuumStep = 2048
	// vacuumMaxSteps bounds one run (512 MiB); the next run goes on.
	vacuumMaxSteps = 64

	// ConvertMaxBytes is the largest file converted to incremental
	// auto-vacuum by the job on its own: its VACUUM holds off every write
	// while it rewrites the file, about a minute for 1 GiB on an SD card.
	// A larger file keeps reusing its free pages (it grows no more once
	// retention removes what a year adds) and is converted by hand
	// (docs/RETENTION.md).
	ConvertMaxBytes = 1 << 30
	// convertHour is the restaurant-local hour in which the conversion
	// may run: after service, before the nightly archive and closing.
	convertHour = 3
	// convertSlack is free space needed beyond twice the file.
	convertSlack = 64 << 20
)

// vacuum gives free pages back to the file system after a prune, or, on
// a file without auto-vacuum, converts it once at night if it may.
func (j *Job) vacuum(ctx context.Context, local time.Time) (freed int64, converted bool, err error) {
	fs, err := j.st.FileSpace(ctx)
	if err != nil {
		return 0, false, err
	}
	switch fs.AutoVacuum {
	case store.AutoVacuumIncremental:
		for i := 0; i < vacuumMaxSteps && fs.FreelistCount > 0; i++ {
			before := fs.FreelistCount
			if err := j.st.IncrementalVacuum(ctx, vacuumStep); err != nil {
				return freed, false, err
			}
			if fs, err = j.st.FileSpace(ctx); err != nil {
				return freed, false, err
			}
			if fs.FreelistCount >= before {
				break
			}
			freed += before - fs.FreelistCount
		}
		return freed, false, nil
	case store.AutoVacuumNone:
		if local.Hour() != convertHour {
			return 0, false, nil
		}
		converted, err = j.convert(ctx, fs)
		return 0, converted, err
	}
	return 0, false, nil
}

// convert switches the file to incremental auto-vacuum with one VACUUM
// when it is small enough and the space is there; else it says why, once
// a night, and the file goes on reusing its free pages.
func (j *Job) convert(ctx context.Context, fs store.FileSpace) (bool, error) {
	size := fs.Bytes()
	if size > ConvertMaxBytes {
		j.opt.Logger.Warn("retention: the database file is too large to switch to incremental vacuum on its own; see docs/RETENTION.md",
			"bytes", size)
		return false, nil
	}
	free, err := j.free(filepath.Dir(j.st.Path()))
	if err != nil {
		return false, fmt.Errorf("free space: %w", err)
	}
	if need := 2*size + convertSlack; free < need {
		j.opt.Logger.Warn("retention: not enough free space to switch the database to incremental vacuum",
			"free_bytes", free, "needed_bytes", need)
		return false, nil
	}
	if err := j.st.ConvertToIncrementalVacuum(ctx); err != nil {
		return false, err
	}
	after, err := j.st.FileSpace(ctx)
	if err == nil {
		j.opt.Logger.Info("retention: database switched to incremental vacuum", "bytes_before", size, "bytes_after", after.Bytes())
	}
	return true, err
}
