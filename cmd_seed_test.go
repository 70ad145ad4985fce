package main

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"posbox/fiscal/archive"
	"posbox/fiscal/dsfinvk"
	"posbox/internal/seed"
	"posbox/store"
	"posbox/tse/tsetar"
)

// TestSeededBoxWorks seeds three days (`posbox seed` is the binary built
// with -tags seed; this calls the same seed.Run with main's bootstrap)
// and looks at them as a user would: yesterday's sales add up to its
// closings and to its DSFinV-K export, staff who left cannot log in
// (inactive), the seed refuses a box that has a database, and `posbox
// serve` starts on the dir and signs a new sale with the next number.
func TestSeededBoxWorks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfg := DefaultConfig()
	cfg.DataDir = dir
	opts := seed.Options{DataDir: dir, Days: 3, LeavesPerYear: 2 * 365,
		Bootstrap: func(ctx context.Context, st *store.Store) error {
			return bootstrap(ctx, st, cfg, slog.New(slog.DiscardHandler))
		}}
	res, err := seed.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seed.Run(ctx, opts); err == nil || !strings.Contains(err.Error(), "already holds a database") {
		t.Fatalf("seeding a dir with a database again: %v, want a refusal", err)
	}
	st, err := store.Open(ctx, dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := st.Restaurants(ctx)
	r := rs[0]
	lastNumber := checkYesterday(t, st, r)
	checkStaff(t, st, r, res)
	checkArchive(t, st, r, res, dir)
	st.Close()

	a := startApplianceIn(t, buildPosbox(t), dir)
	sale := applianceSale(t, a, a.token(t))
	if sale.Number == nil || *sale.Number <= lastNumber {
		t.Errorf("a new sale on the seeded box: number %v, want after the seeded %d", sale.Number, lastNumber)
	}
	stopAppliance(t, a)
}

// checkYesterday compares yesterday's sales with its closings and its
// DSFinV-K export; it returns the highest transaction number seen today.
func checkYesterday(t *testing.T, st *store.Store, r *store.Restaurant) int64 {
	ctx := context.Background()
	now := time.Now().In(r.Location())
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, r.Location())
	yesterday := today.AddDate(0, 0, -1).Format(store.DateFormat)
	txs, err := st.TSETransactions(ctx, r.ID, today.AddDate(0, 0, -1), today.Add(-time.Millisecond))
	if err != nil || len(txs) < 250 {
		t.Fatalf("yesterday's sales: %d, %v; want about 300", len(txs), err)
	}
	ids := make([]string, len(txs))
	for i, tx := range txs {
		ids[i] = tx.TxID
	}
	details, err := st.TSESaleDetails(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, tx := range txs {
		if !tx.Signed() || tx.QRCodeData == "" || tx.SignatureValue == "" {
			t.Fatalf("sale %s is not signed: %+v", tx.TxID, tx)
		}
		if d := details[tx.TxID]; d.Kind == store.SaleKindReceipt {
			sum += tx.TotalCents
		}
	}
	closings, err := st.TSEClosings(ctx, r.ID, store.ClosingFilter{DateFrom: yesterday, DateTo: yesterday})
	if err != nil || len(closings) == 0 {
		t.Fatalf("yesterday's closings: %v %v", closings, err)
	}
	var closed int64
	var count int
	for _, c := range closings {
		closed += c.TotalCents
		count += c.TxCount
	}
	if closed != sum || count != len(txs) {
		t.Errorf("yesterday: closings %d cents over %d sales, the sales %d cents over %d", closed, count, sum, len(txs))
	}
	if got := exportedTotal(t, st, r, yesterday); got != closed {
		t.Errorf("yesterday's DSFinV-K export: %d cents, the closings %d", got, closed)
	}
	last, _ := st.TSETransactions(ctx, r.ID, today, time.Now())
	if len(last) == 0 {
		return *txs[len(txs)-1].Number
	}
	return *last[len(last)-1].Number
}

// exportedTotal is the sum of Z_SE_ZAHLUNGEN in the day's export.
func exportedTotal(t *testing.T, st *store.Store, r *store.Restaurant, date string) int64 {
	var buf bytes.Buffer
	f := store.ClosingFilter{DateFrom: date, DateTo: date}
	if err := (&dsfinvk.Exporter{St: st}).Export(context.Background(), r, f, store.TSEInfo{}, &buf); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open("cashpointclosing.csv")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rc)
	cr := csv.NewReader(bytes.NewReader(b))
	cr.Comma = ';'
	rows, err := cr.ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("cashpointclosing.csv: %v\n%s", err, b)
	}
	col := -1
	for i, name := range rows[0] {
		if name == "Z_SE_ZAHLUNGEN" {
			col = i
		}
	}
	var total int64
	for _, row := range rows[1:] {
		c, err := strconv.ParseInt(strings.Replace(row[col], ",", "", 1), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		total += c
	}
	return total
}

// checkArchive: every night's range is archived, from counter 1 without
// a gap, and its TAR passes the archive job's verification (tsetar: every
// signature against the TSS's key, the serial, the counters of its range;
// the seeder files the history's TARs without verifying them).
func checkArchive(t *testing.T, st *store.Store, r *store.Restaurant, res seed.Result, dataDir string) {
	as, err := st.TSEArchives(context.Background(), r.ID)
	if err != nil || len(as) < 2 || res.Archives < 1 {
		t.Fatalf("archives: %d (%d nightly runs), %v", len(as), res.Archives, err)
	}
	next := int64(1)
	slices.SortFunc(as, func(a, b *store.TSEArchive) int { return cmp.Compare(*a.FirstCounter, *b.FirstCounter) })
	for _, a := range as {
		if a.State != "archived" || *a.FirstCounter != next {
			t.Fatalf("archive %d-%d is %s, want archived from %d", *a.FirstCounter, *a.LastCounter, a.State, next)
		}
		next = *a.LastCounter + 1
		path := filepath.Join(dataDir, archiveTSEDir, a.FileName)
		if sum, err := archive.FileSHA256(path); err != nil || sum != a.SHA256 {
			t.Fatalf("archive %s: sha256 %s, %v; recorded %s", a.FileName, sum, err, a.SHA256)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := tsetar.Verify(f, tsetar.Options{SerialNumber: a.TSSSerial, FirstCounter: uint64(*a.FirstCounter),
			LastCounter: uint64(*a.LastCounter)})
		f.Close()
		if err != nil || rep.Count != int(*a.LogMessages) {
			t.Fatalf("archive %s fails verification: %v (%v messages, %v recorded)", a.FileName, err, rep, a.LogMessages)
		}
	}
}

// checkStaff: thirty work there, and everyone who left is inactive.
func checkStaff(t *testing.T, st *store.Store, r *store.Restaurant, res seed.Result) {
	users, err := st.Users(context.Background(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	active, inactive := 0, 0
	for _, u := range users {
		switch {
		case u.Role != store.RoleStaff:
		case u.IsActive:
			active++
		default:
			inactive++
		}
	}
	if active != 30 || inactive != res.Left || res.Left == 0 {
		t.Errorf("staff: %d active, %d inactive; seeded %d who left, want 30 active", active, inactive, res.Left)
	}
}
