package store

import (
	"context"
	"time"
)

// TSECertWarnThresholds are the days before a TSS certificate expires at
// which tse_certificate_expiring is raised, most distant first.
var TSECertWarnThresholds = []int{90, 30, 7}

// TSECertWarnThreshold is the most urgent threshold daysLeft has reached
// (7, 30 or 90), or 0 while more than 90 days are left.
func TSECertWarnThreshold(daysLeft int) int {
	th := 0
	for _, t := range TSECertWarnThresholds {
		if daysLeft <= t {
			th = t
		}
	}
	return th
}

// RecordTSECertificateExpiring raises tse_certificate_expiring for the
// most urgent threshold daysLeft has reached, once per certificate and
// threshold: the row's primary key (tss_id, not_after, threshold_days)
// turns a repeat, after a restart or from a concurrent check, into a
// no-op, and a new certificate warns again. A threshold passed while the
// box was off is not raised late: the more urgent one says more.
func (s *Store) RecordTSECertificateExpiring(ctx context.Context, restaurantID, tssID string, notAfter time.Time, daysLeft int) (raised bool, err error) {
	th := TSECertWarnThreshold(daysLeft)
	if th == 0 {
		return false, nil
	}
	r, err := s.Restaurant(ctx, restaurantID)
	if err != nil {
		return false, err
	}
	na := FormatTime(notAfter)
	err = s.write(ctx, func(tx *Tx) error {
		id := NewID()
		res, err := tx.ExecContext(ctx, `INSERT INTO tse_certificate_warnings
			(tss_id, not_after, threshold_days, days_left, raised_at, event_id) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, tssID, na, th, daysLeft, FormatTime(tx.Now), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		ev, err := InsertEvent(ctx, tx, restaurantID, EventTSECertExpiring, map[string]any{
			"tss_id": tssID, "certificate_expiry": na, "expires_on": notAfter.In(r.Location()).Format(DateFormat),
			"days_left": daysLeft, "threshold_days": th,
		})
		if err != nil {
			return err
		}
		raised = true
		_, err = tx.ExecContext(ctx, `UPDATE tse_certificate_warnings SET event_id = ? WHERE tss_id = ? AND not_after = ? AND threshold_days = ?`,
			ev.ID, tssID, na, th)
		return err
	})
	return raised, err
}

// TSECertificateWarning is one warning raised for a TSS's certificate.
type TSECertificateWarning struct {
	TSSID         string
	NotAfter      time.Time
	ThresholdDays int
	DaysLeft      int
	RaisedAt      time.Time
}

// TSECertificateWarnings lists the warnings raised for a TSS, oldest first.
func (s *Store) TSECertificateWarnings(ctx context.Context, tssID string) ([]TSECertificateWarning, error) {
	return queryAll(ctx, s.rs, func(sc scanner) (TSECertificateWarning, error) {
		var w TSECertificateWarning
		var na, at string
		if err := sc.Scan(&w.TSSID, &na, &w.ThresholdDays, &w.DaysLeft, &at); err != nil {
			return w, err
		}
		w.NotAfter, w.RaisedAt = ParseTime(na), ParseTime(at)
		return w, nil
	}, `SELECT tss_id, not_after, threshold_days, days_left, raised_at FROM tse_certificate_warnings
		WHERE tss_id = ? ORDER BY raised_at, threshold_days DESC`, tssID)
}
