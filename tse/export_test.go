package tse_test

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
	"posbox/tse/tsetar"
)

const testExportDelay = 30 * time.Second

func exportSim(t testing.TB, mod ...func(*tsesim.Config)) *simtest.HTTP {
	return simtest.NewHTTP(t, append([]func(*tsesim.Config){func(c *tsesim.Config) { c.ExportDelay = testExportDelay }}, mod...)...)
}

// waitExport polls until the export is done, moving the test clock by
// the Retry-After the provider asks for; it returns the polls it took.
func waitExport(t testing.TB, clk interface{ Add(time.Duration) }, x tse.Exporter, id string) (tse.Export, int) {
	t.Helper()
	for polls := 1; polls < 30; polls++ {
		e, err := x.Export(context.Background(), id)
		if err != nil {
			t.Fatalf("export %s: %v", id, err)
		}
		if e.State != tse.ExportPending && e.State != tse.ExportWorking {
			return e, polls
		}
		if e.RetryAfter < 5*time.Second || e.RetryAfter > time.Minute || e.EstimatedCompletion.IsZero() {
			t.Fatalf("running export: retry after %s, estimated %s", e.RetryAfter, e.EstimatedCompletion)
		}
		clk.Add(e.RetryAfter)
	}
	t.Fatalf("export %s never finished", id)
	return tse.Export{}, 0
}

func download(t testing.TB, x tse.Exporter, id string) []byte {
	t.Helper()
	var b bytes.Buffer
	n, err := x.DownloadExport(context.Background(), id, &b)
	if err != nil || n != int64(b.Len()) || n == 0 {
		t.Fatalf("download %s: %d bytes (%d) %v", id, n, b.Len(), err)
	}
	return b.Bytes()
}

// tarSignatures maps each log message's counter to its signature, read
// straight from the TAR.
func tarSignatures(t testing.TB, b []byte) map[uint64]string {
	t.Helper()
	out := map[uint64]string{}
	tr := tar.NewReader(bytes.NewReader(b))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(hdr.Name, ".log") {
			continue
		}
		der, _ := io.ReadAll(tr)
		m, err := tsetar.ParseLogMessage(der)
		if err != nil {
			t.Fatalf("%s: %v", hdr.Name, err)
		}
		out[m.SignatureCounter] = base64.StdEncoding.EncodeToString(m.SignatureValue)
	}
}

