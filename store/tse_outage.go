package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// TSEOutage is a period in which sales could not be signed at once.
type TSEOutage struct {
	ID                   string
	RestaurantID         string
	TSSID                string
	StartedAt            time.Time
	EndedAt              *time.Time
	ReasonCode           string
	Reason               string
	AffectedTransactions int
}

const tseOutageColumns = `id, restaurant_id, tss_id, started_at, ended_at, reason_code, reason, affected_transactions`

func scanTSEOutage(sc scanner) (*TSEOutage, error) {
	var o TSEOutage
	var started string
	var ended sql.NullString
	if err := sc.Scan(&o.ID, &o.RestaurantID, &o.TSSID, &started, &ended, &o.ReasonCode, &o.Reason, &o.AffectedTransactions); err != nil {
		return nil, err
	}
	o.StartedAt, o.EndedAt = ParseTime(started), parseNullTime(ended)
	return &o, nil
}

// openTSEOutage returns the TSS's open outage, opening one (with event
// tse_error) when there is none; opened says whether this call opened it.
// The partial unique index allows one open outage per TSS.
func openTSEOutage(ctx context.Context, tx *Tx, restaurantID, tssID, code, reason string) (o *TSEOutage, opened bool, err error) {
	res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO tse_outages (id, restaurant_id, tss_id, started_at, reason_code, reason)
		VALUES (?, ?, ?, ?, ?, ?)`, NewID(), restaurantID, tssID, FormatTime(tx.Now), code, reason)
	if err != nil {
		return nil, false, err
	}
	o, err = scanTSEOutage(tx.QueryRowContext(ctx, `SELECT `+tseOutageColumns+` FROM tse_outages WHERE tss_id = ? AND ended_at IS NULL`, tssID))
	if err != nil {
		return nil, false, err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		why := "provider_down"
		if code == tseCodeClientLimit {
			why = "terminal_refused"
		}
		if _, err := InsertEvent(ctx, tx, o.RestaurantID, EventTSEError, map[string]any{
			"reason": why, "outage_id": o.ID, "error_code": code, "message": reason,
		}); err != nil {
			return nil, false, err
		}
		return o, true, nil
	}
	return o, false, nil
}

// tseCodeClientLimit is the provider's "this terminal cannot be
// registered": the value of tse.CodeClientLimitReached, written out
// because store imports nothing of posbox but migrations (server's
// TestTSETerminalOverClientLimitIsHeldAlone sees the two agree).
const tseCodeClientLimit = "E_CLIENT_LIMIT_REACHED"

// HoldTSEClient records that the TSS refuses a terminal: its receipts go
// out without TSE data, so an outage is opened (or the open one goes on)
// and tse_error (reason terminal_refused) is raised once, naming it.
func (s *Store) HoldTSEClient(ctx context.Context, restaurantID, tssID, clientSerial, code, reason string) error {
	return s.write(ctx, func(tx *Tx) error {
		o, opened, err := openTSEOutage(ctx, tx, restaurantID, tssID, code, reason)
		if err != nil || opened {
			return err
		}
		_, err = InsertEvent(ctx, tx, restaurantID, EventTSEError, map[string]any{
			"reason": "terminal_refused", "outage_id": o.ID, "client_serial": clientSerial, "error_code": code, "message": reason,
		})
		return err
	})
}

// OpenTSEOutage opens an outage unless one is open; opened says whether
// this call opened it.
func (s *Store) OpenTSEOutage(ctx context.Context, restaurantID, tssID, code, reason string) (o *TSEOutage, err error) {
	err = s.write(ctx, func(tx *Tx) error {
		o, _, err = openTSEOutage(ctx, tx, restaurantID, tssID, code, reason)
		return err
	})
	return o, err
}

// closeTSEOutage ends the TSS's open outage with tse_recovered;
// not_found when none is open.
func closeTSEOutage(ctx context.Context, tx *Tx, tssID string) (*TSEOutage, error) {
	o, err := scanTSEOutage(tx.QueryRowContext(ctx, `SELECT `+tseOutageColumns+` FROM tse_outages WHERE tss_id = ? AND ended_at IS NULL`, tssID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("open outage")
	}
	if err != nil {
		return nil, err
	}
	end := tx.Now
	o.EndedAt = &end
	if _, err := tx.ExecContext(ctx, `UPDATE tse_outages SET ended_at = ? WHERE id = ?`, FormatTime(end), o.ID); err != nil {
		return nil, err
	}
	_, err = InsertEvent(ctx, tx, o.RestaurantID, EventTSERecovered, map[string]any{
		"outage_id": o.ID, "started_at": FormatTime(o.StartedAt), "ended_at": FormatTime(end),
		"affected_transactions": o.AffectedTransactions,
	})
	return o, err
}

// MarkTSEUnsigned records that a sale's receipt went out without TSE data:
// it joins the open outage (opened now if needed) and counts there once.
func (s *Store) MarkTSEUnsigned(ctx context.Context, restaurantID, txID, code, reason string) (*TSETransaction, error) {
	var out *TSETransaction
	err := s.write(ctx, func(tx *Tx) error {
		t, err := tseTransaction(ctx, tx, restaurantID, txID)
		if err != nil {
			return err
		}
		if t.Signed() || t.ReceiptWithoutTSE {
			out = t
			return nil
		}
		o, _, err := openTSEOutage(ctx, tx, restaurantID, t.TSSID, code, reason)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tse_outages SET affected_transactions = affected_transactions + 1 WHERE id = ?`, o.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tse_transactions SET receipt_without_tse = 1, outage_id = ?, updated_at = ?
			WHERE tx_id = ?`, o.ID, FormatTime(tx.Now), txID); err != nil {
			return err
		}
		out, err = tseTransaction(ctx, tx, restaurantID, txID)
		return err
	})
	return out, err
}

// TSEOutages lists a restaurant's outages, newest first.
func (s *Store) TSEOutages(ctx context.Context, restaurantID string) ([]*TSEOutage, error) {
	return queryAll(ctx, s.rs, scanTSEOutage, `SELECT `+tseOutageColumns+` FROM tse_outages WHERE restaurant_id = ?
		ORDER BY started_at DESC, id DESC LIMIT 1000`, restaurantID)
}

// OpenTSEOutageOf is the TSS's open outage; not_found when none is open.
func (s *Store) OpenTSEOutageOf(ctx context.Context, tssID string) (*TSEOutage, error) {
	o, err := scanTSEOutage(s.rs.QueryRowContext(ctx, `SELECT `+tseOutageColumns+` FROM tse_outages WHERE tss_id = ? AND ended_at IS NULL`, tssID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("open outage")
	}
	return o, err
}
