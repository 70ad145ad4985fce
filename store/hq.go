package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// HQSummary is what HQ shows of one restaurant of a box, read from its
// replicated copy (ReadOnly). Money is in cents; hours in hundredths.
type HQSummary struct {
	RestaurantID string
	Name         string
	Timezone     string
	Date         string // today, the restaurant's local date
	Sales        HQSales
	ClockedIn    []HQClockedIn
	WeekStart    string // the local Monday of this week
	WeekHours    int64  // hundredths of an hour worked this week, open entries up to now
	TSE          HQTSE
	OpenOutages  []HQOutage
}

// HQSales are today's sales as the daily closing counts them: receipts,
// invoices and benefits in kind recorded by posbox, not cancelled by the
// TSE, by when they happened at the till (a storno counts negatively).
type HQSales struct {
	Count      int
	GrossCents int64
	ByVAT      []TSESaleVAT // gross per VAT rate, in the DSFinV-K order
}

// HQClockedIn is one open time entry.
type HQClockedIn struct {
	UserName string
	Since    time.Time
}

// HQTSE is the TSE's health as the box last recorded it.
type HQTSE struct {
	State        string    // the TSS's state at the provider ("" never fetched)
	FetchedAt    time.Time // when the box last fetched it
	CertNotAfter time.Time
	SelfTest     *TSESelfTest // the newest self-test; nil before the first
	Unsigned     int          // sales recorded but not signed yet (queued)
}

// HQOutage is an open TSE outage.
type HQOutage struct {
	StartedAt            time.Time
	ReasonCode           string
	Reason               string
	AffectedTransactions int
}

