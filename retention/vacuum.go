package retention

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"posbox/internal/diskfree"
	"posbox/store"
)

const (
	// vacuumStep is what one incremental_vacuum gives back (1 MiB of
	// 4 KiB pages): one write that moves pages from the end of the file
	// into the holes and rewrites their parents' pointers, so on an SD
	// card with slow random writes it may take tens of milliseconds; the
	// tills' writes wait behind one step, never behind the whole run.
	vacuumStep = 256
	// vacuumMaxSteps bounds one run (512 MiB); the next run goes on.
	vacuumMaxSteps = 512

	// ConvertMaxBytes is the largest file converted to incremental
	// auto-vacuum by the job on its own: its VACUUM holds off every write
	// while it rewrites the file, and at this size that takes seconds
	// (docs/RETENTION.md has the measurement). A larger file keeps
	// reusing its free pages (it grows no more once retention removes
	// what a year adds) and is converted by hand, with the service
	// stopped (posbox migrate --vacuum).
	ConvertMaxBytes = 128 << 20
	// convertQuiet is how long nothing may have happened before the
	// conversion: no record, nobody clocked in, no TSE transaction open.
	convertQuiet = 30 * time.Minute
	// convertHour is the restaurant-local hour in which the conversion
	// may run: after service, before the nightly archive and closing.
	convertHour = 3
	// convertSlack is free space needed beyond twice the file.
	convertSlack = 64 << 20
)

// vacuum gives free pages back to the file system after a prune, or, on
// a file without auto-vacuum, converts it once at night if it may.
func (j *Job) vacuum(ctx context.Context, now time.Time, loc *time.Location, rests []string) (freed int64, converted bool, err error) {
	fs, err := j.st.FileSpace(ctx)
	if err != nil {
		return 0, false, err
	}
	switch fs.AutoVacuum {
	case store.AutoVacuumIncremental:
		for i := 0; i < vacuumMaxSteps && fs.FreelistCount > 0; i++ {
			before := fs.FreelistCount
			if err := j.step(ctx, vacuumStep); err != nil {
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
		if now.In(loc).Hour() != convertHour {
			return 0, false, nil
		}
		converted, err = j.convert(ctx, fs, now, rests)
		return 0, converted, err
	}
	return 0, false, nil
}

// convert switches the file to incremental auto-vacuum with one VACUUM,
// which holds off every write until it is done: only for a small file, on
// a quiet box, without replication (the rewritten file would go to the
// replica whole), with the space free. Otherwise it says why, once a
// night, and the file goes on reusing its free pages.
func (j *Job) convert(ctx context.Context, fs store.FileSpace, now time.Time, rests []string) (bool, error) {
	size := fs.Bytes()
	log := j.opt.Logger
	switch {
	case j.opt.Replicated:
		log.Warn("retention: replication is on, so the database is not switched to incremental vacuum on its own: "+
			"stop the service and run posbox migrate --vacuum (docs/RETENTION.md)", "bytes", size)
		return false, nil
	case size > ConvertMaxBytes:
		log.Warn("retention: the database file is too large to switch to incremental vacuum on its own: "+
			"stop the service and run posbox migrate --vacuum (docs/RETENTION.md)", "bytes", size)
		return false, nil
	}
	for _, id := range rests {
		a, err := j.st.Activity(ctx, id)
		if err != nil {
			return false, err
		}
		if !a.Quiet(now, convertQuiet) {
			log.Info("retention: the box is in use; the switch to incremental vacuum waits for a quiet night",
				"clocked_in", a.ClockedIn, "open_tse", a.OpenTSE)
			return false, nil
		}
	}
	if err := checkSpace(j.free, filepath.Dir(j.st.Path()), size); err != nil {
		log.Warn("retention: the database is not switched to incremental vacuum", "reason", err.Error())
		return false, nil
	}
	if err := j.st.ConvertToIncrementalVacuum(ctx); err != nil {
		return false, err
	}
	after, err := j.st.FileSpace(ctx)
	if err == nil {
		log.Info("retention: database switched to incremental vacuum", "bytes_before", size, "bytes_after", after.Bytes())
	}
	return true, err
}

// CheckConvertSpace says whether the disks hold what the VACUUM of a
// dbBytes file in dataDir needs: the temporary copy where SQLite puts it
// (sqliteTempDir) and, in the data dir, the WAL that carries the
// rewritten file, with some room to spare. posbox migrate --vacuum checks
// it as the job does.
func CheckConvertSpace(dataDir string, dbBytes int64) error {
	return checkSpace(diskfree.Available, dataDir, dbBytes)
}

func checkSpace(free func(string) (int64, error), dataDir string, size int64) error {
	tmp := sqliteTempDir(os.Getenv)
	for _, c := range []struct {
		dir  string
		need int64
	}{{dataDir, 2*size + convertSlack}, {tmp, size + convertSlack}} {
		have, err := free(c.dir)
		if err != nil {
			return fmt.Errorf("free space on %s: %w", c.dir, err)
		}
		if have < c.need {
			return fmt.Errorf("not enough free space on %s: %d MiB free, %d MiB needed", c.dir, have>>20, c.need>>20)
		}
	}
	return nil
}
