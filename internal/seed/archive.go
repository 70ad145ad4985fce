package seed

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"posbox/fiscal/archive"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsesim"
	"posbox/tse/tsetar"
)

// The archive is made by fiscal/archive's own job, run every night at
// 03:00 on the seeding clock: it plans the night's signature-counter
// range, exports, verifies and files the TAR and records it, as on a
// box. Its provider is the simulator, except for the history's counters,
// which the simulator's journal does not hold (tsesim/history.go):
// historyTSE serves those exports from the day's signed revisions, and
// the simulator's counter as the history has reached it.

// archiveHour is when the nightly archive runs (local).
const archiveHour = 3

// historyTSE is the simulator with the history's exports.
type historyTSE struct {
	*tsesim.Simulator
	mu      sync.Mutex
	counter uint64 // the history's last counter archived tonight; 0: the simulator's
	day     map[uint64]*tsetar.LogMessage
	cert    []byte
	tars    map[string][]byte // export id → TAR
}

// TSS is the simulator's TSS with the history's counter.
func (h *historyTSE) TSS(ctx context.Context) (tse.TSSInfo, error) {
	info, err := h.Simulator.TSS(ctx)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.counter > 0 {
		info.SignatureCounter = h.counter
	}
	return info, err
}

// StartExport builds a history range's TAR at once; other ranges go to
// the simulator.
func (h *historyTSE) StartExport(ctx context.Context, id string, f tse.ExportFilter) (tse.Export, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tars[id] != nil {
		return h.done(id), nil
	}
	if h.day[uint64(f.StartSignatureCounter)] == nil {
		return h.Simulator.StartExport(ctx, id, f)
	}
	var buf bytes.Buffer
	tw := tsetar.NewWriter(&buf, time.Now())
	err := tw.WriteInfo("posbox simulator TSS", "posbox simulator", "posbox-sim TR-03151 export 1")
	if err == nil {
		err = tw.WriteCertificate(h.cert)
	}
	for c := uint64(f.StartSignatureCounter); c <= uint64(f.EndSignatureCounter) && err == nil; c++ {
		m := h.day[c]
		if m == nil {
			return tse.Export{}, fmt.Errorf("seed: counter %d is not in the day's history", c)
		}
		_, err = tw.WriteLogMessage(m)
	}
	if err == nil {
		err = tw.Close()
	}
	if err != nil {
		return tse.Export{}, err
	}
	h.tars[id] = buf.Bytes()
	return h.done(id), nil
}

func (h *historyTSE) done(id string) tse.Export {
	return tse.Export{ID: id, State: tse.ExportCompleted}
}

// Export reads an export's state.
func (h *historyTSE) Export(ctx context.Context, id string) (tse.Export, error) {
	h.mu.Lock()
	_, ok := h.tars[id]
	h.mu.Unlock()
	if ok {
		return h.done(id), nil
	}
	return h.Simulator.Export(ctx, id)
}

// DownloadExport writes an export's TAR; a history one once.
func (h *historyTSE) DownloadExport(ctx context.Context, id string, w io.Writer) (int64, error) {
	h.mu.Lock()
	b, ok := h.tars[id]
	h.mu.Unlock()
	if !ok {
		return h.Simulator.DownloadExport(ctx, id, w)
	}
	n, err := w.Write(b)
	return int64(n), err
}

// archiver runs the nightly archive beside the writing of the next
// days: verifying a day's TAR (600 signatures) costs as much as writing
// the day. It has its own clock and its own store on the file (the
// writes of two stores queue on SQLite's lock), so its records carry the
// night's times.
type archiver struct {
	clock  *Clock
	st     *store.Store
	htse   *historyTSE
	arch   *archive.Archive
	nights chan *fiscalDay
	done   chan error
	runs   int
}

// newArchiver is fiscal/archive on historyTSE, filing where serve does.
func newArchiver(ctx context.Context, o Options, sim *tsesim.Simulator, restaurantID string, start time.Time) (*archiver, error) {
	a := &archiver{clock: &Clock{}, nights: make(chan *fiscalDay, 4), done: make(chan error, 1)}
	a.clock.Set(start)
	info, err := sim.TSS(ctx)
	if err != nil {
		return nil, err
	}
	a.htse = &historyTSE{Simulator: sim, cert: info.CertificateDER, tars: map[string][]byte{}}
	if a.st, err = store.Open(ctx, o.DataDir, store.Options{Now: a.clock.Now, Synchronous: "NORMAL",
		Logger: slog.New(slog.DiscardHandler)}); err != nil {
		return nil, err
	}
	a.arch, err = archive.New(a.htse, a.htse, a.st, archive.Options{RestaurantID: restaurantID,
		Dir: filepath.Join(o.DataDir, "archive", "tse"),
		// Its waits (between polls, before a retry) move its clock.
		Sleep: func(ctx context.Context, d time.Duration) error {
			a.clock.Set(a.clock.Now().Add(d))
			return ctx.Err()
		},
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		a.st.Close()
		return nil, err
	}
	// The first range: what setting up the TSS and its clients signed,
	// exported by the simulator itself.
	if err := a.arch.Run(ctx); err != nil {
		a.st.Close()
		return nil, err
	}
	go func() { a.done <- a.loop(ctx) }()
	return a, nil
}

// loop archives each night handed in, in order; after a failure it
// drains the rest.
func (a *archiver) loop(ctx context.Context) error {
	var err error
	for fd := range a.nights {
		if err == nil {
			err = a.night(ctx, fd)
		}
	}
	return err
}

// close waits for the nights handed in and closes the store; the first
// failure is returned.
func (a *archiver) close() error {
	close(a.nights)
	err := <-a.done
	if cerr := a.st.Close(); err == nil {
		err = cerr
	}
	return err
}

// night runs the archive at archiveHour after a history day, whose
// revisions' log messages serve the export.
func (a *archiver) night(ctx context.Context, fd *fiscalDay) error {
	h := a.htse
	h.mu.Lock()
	h.day, h.tars = map[uint64]*tsetar.LogMessage{}, map[string][]byte{}
	for _, tx := range fd.revisions {
		m, err := tse.TxLogMessage(tx)
		if err != nil {
			h.mu.Unlock()
			return err
		}
		h.day[tx.Signature.Counter] = m
		h.counter = max(h.counter, tx.Signature.Counter)
	}
	h.mu.Unlock()
	a.clock.Set(fd.archiveAt)
	if err := a.arch.Run(ctx); err != nil {
		return fmt.Errorf("archive after %s: %w", fd.day.Format(store.DateFormat), err)
	}
	a.runs++
	return nil
}

// archiveNight hands a history day to the archiver unless its night is
// still to come (tonight's run is the box's own).
func (g *gen) archiveNight(fd *fiscalDay) {
	fd.archiveAt = g.at(fd.day.AddDate(0, 0, 1), archiveHour, 0)
	if fd.archiveAt.Before(g.o.Now) {
		g.archiver.nights <- fd
	}
}
