package seed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"posbox/fiscal/archive"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
	"posbox/tse/tsetar"
)

// The archive: the first range (what setting up the TSS and its clients
// signed) is filed by fiscal/archive's own job from the simulator's
// export. Each night of the history after it is filed as that job files
// a night at 03:00, with the same rows through the same store calls
// (planned, exporting, verifying 5 s later at its first poll, archived),
// the same TAR (tsetar's format, from the day's signed revisions) under
// the same name with its .sha256 beside it, both 0400. What the seeder
// leaves out is the job's verification of every signature it signed
// itself: 2.2 million ECDSA verifications in ten years, a quarter of the
// seeding's CPU. TestSeededBoxWorks verifies the seeded TARs with
// tsetar as the job does.

// archiveHour is when the nightly archive runs (local).
const archiveHour = 3

// firstPoll is how long after triggering an export the job downloads a
// completed one (fiscal/archive's minPollInterval: 12 calls a minute).
const firstPoll = 5 * time.Second

// archiver files the nights: the TAR is made with the day's signing
// (prepareDay, beside the writing), the rows by the writing goroutine on
// the seeding store. (A store of its own, as the job has on a box, would
// cost the writing its page cache every night: in WAL mode a connection
// drops its cache when another one has committed.)
type archiver struct {
	dir          string
	restaurantID string
	tssID        string
	serial       string
	cert         []byte
	runs         int
}

// newArchiver runs fiscal/archive's job once on the simulator (the
// first range) on the seeding store and clock.
func newArchiver(ctx context.Context, o Options, sim *tsesim.Simulator, st *store.Store, clock *Clock, restaurantID string) (*archiver, error) {
	a := &archiver{dir: filepath.Join(o.DataDir, "archive", "tse"), restaurantID: restaurantID, tssID: sim.TSSID()}
	info, err := sim.TSS(ctx)
	if err != nil {
		return nil, err
	}
	a.serial, a.cert = info.SerialNumber, info.CertificateDER
	arch, err := archive.New(sim, sim, st, archive.Options{RestaurantID: restaurantID, Dir: a.dir,
		// Its waits (between polls, before a retry) move the clock.
		Sleep: func(ctx context.Context, d time.Duration) error {
			clock.Set(clock.Now().Add(d))
			return ctx.Err()
		},
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, err
	}
	defer arch.Close()
	return a, arch.Run(ctx)
}

// nightTAR is a history day's export for its night, made with its
// signing: the counters of its revisions, which the night's range is.
type nightTAR struct {
	b   []byte
	res store.TSEArchiveResult
}

// makeTAR is the export of a day's revisions as the simulator writes
// one, with what the job's verification reads from it.
func (a *archiver) makeTAR(revs []tse.Tx) (*nightTAR, error) {
	day := make(map[uint64]*tsetar.LogMessage, len(revs))
	var first, last uint64
	for _, tx := range revs {
		m, err := tse.TxLogMessage(tx)
		if err != nil {
			return nil, err
		}
		c := tx.Signature.Counter
		day[c] = m
		if first == 0 || c < first {
			first = c
		}
		last = max(last, c)
	}
	b, res, err := a.tar(first, last, day)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	res.SizeBytes, res.SHA256 = int64(len(b)), hex.EncodeToString(sum[:])
	res.FileName = archive.RangeFileName(a.serial, res.FirstCounter, res.LastCounter)
	return &nightTAR{b: b, res: res}, nil
}

// night is the archive's run at archiveHour after a history day: it
// plans the range up to the day's last counter, which must be the day's
// TAR, and files it as the job does.
func (g *gen) night(ctx context.Context, fd *fiscalDay) error {
	a, t := g.archiver, fd.tar
	g.clock.Set(fd.archiveAt)
	planned, err := g.st.PlanTSEArchiveRanges(ctx, a.restaurantID, a.tssID, a.serial, t.res.LastCounter, tse.MaxExportRecords)
	if err != nil {
		return err
	}
	if len(planned) != 1 || *planned[0].FirstCounter != t.res.FirstCounter {
		return fmt.Errorf("seed: the night after %s planned %d ranges, not the day's counters %d-%d",
			fd.day.Format(store.DateFormat), len(planned), t.res.FirstCounter, t.res.LastCounter)
	}
	r := planned[0]
	if err := g.st.StartTSEArchiveExport(ctx, r.ID); err != nil {
		return err
	}
	g.clock.Set(g.clock.Now().Add(firstPoll))
	if err := g.st.VerifyingTSEArchive(ctx, r.ID); err != nil {
		return err
	}
	final := filepath.Join(a.dir, t.res.FileName)
	if err := os.WriteFile(final, t.b, 0o400); err != nil {
		return err
	}
	if err := os.WriteFile(final+".sha256", archive.SumLine(t.res.SHA256, t.res.FileName), 0o400); err != nil {
		return err
	}
	if _, err := g.st.ArchiveTSEArchive(ctx, r.ID, t.res); err != nil {
		return err
	}
	a.runs++
	return nil
}

// tar writes counters first..last of day.
func (a *archiver) tar(first, last uint64, day map[uint64]*tsetar.LogMessage) ([]byte, store.TSEArchiveResult, error) {
	res := store.TSEArchiveResult{FirstCounter: int64(first), LastCounter: int64(last)}
	var buf bytes.Buffer
	tw := tsetar.NewWriter(&buf, time.Now())
	err := tw.WriteInfo("posbox simulator TSS", "posbox simulator", "posbox-sim TR-03151 export 1")
	if err == nil {
		err = tw.WriteCertificate(a.cert)
	}
	for c := first; c <= last && err == nil; c++ {
		m := day[c]
		if m == nil {
			return nil, res, fmt.Errorf("seed: counter %d is not in the day's history", c)
		}
		t := m.LogTime.UTC()
		if res.LogMessages == 0 || t.Before(res.FirstLogTime) {
			res.FirstLogTime = t
		}
		if t.After(res.LastLogTime) {
			res.LastLogTime = t
		}
		res.LogMessages++
		_, err = tw.WriteLogMessage(m)
	}
	if err == nil {
		err = tw.Close()
	}
	return buf.Bytes(), res, err
}
