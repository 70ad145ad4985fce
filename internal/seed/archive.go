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

// newArchive is fiscal/archive on historyTSE, filing where serve does.
func (g *gen) newArchive() error {
	info, err := g.sim.TSS(context.Background())
	if err != nil {
		return err
	}
	g.htse = &historyTSE{Simulator: g.sim, cert: info.CertificateDER, tars: map[string][]byte{}}
	g.arch, err = archive.New(g.htse, g.htse, g.st, archive.Options{RestaurantID: g.r.ID,
		Dir: filepath.Join(g.o.DataDir, "archive", "tse"),
		// Its waits (between polls, before a retry) move the clock.
		Sleep: func(ctx context.Context, d time.Duration) error {
			g.clock.Set(g.clock.Now().Add(d))
			return ctx.Err()
		},
		Logger: slog.New(slog.DiscardHandler)})
	return err
}

// archiveNight runs the night's archive after day (a history day: its
// revisions' log messages serve the export).
func (g *gen) archiveNight(ctx context.Context, fd *fiscalDay) error {
	at := g.at(fd.day.AddDate(0, 0, 1), archiveHour, 0)
	if at.After(g.o.Now) {
		return nil // tonight's run is the box's own
	}
	g.htse.mu.Lock()
	g.htse.day, g.htse.tars = map[uint64]*tsetar.LogMessage{}, map[string][]byte{}
	for _, tx := range fd.revisions {
		m, err := tse.TxLogMessage(tx)
		if err != nil {
			g.htse.mu.Unlock()
			return err
		}
		g.htse.day[tx.Signature.Counter] = m
		g.htse.counter = max(g.htse.counter, tx.Signature.Counter)
	}
	g.htse.mu.Unlock()
	g.clock.Set(at)
	if err := g.arch.Run(ctx); err != nil {
		return err
	}
	g.res.Archives++
	return nil
}