// HQSummaries summarises every restaurant of the box, in one read
// transaction (one consistent state of the copy).
func (r *ReadOnly) HQSummaries(ctx context.Context) ([]HQSummary, error) {
	tx, err := r.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rs, err := queryAll(ctx, tx, scanRestaurant, `SELECT `+hqRestaurantColumns+` FROM restaurants ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	now := r.now()
	tse, err := hqTSEInfo(ctx, tx)
	if err != nil {
		return nil, err
	}
	out := make([]HQSummary, 0, len(rs))
	for _, rest := range rs {
		s := HQSummary{RestaurantID: rest.ID, Name: rest.Name, Timezone: rest.Timezone, TSE: tse}
		for _, fill := range []func(context.Context, *sql.Tx, *Restaurant, time.Time, *HQSummary) error{
			hqSales, hqPeople, hqTSEState} {
			if err := fill(ctx, tx, rest, now, &s); err != nil {
				return nil, err
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// hqSalesCountSQL and hqSalesVATSQL read a day's counted sales of a
// restaurant (migration 00020 indexes them by business_time).
var (
	hqSalesCountSQL = `SELECT count(*) FROM tse_transactions t JOIN tse_sale_details d ON d.tx_id = t.tx_id
		WHERE t.restaurant_id = ? AND t.source = 'posbox' AND t.business_time >= ? AND t.business_time < ? AND ` + countedSQL
	hqSalesVATSQL = `SELECT v.vat_rate, sum(v.cents) FROM tse_sale_vat v
		JOIN tse_transactions t ON t.tx_id = v.tx_id JOIN tse_sale_details d ON d.tx_id = v.tx_id
		WHERE t.restaurant_id = ? AND t.source = 'posbox' AND t.business_time >= ? AND t.business_time < ? AND ` + countedSQL + `
		GROUP BY v.vat_rate ORDER BY ` + vatOrderSQL("v.vat_rate")
)

// hqSales sums today's counted sales per VAT rate.
func hqSales(ctx context.Context, tx *sql.Tx, rest *Restaurant, now time.Time, s *HQSummary) error {
	local := now.In(rest.Location())
	day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, local.Location())
	from, to := FormatTime(day.UTC()), FormatTime(day.AddDate(0, 0, 1).UTC())
	s.Date = day.Format(DateFormat)
	if err := tx.QueryRowContext(ctx, hqSalesCountSQL, rest.ID, from, to).Scan(&s.Sales.Count); err != nil {
		return err
	}
	vat, err := queryAll(ctx, tx, func(sc scanner) (TSESaleVAT, error) {
		var v TSESaleVAT
		return v, sc.Scan(&v.VATRate, &v.Cents)
	}, hqSalesVATSQL, rest.ID, from, to)
	if err != nil {
		return err
	}
	s.Sales.ByVAT = vat
	for _, v := range vat {
		s.Sales.GrossCents += v.Cents
	}
	return nil
}

// hqPeople lists who is clocked in and sums this week's hours (Monday to
// Sunday, local), open entries up to now.
func hqPeople(ctx context.Context, tx *sql.Tx, rest *Restaurant, now time.Time, s *HQSummary) error {
	open, err := queryAll(ctx, tx, scanTimeEntry, `SELECT `+timeEntryColumns+` FROM time_entries t INDEXED BY time_entries_one_open JOIN users u ON u.id = t.user_id
		WHERE t.restaurant_id = ? AND t.clock_out IS NULL ORDER BY t.clock_in, t.id`, rest.ID)
	if err != nil {
		return err
	}
	s.ClockedIn = make([]HQClockedIn, 0, len(open))
	for _, e := range open {
		s.ClockedIn = append(s.ClockedIn, HQClockedIn{UserName: e.UserName, Since: e.ClockIn})
	}
	local := now.In(rest.Location())
	monday := time.Date(local.Year(), local.Month(), local.Day()-(int(local.Weekday())+6)%7, 0, 0, 0, 0, local.Location())
	s.WeekStart = monday.Format(DateFormat)
	week, err := queryAll(ctx, tx, scanTimeEntry, `SELECT `+timeEntryColumns+` FROM time_entries t JOIN users u ON u.id = t.user_id
		WHERE t.restaurant_id = ? AND t.clock_in >= ? AND t.clock_in < ?`,
		rest.ID, FormatTime(monday.UTC()), FormatTime(monday.AddDate(0, 0, 7).UTC()))
	if err != nil {
		return err
	}
	for _, e := range week {
		s.WeekHours += e.WorkedHundredths(now)
	}
	return nil
}

// hqTSEState reads the newest self-test, the queue and the open outages.
func hqTSEState(ctx context.Context, tx *sql.Tx, rest *Restaurant, _ time.Time, s *HQSummary) error {
	t, err := scanTSESelfTest(tx.QueryRowContext(ctx, `SELECT `+tseSelfTestColumns+` FROM tse_self_tests
		WHERE restaurant_id = ? ORDER BY started_at DESC, id DESC LIMIT 1`, rest.ID))
	switch {
	case err == nil:
		s.TSE.SelfTest = t
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM tse_transactions WHERE restaurant_id = ? AND source = 'posbox' AND number IS NULL
		AND state != 'CANCELLED'`, rest.ID).Scan(&s.TSE.Unsigned); err != nil {
		return err
	}
	s.OpenOutages, err = queryAll(ctx, tx, func(sc scanner) (HQOutage, error) {
		var o HQOutage
		var started string
		err := sc.Scan(&started, &o.ReasonCode, &o.Reason, &o.AffectedTransactions)
		o.StartedAt = ParseTime(started)
		return o, err
	}, `SELECT started_at, reason_code, reason, affected_transactions FROM tse_outages WHERE restaurant_id = ? AND ended_at IS NULL ORDER BY started_at`, rest.ID)
	return err
}

// hqTSEInfo is the newest TSS state the box cached (CacheTSEInfo).
func hqTSEInfo(ctx context.Context, tx *sql.Tx) (HQTSE, error) {
	var out HQTSE
	err := eachRow(ctx, tx, func(sc scanner) error {
		var v string
		if err := sc.Scan(&v); err != nil {
			return err
		}
		var info TSEInfo
		if json.Unmarshal([]byte(v), &info) == nil && info.FetchedAt.After(out.FetchedAt) {
			out.State, out.FetchedAt, out.CertNotAfter = info.State, info.FetchedAt, info.CertNotAfter
		}
		return nil
	}, `SELECT value FROM kv WHERE key LIKE 'tse.info.%'`)
	return out, err
}

// VATOrder is a VAT rate's place in the DSFinV-K order (as vatOrderSQL).
func VATOrder(rate string) int {
	switch rate {
	case "NORMAL":
		return 1
	case "REDUCED_1":
		return 2
	case "SPECIAL_RATE_1":
		return 3
	case "SPECIAL_RATE_2":
		return 4
	}
	return 5
}
