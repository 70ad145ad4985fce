package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// DailyReport is the data of a daily_report event: one local day of a
// restaurant, from midnight to midnight on its wall clock.
type DailyReport struct {
	Date       string          `json:"date"` // YYYY-MM-DD, local
	Timezone   string          `json:"timezone"`
	From       string          `json:"from"` // the day's first instant, UTC
	To         string          `json:"to"`   // the next day's first instant, UTC
	Staff      []StaffHours    `json:"staff"`
	TotalHours json.Number     `json:"total_hours"`
	Discounts  ReportDiscounts `json:"discounts"`
	TSE        ReportTSE       `json:"tse"`
}

// StaffHours is one staff member's closed time entries that began that day.
type StaffHours struct {
	UserID      string      `json:"user_id"`
	Name        string      `json:"name"`
	Hours       json.Number `json:"hours"` // worked, breaks deducted, two decimals
	Entries     int         `json:"entries"`
	OpenEntries int         `json:"open_entries"` // still clocked in: not counted in hours
}

// ReportDiscounts sums the discounts redeemed that day.
type ReportDiscounts struct {
	Count       int   `json:"count"`
	AmountCents int64 `json:"amount_cents"`
}

// ReportTSE counts the day's TSE transactions and outages.
type ReportTSE struct {
	Transactions       int            `json:"transactions"`
	ReceiptsWithoutTSE int            `json:"receipts_without_tse"`
	Unsigned           int            `json:"unsigned"`
	Outages            int            `json:"outages"`
	OutageList         []ReportOutage `json:"outage_list"`
}

// ReportOutage is one TSE outage that overlapped the day.
type ReportOutage struct {
	StartedAt            string  `json:"started_at"`
	EndedAt              *string `json:"ended_at"`
	Reason               string  `json:"reason"`
	AffectedTransactions int     `json:"affected_transactions"`
}

