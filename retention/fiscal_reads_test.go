package retention

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"posbox/fiscal/dsfinvk"
	"posbox/store"
)

// fiscalReads are what the fiscal read paths answer: the check after a
// restore with who acknowledged each missing transaction, and the
// DSFinV-K export of the seeded day, every file byte for byte.
func fiscalReads(t *testing.T, f *fixture, day string) string {
	t.Helper()
	ctx := context.Background()
	a, err := f.st.LatestTSEAfterRestore(ctx, f.rest.ID)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	x := &dsfinvk.Exporter{St: f.st, SoftwareVersion: "test"}
	if err := x.Export(ctx, f.rest, store.ClosingFilter{DateFrom: day, DateTo: day}, store.TSEInfo{SerialNumber: "SER1"}, &buf); err != nil {
		t.Fatal(err)
	}
	// The archive's own time stamps are the export's; its files are the data.
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	out := fmt.Sprintf("%+v\n", a.Missing)
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out += fmt.Sprintf("%s:\n%s\n", zf.Name, b)
	}
	return out
}

// Erasing the operator and the admin who acknowledged a missing
// transaction after a restore, and pseudonymising them once their time
// records are gone, changes nothing a fiscal read answers: the
// acknowledging admin's name is a fiscal record's and stays as long as it
// names her; the operator's name is the receipt's own copy.
func TestFiscalReadsAreTheSameAfterEraseAndPseudonymise(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, local(2026, time.January, 10, 12, 0))
	seedFiscal(t, f, f.clock.Now())
	day := "2026-01-10"
	boss := &store.User{RestaurantID: f.rest.ID, Email: "boss@linde.test", Name: "Bea Boss", Role: store.RoleAdmin}
	if err := f.st.CreateUser(ctx, boss, "password1"); err != nil {
		t.Fatal(err)
	}
	before := fiscalReads(t, f, day)
	if !bytes.Contains([]byte(before), []byte("Anna Admin")) || !bytes.Contains([]byte(before), []byte("Kim Koch")) {
		t.Fatalf("the after-restore list does not name who acknowledged: %s", before[:min(len(before), 400)])
	}

	for _, u := range []*store.User{f.staff, f.admin} {
		if _, err := f.st.UpdateUser(ctx, f.rest.ID, u.ID, store.UserUpdate{IsActive: store.Of(false)}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.st.EraseUser(ctx, f.rest.ID, u.ID, boss.ID); err != nil {
			t.Fatal(err)
		}
	}
	if got := fiscalReads(t, f, day); got != before {
		t.Errorf("after the erasure the fiscal reads differ:\n%s\nwas\n%s", got, before)
	}
	f.clock.Set(local(2038, time.March, 1, 3, 30))
	f.touch(t)
	rep, err := f.job().Run(ctx)
	if err != nil || rep.Pseudonymised != 1 {
		t.Fatalf("in 2038: %+v, %v; want the operator pseudonymised, the acknowledging admin not", rep, err)
	}
	if got := fiscalReads(t, f, day); got != before {
		t.Errorf("after the pseudonymisation the fiscal reads differ:\n%s\nwas\n%s", got, before)
	}
}
