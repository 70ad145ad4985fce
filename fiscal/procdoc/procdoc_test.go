package procdoc_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"posbox/fiscal"
	"posbox/fiscal/procdoc"
	"posbox/fiscal/queue"
	"posbox/store"
	"posbox/tse"
	"posbox/tse/simtest"
)

// env is a restaurant's store and the queue of a TSE: the fiskaly
// client against the simulator over HTTP, or the simulator itself as
// the provider (which the document must call a simulator).
type env struct {
	st    *store.Store
	q     *queue.Queue
	p     tse.Provider
	rest  *store.Restaurant
	admin *store.User
	b     *procdoc.Builder
}

func newEnv(t *testing.T, simulator bool) *env {
	t.Helper()
	ctx := context.Background()
	h := simtest.NewHTTP(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, t.TempDir(), store.Options{Now: h.Clk.Now, Logger: log, BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{st: st, rest: &store.Restaurant{Name: "Zur Linde", Timezone: "Europe/Berlin"}}
	if err := st.CreateRestaurant(ctx, e.rest); err != nil {
		t.Fatal(err)
	}
	e.admin = &store.User{RestaurantID: e.rest.ID, Email: "anna@linde.test", Name: "Anna Admin", Role: store.RoleAdmin}
	if err := st.CreateUser(ctx, e.admin, "correct-horse-battery"); err != nil {
		t.Fatal(err)
	}
	e.p = h.Client(t)
	if simulator {
		e.p = h.Sim
	}
	e.q, err = queue.New(ctx, e.p, st, queue.Options{RestaurantID: e.rest.ID, Budget: 10 * time.Second, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); e.q.Run(runCtx) }()
	t.Cleanup(func() { stop(); <-done })
	e.b = &procdoc.Builder{St: st, TSE: e.q, Setup: procdoc.Setup{Version: "v1.2.0", Build: "abc123",
		Archive: fiscal.ProcDocArchive{Enabled: true, Folder: "/var/lib/posbox/archive/tse", DailyAt: "04:30"}}}
	return e
}

// sell signs a cash sale on register serial.
func (e *env) sell(t *testing.T, serial string) {
	t.Helper()
	s := fiscal.Sale{ClientSerial: serial, Kind: fiscal.KindReceipt, ReceiptType: "RECEIPT", TotalCents: 1250,
		VAT: []fiscal.VATAmount{{VATRate: "NORMAL", Cents: 1250}}, Payments: []fiscal.Payment{{PaymentType: "CASH", Cents: 1250}}}
	tx, err := e.q.Sell(context.Background(), e.rest.ID, s, "")
	if err != nil || tx.Number == nil {
		t.Fatalf("sale on %s: %+v %v", serial, tx, err)
	}
}

// current is the restaurant's document now, as its version and content.
func (e *env) current(t *testing.T) (*store.ProcDocVersion, fiscal.ProcedureDocument) {
	t.Helper()
	v, err := e.b.Current(context.Background(), e.rest.ID)
	if err != nil {
		t.Fatal(err)
	}
	var d fiscal.ProcedureDocument
	if err := json.Unmarshal([]byte(v.Content), &d); err != nil {
		t.Fatal(err)
	}
	return v, d
}

// The document names the TSE the provider reports (serial, certificate
// end, BSI id), every register that sold and every register of the
// master data by serial, and the program that runs with its change log.
func TestDocumentHoldsTheBoxsData(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, false)
	e.sell(t, "KASSE-01")
	m := &store.FiscalMasterData{BusinessName: "Linde GmbH", Street: "Hauptstr. 1", Postcode: "10115", City: "Berlin", Country: "DEU",
		TaxNumber: "11/222/33333", LocationCountry: "DEU",
		Registers: []store.FiscalRegister{{ClientSerial: "KASSE-02", Type: "Tablet-Kassensystem", Brand: "Lenovo", Model: "Tab M10", AcquiredOn: "2026-01-15"}}}
	if _, err := e.st.SetFiscalMasterData(ctx, e.rest.ID, m); err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.RecordProgramVersion(ctx, "v1.2.0", "abc123"); err != nil {
		t.Fatal(err)
	}
	tss, err := e.p.TSS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, d := e.current(t)
	if len(d.TSEs) != 1 || d.TSEs[0].SerialNumber != tss.SerialNumber || tss.SerialNumber == "" || d.TSEs[0].Simulated ||
		d.TSEs[0].Provider != tse.KindFiskaly {
		t.Fatalf("TSEs %+v, want the provider's serial %q, not simulated", d.TSEs, tss.SerialNumber)
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	if c := d.TSEs[0].CertificateExpires; c == nil || *c != tss.CertNotAfter.In(berlin).Format(store.DateFormat) {
		t.Errorf("certificate end %v, want %s", c, tss.CertNotAfter.In(berlin).Format(store.DateFormat))
	}
	if d.TSEs[0].InServiceOn == nil {
		t.Error("the TSE's date of service is not its first signed sale")
	}
	var serials []string
	for _, r := range d.Registers {
		serials = append(serials, r.ClientSerial)
	}
	if strings.Join(serials, ",") != "KASSE-01,KASSE-02" {
		t.Fatalf("registers %v", serials)
	}
	if r := d.Registers[1]; r.Brand != "Lenovo" || r.AcquiredOn == nil || *r.AcquiredOn != "2026-01-15" || r.InServiceOn != nil {
		t.Errorf("KASSE-02 %+v", r)
	}
	if r := d.Registers[0]; r.InServiceOn == nil || r.Software != "posbox" || r.SoftwareVersion != "v1.2.0" {
		t.Errorf("KASSE-01 %+v: its first sale is its date of service, posbox its software", r)
	}
	if d.Taxpayer.Name != "Linde GmbH" || d.Taxpayer.TaxNumber != "11/222/33333" || d.Location.Name != "Linde GmbH" {
		t.Errorf("taxpayer %+v location %+v", d.Taxpayer, d.Location)
	}
	if len(d.ProgramChanges) != 1 || d.ProgramChanges[0].Version != "v1.2.0" || d.Software.SchemaVersion != e.st.SchemaVersion() {
		t.Errorf("program %+v changes %+v", d.Software, d.ProgramChanges)
	}
	if d.Archive.FirstCounter != nil || d.Archive.Folder == "" {
		t.Errorf("archive %+v", d.Archive)
	}
}

// The built-in simulator is said to be one.
func TestDocumentSaysSimulator(t *testing.T) {
	e := newEnv(t, true)
	_, d := e.current(t)
	if len(d.TSEs) != 1 || !d.TSEs[0].Simulated || d.TSEs[0].Provider != tse.KindSimulator {
		t.Fatalf("TSEs %+v, want the simulator marked as one", d.TSEs)
	}
}

// The same box is the same version however often it is made; a change
// of the owner's text, of the admins or of the program is the next
// version, and each version keeps the content it had. Admins are named,
// staff only counted, and nothing of a user but name and role is in it.
func TestDocumentVersions(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, false)
	v1, d1 := e.current(t)
	if again, _ := e.current(t); again.Version != v1.Version || v1.Version != 1 {
		t.Fatalf("made twice: versions %d and %d, want 1 and 1", v1.Version, again.Version)
	}
	if len(d1.Roles) != 1 || d1.Roles[0].Role != store.RoleAdmin || strings.Join(d1.Roles[0].Names, ",") != "Anna Admin" {
		t.Fatalf("roles %+v", d1.Roles)
	}

	if _, err := e.st.SaveOwnerText(ctx, e.rest.ID, e.admin.ID, store.OwnerSections{CashCounting: "Jeden Abend zählt die Schichtleitung."}); err != nil {
		t.Fatal(err)
	}
	v2, d2 := e.current(t)
	if v2.Version != 2 || d2.OwnerText.CashCounting != "Jeden Abend zählt die Schichtleitung." || d2.OwnerText.Version != 1 ||
		d2.OwnerText.SavedByName != "Anna Admin" {
		t.Fatalf("after the owner's text: version %d, %+v", v2.Version, d2.OwnerText)
	}

	staff := &store.User{RestaurantID: e.rest.ID, Name: "Kim Küche", Role: store.RoleStaff, StaffNumber: "K-7"}
	if err := e.st.CreateUserWith(ctx, staff, "", "4711"); err != nil {
		t.Fatal(err)
	}
	v3, d3 := e.current(t)
	if v3.Version != 3 || len(d3.Roles) != 2 || d3.Roles[1].Role != store.RoleStaff || d3.Roles[1].Count != 1 || len(d3.Roles[1].Names) != 0 {
		t.Fatalf("after a new staff member: version %d, roles %+v", v3.Version, d3.Roles)
	}
	for _, private := range []string{"Kim", "K-7", "anna@linde.test", "$2a$", e.admin.ID} {
		if strings.Contains(v3.Content, private) {
			t.Errorf("the document holds %q: %s", private, v3.Content)
		}
	}

	e.b.Setup.Version = "v1.3.0"
	if v4, _ := e.current(t); v4.Version != 4 {
		t.Fatalf("a new program: version %d, want 4", v4.Version)
	}
	old, err := e.st.ProcDocVersionAt(ctx, e.rest.ID, 1)
	if err != nil || old.Content != v1.Content || old.SHA256 != v1.SHA256 {
		t.Fatalf("version 1 changed: %+v %v", old, err)
	}
}
