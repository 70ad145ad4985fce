package replace_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/fiscal"
	"posbox/fiscal/archive"
	"posbox/fiscal/procdoc"
	"posbox/fiscal/queue"
	"posbox/fiscal/registration"
	"posbox/fiscal/replace"
	"posbox/store"
	"posbox/store/storetest"
	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// signer is one start of the appliance's TSE side: the fiskaly client of
// tse.json's TSS, its queue (running) and its archive.
type signer struct {
	p      *tse.Fiskaly
	q      *queue.Queue
	arc    *archive.Archive
	cancel context.CancelFunc
	done   sync.WaitGroup
}

func start(t *testing.T, st *store.Store, clock *storetest.Clock, dataDir, restaurantID string) *signer {
	t.Helper()
	c, err := tse.ReadSettings(filepath.Join(dataDir, tse.SettingsFile))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	s := &signer{}
	if s.p, err = tse.NewFiskaly(tse.FiskalyConfig{BaseURL: c.URL, APIKey: c.APIKey, APISecret: c.APISecret, TSSID: c.TSSID,
		AdminPIN: c.AdminPIN, Now: clock.Now, Logger: log}); err != nil {
		t.Fatal(err)
	}
	if s.q, err = queue.New(context.Background(), s.p, st, queue.Options{RestaurantID: restaurantID, Budget: 10 * time.Second, Logger: log}); err != nil {
		t.Fatal(err)
	}
	if s.arc, err = archive.New(s.p, s.p, st, archive.Options{RestaurantID: restaurantID, Dir: filepath.Join(dataDir, "archive", "tse"),
		Logger: log, Sleep: func(ctx context.Context, d time.Duration) error { clock.Add(d); return ctx.Err() }}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.done.Add(1)
	go func() { defer s.done.Done(); s.q.Run(ctx) }()
	return s
}

func (s *signer) stop() { s.cancel(); s.done.Wait(); s.arc.Close(); s.p.Close() }

func sell(t *testing.T, q *queue.Queue, restaurantID string, cents int64) *store.TSETransaction {
	t.Helper()
	tx, err := q.Sell(context.Background(), restaurantID, fiscal.Sale{ClientSerial: "KASSE-01", Kind: fiscal.KindReceipt, ReceiptType: "RECEIPT",
		TotalCents: cents, VAT: []fiscal.VATAmount{{VATRate: "NORMAL", Cents: cents}}, Payments: []fiscal.Payment{{PaymentType: "CASH", Cents: cents}}}, "")
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// A replacement run end to end on the simulator (over HTTP, the fiskaly
// client) with an expiring certificate: sales before, the certificate
// warning, the replacement (register closed, the final export verified
// into the archive up to the old TSS's last counter, the old TSS
// DISABLED at the simulator, a new TSS set up with tse.json replaced and
// the old one kept 0600), the restart, and sales after signed by the new
// TSS; nothing lost. A second run after the end changes nothing.
func TestReplacementEndToEndWithExpiringCertificate(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock(time.Now().UTC().Truncate(time.Second))
	proc := simtest.Start(t, clock.Now, func(c *tsesim.Config) { c.CertValidity = 20 * 24 * time.Hour; c.ExportDelay = -1 })
	dataDir, log, st, r, admin := newBox(t, proc, clock)

	old := start(t, st, clock, dataDir, r.ID)
	oldTSS := old.p.TSSID()
	// The box notes its TSS at start (main's TSS watch), and the owner
	// reports it to the tax office.
	if err := (registration.TSEWatch{Store: st, TSS: old.q}).Check(ctx); err != nil {
		t.Fatal(err)
	}
	today := clock.Now().In(r.Location()).Format(store.DateFormat)
	if _, err := st.SubmitRegistration(ctx, r.ID, today, "<Aufzeichnung146a/>", admin.ID); err != nil {
		t.Fatal(err)
	}
	var before []*store.TSETransaction
	for i := range 3 {
		before = append(before, sell(t, old.q, r.ID, int64(1000+i)))
	}
	if err := old.q.CertificateJob(ctx); err != nil {
		t.Fatal(err)
	}
	if ws, err := st.TSECertificateWarnings(ctx, oldTSS); err != nil || len(ws) != 1 || ws[0].ThresholdDays != 30 {
		t.Fatalf("certificate warnings %+v (%v)", ws, err)
	}

	clock.Add(time.Minute) // the owner starts the replacement a minute after the last sale
	restarted := 0
	opts := func(s *signer) replace.Options {
		c, _ := tse.ReadSettings(filepath.Join(dataDir, tse.SettingsFile))
		return replace.Options{RestaurantID: r.ID, DataDir: dataDir, Old: s.p, Settings: c, Archive: s.arc,
			Restart: func() { restarted++ }, Logger: log}
	}
	rp := replace.New(st, opts(old))
	rep, err := rp.Start(ctx, r.ID, admin.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Step != store.ReplaceSwitch || rep.LastError != "" || restarted != 1 || rep.NewTSSID == "" || rep.NewTSSID == oldTSS {
		t.Fatalf("replacement %+v, restarted %d", rep, restarted)
	}
	if !rp.Blocking(ctx, r.ID) {
		t.Fatal("sales are not held while the appliance switches")
	}
	// (a) the register was closed with its three sales.
	cs, err := st.TSEClosings(ctx, r.ID, store.ClosingFilter{})
	if err != nil || len(cs) != 1 {
		t.Fatalf("closings %v (%v)", cs, err)
	}
	// (b) and (c): the old TSS is DISABLED at the simulator and every one
	// of its counters, the disabling's too, is in a verified TAR.
	info, err := old.p.TSS(ctx)
	if err != nil || info.State != tse.TSSDisabled {
		t.Fatalf("old TSS %s (%v)", info.State, err)
	}
	as, err := st.TSEArchiveStateOf(ctx, oldTSS)
	if err != nil || as.LastArchivedCounter != int64(info.SignatureCounter) || rep.FinalCounter == 0 || as.OldestUnarchived != nil {
		t.Fatalf("archive of the old TSS %+v (%v), counter %d, final %d", as, err, info.SignatureCounter, rep.FinalCounter)
	}
	// (d) tse.json names the new TSS; the old one is kept, 0600.
	kept := filepath.Join(dataDir, tse.ReplacedSettingsFile(oldTSS))
	if fi, err := os.Stat(kept); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("old settings %v (%v)", fi, err)
	}
	if oc, err := tse.ReadSettings(kept); err != nil || oc.TSSID != oldTSS || oc.AdminPUK == "" {
		t.Fatalf("old settings %+v (%v)", oc, err)
	}

	// (e) the restart: the appliance starts again with the new tse.json.
	old.stop()
	cur := start(t, st, clock, dataDir, r.ID)
	defer cur.stop()
	if cur.p.TSSID() != rep.NewTSSID {
		t.Fatalf("signs with %s, want %s", cur.p.TSSID(), rep.NewTSSID)
	}
	rp = replace.New(st, opts(cur))
	if rep, err = rp.Finish(ctx, r.ID, cur.p.TSSID()); err != nil || rep.Step != store.ReplaceDone || rep.SwitchedAt == nil {
		t.Fatalf("finish %+v (%v)", rep, err)
	}
	if rp.Blocking(ctx, r.ID) {
		t.Fatal("sales still held after the switch")
	}
	after := sell(t, cur.q, r.ID, 2000)
	newInfo, err := cur.p.TSS(ctx)
	if err != nil || after.TSSID != rep.NewTSSID || after.SignatureCounter == nil || newInfo.SerialNumber != rep.NewSerial || newInfo.State != tse.TSSInitialized {
		t.Fatalf("the sale after: %+v; new TSS %+v (%v)", after, newInfo, err)
	}
	// Nothing lost: every sale before is signed by the old TSS.
	for _, b := range before {
		got, err := st.TSETransaction(ctx, r.ID, b.TxID)
		if err != nil || got.TSSID != oldTSS || got.SignatureCounter == nil {
			t.Fatalf("sale %s before: %+v (%v)", b.TxID, got, err)
		}
	}
	reps, err := st.TSEReplacements(ctx, r.ID)
	if err != nil || len(reps) != 1 || reps[0].OldSerial == "" || reps[0].StartedByName != "Clara Chef" {
		t.Fatalf("the record %+v (%v)", reps, err)
	}
	// The change is recorded for the §146a report: the box's TSS watch
	// after the restart makes the new TSS in service and the old one out
	// of service a registration due.
	if err := (registration.TSEWatch{Store: st, TSS: cur.q}).Check(ctx); err != nil {
		t.Fatal(err)
	}
	changes, err := st.OpenRegistrationChanges(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, c := range changes {
		seen[c.Change] = c.Subject
	}
	if len(changes) != 2 || seen[store.TSEInService] != rep.NewSerial || seen[store.TSEOutOfService] != reps[0].OldSerial {
		t.Fatalf("registration changes %+v, want the new TSS in and the old one out of service", changes)
	}
	// (f) the procedure document names both TSSs: the old one with the
	// day it went out of service and its certificate's end, then the new.
	doc, err := (&procdoc.Builder{St: st, TSE: cur.q}).Gather(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.TSEs) != 2 || doc.TSEs[0].SerialNumber != reps[0].OldSerial || doc.TSEs[0].OutOfServiceOn == nil ||
		doc.TSEs[0].InServiceOn == nil || doc.TSEs[0].CertificateExpires == nil || doc.TSEs[1].SerialNumber != rep.NewSerial {
		t.Fatalf("the procedure document's TSEs %+v", doc.TSEs)
	}
}

// Sales waiting unsigned stop the closing step: without a reason it keeps
// its step and says why; the TSE being reachable, a reason does not help
// either (it could still sign them). Nothing is closed or disabled.
func TestReplacementRefusesWhileSalesWait(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock(time.Now().UTC().Truncate(time.Second))
	proc := simtest.Start(t, clock.Now)
	dataDir, log, st, r, admin := newBox(t, proc, clock)
	s := start(t, st, clock, dataDir, r.ID)
	defer s.stop()
	sell(t, s.q, r.ID, 1000) // registers the till while the TSE answers
	s.cancel()               // the worker stops: the next sale waits in the queue
	s.done.Wait()
	if _, err := s.q.Sell(ctx, r.ID, fiscal.Sale{ClientSerial: "KASSE-01", Kind: fiscal.KindReceipt, ReceiptType: "RECEIPT", TotalCents: 500,
		VAT: []fiscal.VATAmount{{VATRate: "NORMAL", Cents: 500}}, Payments: []fiscal.Payment{{PaymentType: "CASH", Cents: 500}}}, ""); err != nil {
		t.Fatal(err)
	}
	c, _ := tse.ReadSettings(filepath.Join(dataDir, tse.SettingsFile))
	rp := replace.New(st, replace.Options{RestaurantID: r.ID, DataDir: dataDir, Old: s.p, Settings: c, Archive: s.arc, Logger: log})
	rep, err := rp.Start(ctx, r.ID, admin.ID, "")
	if err != nil || rep.Step != store.ReplaceClosing || rep.LastError == "" || rp.Blocking(ctx, r.ID) {
		t.Fatalf("replacement %+v (%v)", rep, err)
	}
	cs, err := st.TSEClosings(ctx, r.ID, store.ClosingFilter{})
	if err != nil || len(cs) != 0 {
		t.Fatalf("closings %v (%v)", cs, err)
	}
	if info, err := s.p.TSS(ctx); err != nil || info.State != tse.TSSInitialized {
		t.Fatalf("TSS %s (%v)", info.State, err)
	}
	if _, err := rp.Start(ctx, r.ID, admin.ID, "abgelaufen"); store.ErrorCode(err) != store.ETSEReplacementOpen {
		t.Fatalf("second start: %v", err)
	}
}

// newBox is a data dir set up with a TSS of proc (tse.json), a store on
// clock with a restaurant and its admin.
func newBox(t *testing.T, proc *simtest.Process, clock *storetest.Clock) (string, *slog.Logger, *store.Store, *store.Restaurant, *store.User) {
	t.Helper()
	ctx := context.Background()
	dataDir := t.TempDir()
	log := slog.New(slog.DiscardHandler)
	if err := tse.Setup(ctx, dataDir, "http://"+proc.Addr, simtest.Key, simtest.Secret, io.Discard, log); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, t.TempDir(), store.Options{Now: clock.Now, Logger: log, BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &store.Restaurant{Name: "Linde", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	admin := &store.User{RestaurantID: r.ID, Email: "chef@linde.test", Name: "Clara Chef", Role: store.RoleAdmin}
	if err := st.CreateUser(ctx, admin, "correct-horse-battery"); err != nil {
		t.Fatal(err)
	}
	return dataDir, log, st, r, admin
}