// Sales through the fiskaly client over HTTP, exported in two
// signature-counter ranges, downloaded and verified: every signature and
// counter, every revision present with the very signature its answer (and
// so the receipt) carried.
func TestExportRoundTripOverHTTP(t *testing.T) {
	h := exportSim(t)
	f := h.Client(t)
	ctx := context.Background()
	if _, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	var signed []tse.Tx
	for range 3 {
		h.Clk.Add(time.Minute)
		start, fin := simtest.Sell(t, f, tse.NewUUID4())
		signed = append(signed, start, fin)
	}
	info, err := f.TSS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := tse.ParsePublicKey(info.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	last := info.SignatureCounter

	id := tse.NewUUID4()
	e, err := f.StartExport(ctx, id, tse.ExportFilter{StartSignatureCounter: 1, EndSignatureCounter: int64(last)})
	if err != nil || e.ID != id || e.State != tse.ExportPending || e.Requested.IsZero() {
		t.Fatalf("start: %+v %v", e, err)
	}
	// Starting the same id again answers the same export.
	if again, err := f.StartExport(ctx, id, tse.ExportFilter{StartSignatureCounter: 1, EndSignatureCounter: int64(last)}); err != nil || again.ID != id || !again.Requested.Equal(e.Requested) {
		t.Fatalf("start again: %+v %v", again, err)
	}
	// Too early for the file: 404 E_EXPORT_NOT_COMPLETED, Retry-After 60.
	_, err = f.DownloadExport(ctx, id, io.Discard)
	if wait, ok := tse.RetryAfterOf(err); !ok || wait != time.Minute || tse.CodeOf(err) != tse.CodeExportNotCompleted {
		t.Fatalf("early download: %v (retry %s %v)", err, wait, ok)
	}
	done, polls := waitExport(t, h.Clk, f, id)
	if done.State != tse.ExportCompleted || done.Ended.IsZero() || done.Expires.Before(done.Ended) || polls < 2 {
		t.Fatalf("export: %+v after %d polls", done, polls)
	}
	tarball := download(t, f, id)

	rep, err := tsetar.Verify(bytes.NewReader(tarball), tsetar.Options{PublicKey: pub, SerialNumber: info.SerialNumber, FirstCounter: 1, LastCounter: last})
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if rep.Count != int(last) || rep.Transactions != len(signed) || rep.SerialNumber != info.SerialNumber ||
		len(rep.Certificates) != 2 || !strings.Contains(rep.Info, "posbox simulator") {
		t.Fatalf("report: %+v", rep)
	}
	sigs := tarSignatures(t, tarball)
	for _, tx := range signed {
		e := rep.Messages[tx.Signature.Counter-1]
		if e.Kind != tsetar.KindTransaction || e.TransactionNumber != tx.Number || e.Operation != tx.LogOperation ||
			e.ClientID != "KASSE-01" || !e.LogTime.Equal(tx.LogTime) {
			t.Fatalf("tx %d rev %d: entry %+v", tx.Number, tx.Revision, e)
		}
		if sigs[tx.Signature.Counter] != tx.Signature.Value {
			t.Fatalf("tx %d rev %d: the TAR's signature is not the one the answer carried", tx.Number, tx.Revision)
		}
		if err := tse.VerifyTx(pub, tx); err != nil {
			t.Fatal(err)
		}
	}
	// The setup's admin operations are system log messages.
	events := map[string]bool{}
	for _, e := range rep.Messages {
		if e.Kind == tsetar.KindSystem {
			events[e.EventType] = true
		}
	}
	for _, ev := range []string{"initialize", "authenticateUser", "registerClient", "logOut"} {
		if !events[ev] {
			t.Fatalf("no %s system log in %v", ev, events)
		}
	}

	// The next range continues the first.
	h.Clk.Add(time.Minute)
	_, fin := simtest.Sell(t, f, tse.NewUUID4())
	id2 := tse.NewUUID4()
	if _, err := f.StartExport(ctx, id2, tse.ExportFilter{StartSignatureCounter: int64(last) + 1, EndSignatureCounter: int64(fin.Signature.Counter)}); err != nil {
		t.Fatal(err)
	}
	waitExport(t, h.Clk, f, id2)
	rep2, err := tsetar.Verify(bytes.NewReader(download(t, f, id2)), tsetar.Options{PublicKey: pub, FirstCounter: last + 1, LastCounter: fin.Signature.Counter})
	if err != nil || rep2.Count != 2 || rep2.Messages[1].Operation != "Finish" {
		t.Fatalf("second range: %+v %v", rep2, err)
	}
	// An export of counters not signed yet ends in ERROR.
	id3 := tse.NewUUID4()
	if _, err := f.StartExport(ctx, id3, tse.ExportFilter{StartSignatureCounter: int64(fin.Signature.Counter) + 10}); err != nil {
		t.Fatal(err)
	}
	if e, _ := waitExport(t, h.Clk, f, id3); e.State != tse.ExportError || e.Exception != "E_NO_DATA_AVAILABLE" {
		t.Fatalf("empty range: %+v", e)
	}
}

// A gap and a tampered signature injected into the TAR are caught, with
// the counters and the file named.
func TestExportFaultsAreCaught(t *testing.T) {
	h := exportSim(t)
	f := h.Client(t)
	ctx := context.Background()
	if _, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	_, fin := simtest.Sell(t, f, tse.NewUUID4())
	pub := h.Sim.PublicKey()
	end := int64(fin.Signature.Counter)

	h.Sim.SetExportFault(tsesim.ExportFault{Drop: fin.Signature.Counter - 1})
	id := tse.NewUUID4()
	if _, err := f.StartExport(ctx, id, tse.ExportFilter{StartSignatureCounter: 1, EndSignatureCounter: end}); err != nil {
		t.Fatal(err)
	}
	waitExport(t, h.Clk, f, id)
	_, err := tsetar.Verify(bytes.NewReader(download(t, f, id)), tsetar.Options{PublicKey: pub, FirstCounter: 1, LastCounter: uint64(end)})
	var gap *tsetar.GapError
	if !errors.As(err, &gap) || gap.First != uint64(end-1) || gap.Last != uint64(end-1) {
		t.Fatalf("dropped counter %d: %v", end-1, err)
	}

	h.Sim.SetExportFault(tsesim.ExportFault{Tamper: fin.Signature.Counter})
	id = tse.NewUUID4()
	if _, err := f.StartExport(ctx, id, tse.ExportFilter{StartSignatureCounter: 1, EndSignatureCounter: end}); err != nil {
		t.Fatal(err)
	}
	waitExport(t, h.Clk, f, id)
	_, err = tsetar.Verify(bytes.NewReader(download(t, f, id)), tsetar.Options{PublicKey: pub, FirstCounter: 1, LastCounter: uint64(end)})
	var bad *tsetar.SignatureError
	if !errors.As(err, &bad) || bad.Counter != uint64(end) || !strings.Contains(bad.File, "_Sig-"+strconv.FormatInt(end, 10)+"_Log-Tra_No-1_Finish_Client-KASSE-01.log") {
		t.Fatalf("tampered counter %d: %v", end, err)
	}
	if errors.As(err, &gap) {
		t.Fatalf("a tampered signature is no gap: %v", err)
	}
}

// fiskaly's limits: ten running exports per TSS, no duplicate of a
// running one, twelve polls a minute per export (the client keeps to it
// without sending, the simulator answers 429 to whoever does not),
// cancel only while running.
func TestExportLimits(t *testing.T) {
	var exportGETs atomic.Int32
	rs := newRecordingSim(t, func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/export/") {
			exportGETs.Add(1)
		}
		return false
	}, func(c *tsesim.Config) { c.ExportDelay = time.Hour })
	f := rs.Client(t)
	ctx := context.Background()

	ids := make([]string, 10)
	for i := range ids {
		ids[i] = tse.NewUUID4()
		if _, err := f.StartExport(ctx, ids[i], tse.ExportFilter{EndSignatureCounter: int64(i + 1)}); err != nil {
			t.Fatalf("export %d: %v", i, err)
		}
	}
	_, err := f.StartExport(ctx, tse.NewUUID4(), tse.ExportFilter{EndSignatureCounter: 99})
	if wait, ok := tse.RetryAfterOf(err); !ok || wait <= 0 || tse.CodeOf(err) != tse.CodeTooManyExports || tse.ClassOf(err) != tse.RateLimited {
		t.Fatalf("11th export: %v", err)
	}
	if err := f.CancelExport(ctx, ids[9]); err != nil {
		t.Fatal(err)
	}
	if err := f.CancelExport(ctx, ids[9]); tse.CodeOf(err) != "E_CANCEL_EXPORT" {
		t.Fatalf("cancel twice: %v", err)
	}
	_, err = f.StartExport(ctx, tse.NewUUID4(), tse.ExportFilter{EndSignatureCounter: 1}) // same as ids[0], running
	if _, ok := tse.RetryAfterOf(err); !ok || tse.CodeOf(err) != tse.CodeExportDuplicate {
		t.Fatalf("duplicate: %v", err)
	}
	if _, err := f.StartExport(ctx, tse.NewUUID4(), tse.ExportFilter{EndSignatureCounter: 99}); err != nil {
		t.Fatalf("a cancelled export frees a place: %v", err)
	}

	// Twelve polls a minute: the thirteenth is refused by the client
	// itself, nothing sent.
	for i := range 12 {
		if _, err := f.Export(ctx, ids[0]); err != nil {
			t.Fatalf("poll %d: %v", i+1, err)
		}
	}
	sent := exportGETs.Load()
	_, err = f.Export(ctx, ids[0])
	if wait, ok := tse.RetryAfterOf(err); !ok || wait <= 0 || wait > time.Minute || tse.CodeOf(err) != tse.CodeExportPollLimit {
		t.Fatalf("13th poll: %v", err)
	}
	if _, err := f.DownloadExport(ctx, ids[0], io.Discard); tse.CodeOf(err) != tse.CodeExportPollLimit {
		t.Fatalf("a file request counts too: %v", err)
	}
	if exportGETs.Load() != sent {
		t.Fatal("the client sent a request beyond twelve a minute")
	}
	// Another client (no shared limit) meets the simulator's 429.
	other := rs.Client(t)
	_, err = other.Export(ctx, ids[0])
	if wait, ok := tse.RetryAfterOf(err); !ok || wait <= 0 || wait > time.Minute || tse.ClassOf(err) != tse.RateLimited {
		t.Fatalf("server-side 13th poll: %v", err)
	}
	var e *tse.Error
	if !errors.As(err, &e) || e.HTTPStatus != 429 {
		t.Fatalf("want a 429: %v", err)
	}
	// A minute later both may poll again.
	rs.Clk.Add(time.Minute)
	if x, err := f.Export(ctx, ids[0]); err != nil || x.State != tse.ExportPending {
		t.Fatalf("after a minute: %+v %v", x, err)
	}
	// Unknown export.
	if _, err := other.Export(ctx, tse.NewUUID4()); tse.CodeOf(err) != tse.CodeExportNotFound {
		t.Fatalf("unknown export: %v", err)
	}
}