// BuildDailyReport collects the report of a restaurant's local date.
func (s *Store) BuildDailyReport(ctx context.Context, r *Restaurant, date string) (*DailyReport, error) {
	day, err := time.ParseInLocation(DateFormat, date, r.Location())
	if err != nil {
		return nil, err
	}
	from, to := day.UTC(), day.AddDate(0, 0, 1).UTC() // AddDate keeps DST days 23 or 25 h long
	rep := &DailyReport{Date: date, Timezone: r.Timezone, From: FormatTime(from), To: FormatTime(to),
		Staff: []StaffHours{}, Discounts: ReportDiscounts{}, TSE: ReportTSE{OutageList: []ReportOutage{}}}
	if err := reportHours(ctx, s.rdb, rep, r.ID); err != nil {
		return nil, err
	}
	for _, fill := range []func(context.Context, *sql.DB, *DailyReport, string) error{
		reportDiscounts, reportTSETransactions, reportTSEOutages} {
		if err := fill(ctx, s.rdb, rep, r.ID); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// reportHours sums worked time per staff member over the time entries
// that began that day; minutes become hundredths of an hour, half up.
func reportHours(ctx context.Context, db *sql.DB, rep *DailyReport, restaurantID string) error {
	rows, err := db.QueryContext(ctx, `SELECT t.user_id, u.name, t.clock_in, t.clock_out, t.break_minutes
		FROM time_entries t JOIN users u ON u.id = t.user_id
		WHERE t.restaurant_id = ? AND t.clock_in >= ? AND t.clock_in < ? ORDER BY u.name, t.user_id, t.clock_in`,
		restaurantID, rep.From, rep.To)
	if err != nil {
		return err
	}
	defer rows.Close()
	var total int64
	minutes := map[string]int64{}
	index := map[string]int{}
	for rows.Next() {
		var userID, name, in string
		var out sql.NullString
		var breakMin int64
		if err := rows.Scan(&userID, &name, &in, &out, &breakMin); err != nil {
			return err
		}
		i, ok := index[userID]
		if !ok {
			i = len(rep.Staff)
			index[userID] = i
			rep.Staff = append(rep.Staff, StaffHours{UserID: userID, Name: name})
		}
		rep.Staff[i].Entries++
		if !out.Valid {
			rep.Staff[i].OpenEntries++
			continue
		}
		m := max(int64(ParseTime(out.String).Sub(ParseTime(in))/time.Minute)-breakMin, 0)
		minutes[userID] += m
		total += m
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range rep.Staff {
		rep.Staff[i].Hours = hundredthsOfHour(minutes[rep.Staff[i].UserID])
	}
	rep.TotalHours = hundredthsOfHour(total)
	return nil
}

// hundredthsOfHour renders minutes as hours with at most two decimals,
// half up: 450 → 7.5, 495 → 8.25.
func hundredthsOfHour(minutes int64) json.Number { return HoursJSON((minutes*100 + 30) / 60) }

// reportDiscounts sums the redemptions counted that day. Redemptions keep
// their history after a discount is deleted, so they all count.
func reportDiscounts(ctx context.Context, db *sql.DB, rep *DailyReport, restaurantID string) error {
	return db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(amount_cents), 0)
		FROM discount_redemptions WHERE restaurant_id = ? AND created_at >= ? AND created_at < ?`,
		restaurantID, rep.From, rep.To).Scan(&rep.Discounts.Count, &rep.Discounts.AmountCents)
}

// reportTSESQL counts a day's sales of a restaurant (migration 00020
// indexes them by business_time).
const reportTSESQL = `SELECT
		COALESCE(SUM(state = 'FINISHED'), 0),
		COALESCE(SUM(receipt_without_tse), 0),
		COALESCE(SUM(number IS NULL OR state = 'ACTIVE'), 0)
	FROM tse_transactions WHERE restaurant_id = ? AND source = 'posbox' AND business_time >= ? AND business_time < ?`

// reportTSETransactions counts the day's sales by when they happened at
// the till (business_time), not by when the TSE signed them: a sale queued
// through an outage that ends after midnight still belongs to its day.
// Transactions are the finished ones; ReceiptsWithoutTSE those whose
// receipt was printed "TSE ausgefallen"; Unsigned those still queued.
func reportTSETransactions(ctx context.Context, db *sql.DB, rep *DailyReport, restaurantID string) error {
	return db.QueryRowContext(ctx, reportTSESQL, restaurantID, rep.From, rep.To).Scan(&rep.TSE.Transactions, &rep.TSE.ReceiptsWithoutTSE, &rep.TSE.Unsigned)
}

// reportTSEOutages lists the outages that overlapped the day, open ones
// included: the tax office may ask for exactly this record.
func reportTSEOutages(ctx context.Context, db *sql.DB, rep *DailyReport, restaurantID string) error {
	rows, err := db.QueryContext(ctx, `SELECT started_at, ended_at, reason, affected_transactions FROM tse_outages
		WHERE restaurant_id = ? AND started_at < ? AND (ended_at IS NULL OR ended_at >= ?) ORDER BY started_at`,
		restaurantID, rep.To, rep.From)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var o ReportOutage
		var ended sql.NullString
		if err := rows.Scan(&o.StartedAt, &ended, &o.Reason, &o.AffectedTransactions); err != nil {
			return err
		}
		o.EndedAt = nullString(ended)
		rep.TSE.OutageList = append(rep.TSE.OutageList, o)
	}
	rep.TSE.Outages = len(rep.TSE.OutageList)
	return rows.Err()
}

// dailyReportKey records, per restaurant, the last local date whose
// report was published.
func dailyReportKey(restaurantID string) string { return "daily_report_sent:" + restaurantID }

// PublishDailyReport publishes the daily_report event of rep's date unless
// one for that date (or a later one) was already published: the event and
// the record of it commit together, so neither a restart nor two runs
// send it twice. sent is false when it had already gone out.
func (s *Store) PublishDailyReport(ctx context.Context, restaurantID string, rep *DailyReport) (sent bool, err error) {
	err = s.write(ctx, func(tx *Tx) error {
		var last string
		err := tx.QueryRowContext(ctx, `SELECT value FROM kv WHERE key = ?`, dailyReportKey(restaurantID)).Scan(&last)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if last >= rep.Date {
			return nil
		}
		if _, err := InsertEvent(ctx, tx, restaurantID, EventDailyReport, rep); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			dailyReportKey(restaurantID), rep.Date, FormatTime(tx.Now))
		sent = err == nil
		return err
	})
	return sent, err
}

// LastDailyReport is the last local date whose report was published.
func (s *Store) LastDailyReport(ctx context.Context, restaurantID string) (string, error) {
	v, _, err := s.KV(ctx, dailyReportKey(restaurantID))
	return v, err
}