// An export triggered before the simulator restarts completes after it,
// and holds the log messages signed before and after.
func TestExportSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	clk := simtest.NewClock()
	mod := func(c *tsesim.Config) { c.ExportDelay = testExportDelay }
	s := simtest.Open(t, dir, clk, mod)
	ctx := context.Background()
	if _, err := s.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	_, fin := simtest.Sell(t, s, tse.NewUUID4())
	id := tse.NewUUID4()
	if _, err := s.StartExport(ctx, id, tse.ExportFilter{StartSignatureCounter: 1, EndSignatureCounter: int64(fin.Signature.Counter)}); err != nil {
		t.Fatal(err)
	}
	clk.Add(testExportDelay / 2)
	if e, err := s.Export(ctx, id); err != nil || e.State != tse.ExportWorking {
		t.Fatalf("before restart: %+v %v", e, err)
	}
	pub := s.PublicKey()
	s.Close()

	s2 := simtest.Open(t, dir, clk, mod)
	clk.Add(testExportDelay)
	done, err := s2.Export(ctx, id)
	if err != nil || done.State != tse.ExportCompleted {
		t.Fatalf("after restart: %+v %v", done, err)
	}
	rep, err := tsetar.Verify(bytes.NewReader(download(t, s2, id)), tsetar.Options{PublicKey: pub, FirstCounter: 1, LastCounter: fin.Signature.Counter})
	if err != nil || rep.Messages[len(rep.Messages)-1].TransactionNumber != fin.Number {
		t.Fatalf("verify: %+v %v", rep, err)
	}
	// The completed export is still there after another restart.
	s2.Close()
	s3 := simtest.Open(t, dir, clk, mod)
	if again := download(t, s3, id); len(again) == 0 {
		t.Fatal("no file after the second restart")
	}
}
