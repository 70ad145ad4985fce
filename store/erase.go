package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Error codes of an erasure.
const (
	// EUserActive: only a deactivated user can be erased.
	EUserActive = "user_active"
	// EUserErased: the user's data was erased before.
	EUserErased = "user_erased"
	// EUserClockedIn: the user has an open time entry; it is closed first
	// (the erasure would leave a shift without its end).
	EUserClockedIn = "user_clocked_in"
)

// Erasure is the audit record of one erasure (GDPR art. 17): who erased
// whom and when; ids only, nothing of the erased data.
type Erasure struct {
	ID              string
	RestaurantID    string
	UserID          string
	ErasedBy        string
	ErasedAt        time.Time
	PseudonymisedAt *time.Time
}

// erasedEmail stands in for an erased address: the users table wants an
// email or a PIN, and this one can log in nowhere (.invalid, no password).
func erasedEmail(id string) string { return "erased-" + id + "@posbox.invalid" }

// EraseUser erases, now, what no retention duty keeps of a deactivated
// user: email, password and PIN hashes, the notification rules that
// send to the user's address, and the log entries and delivery errors
// that name it. It also marks the user deleted and ends every token. The name
// and staff number stay on the row for the time records and payroll,
// until the retention job pseudonymises them (PruneRetention); receipts
// keep their own copy of the operator's name for ten years. An active
// user is refused (EUserActive), an erased one too (EUserErased); either
// changes nothing.
func (s *Store) EraseUser(ctx context.Context, restaurantID, id, byUserID string) (*Erasure, error) {
	var e *Erasure
	err := s.write(ctx, func(tx *Tx) error {
		var active bool
		var email sql.NullString
		var erased sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT is_active, email, erased_at FROM users WHERE restaurant_id = ? AND id = ?`,
			restaurantID, id).Scan(&active, &email, &erased)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return NotFound("user")
		case err != nil:
			return err
		case active:
			return Errorf(EUserActive, "only a deactivated user can be erased: deactivate the user first")
		case erased.Valid:
			return Errorf(EUserErased, "this user's data was erased before")
		}
		var open int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM time_entries WHERE user_id = ? AND clock_out IS NULL`, id).Scan(&open); err != nil {
			return err
		}
		if open > 0 {
			return Errorf(EUserClockedIn, "the user is still clocked in: close the open time entry first")
		}
		if email.Valid {
			if err := forgetAddress(ctx, tx, restaurantID, email.String); err != nil {
				return err
			}
		}
		now := FormatTime(tx.Now)
		if _, err := tx.ExecContext(ctx, `UPDATE users SET email = ?, password_hash = '', pin_hash = NULL, must_change_password = 0,
			is_active = 0, token_version = token_version + 1, deleted_at = coalesce(deleted_at, ?), erased_at = ?, updated_at = ?
			WHERE id = ?`, erasedEmail(id), now, now, now, id); err != nil {
			return err
		}
		e = &Erasure{ID: NewID(), RestaurantID: restaurantID, UserID: id, ErasedBy: byUserID, ErasedAt: tx.Now}
		_, err = tx.ExecContext(ctx, `INSERT INTO user_erasures (id, restaurant_id, user_id, erased_by, erased_at) VALUES (?, ?, ?, ?, ?)`,
			e.ID, restaurantID, id, byUserID, now)
		return err
	})
	return e, err
}

// forgetAddress deletes the restaurant's notification rules that send to
// email (their queued deliveries are cancelled, as a rule's DELETE does),
// the log entries sent to it or quoting it (SMTP errors name the
// recipient), and clears the deliveries' last errors that quote it.
func forgetAddress(ctx context.Context, tx *Tx, restaurantID, email string) error {
	ids, err := queryAll(ctx, tx, scanString, `SELECT id FROM notification_settings
		WHERE restaurant_id = ? AND channel = 'email' AND destination = ? COLLATE NOCASE`, restaurantID, email)
	if err != nil {
		return err
	}
	for _, sid := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM notification_settings WHERE id = ?`, sid); err != nil {
			return err
		}
		if err := cancelDeliveries(ctx, tx, sid, "rule deleted"); err != nil {
			return err
		}
	}
	// instr on lower(): the address is text, not a LIKE pattern (it may
	// hold _ or %).
	for _, q := range []string{
		`DELETE FROM notification_logs WHERE restaurant_id = ?
			AND (destination = ?2 COLLATE NOCASE OR instr(lower(coalesce(error, '')), lower(?2)) > 0)`,
		`UPDATE notification_deliveries SET last_error = 'erased' WHERE restaurant_id = ?
			AND instr(lower(coalesce(last_error, '')), lower(?2)) > 0`,
	} {
		if _, err := tx.ExecContext(ctx, q, restaurantID, email); err != nil {
			return err
		}
	}
	return nil
}

// UserErasures lists a restaurant's erasures, newest first.
func (s *Store) UserErasures(ctx context.Context, restaurantID string) ([]*Erasure, error) {
	return queryAll(ctx, s.rs, func(sc scanner) (*Erasure, error) {
		var e Erasure
		var at string
		var pseudo sql.NullString
		err := sc.Scan(&e.ID, &e.RestaurantID, &e.UserID, &e.ErasedBy, &at, &pseudo)
		e.ErasedAt, e.PseudonymisedAt = ParseTime(at), parseNullTime(pseudo)
		return &e, err
	}, `SELECT id, restaurant_id, user_id, erased_by, erased_at, pseudonymised_at FROM user_erasures
		WHERE restaurant_id = ? ORDER BY erased_at DESC, id DESC`, restaurantID)
}

// ErasureEntry is one erasure as the admin sees it: when, by whom (the
// admin's name), and when the name was pseudonymised; nothing of the
// erased person, not even an id.
type ErasureEntry struct {
	ErasedAt        time.Time
	ErasedByName    string
	PseudonymisedAt *time.Time
}

// ErasureLog lists a restaurant's erasures for the admin, newest first.
func (s *Store) ErasureLog(ctx context.Context, restaurantID string) ([]ErasureEntry, error) {
	return queryAll(ctx, s.rs, func(sc scanner) (ErasureEntry, error) {
		var e ErasureEntry
		var at string
		var pseudo sql.NullString
		err := sc.Scan(&at, &e.ErasedByName, &pseudo)
		e.ErasedAt, e.PseudonymisedAt = ParseTime(at), parseNullTime(pseudo)
		return e, err
	}, `SELECT x.erased_at, coalesce(u.name, ''), x.pseudonymised_at FROM user_erasures x LEFT JOIN users u ON u.id = x.erased_by
		WHERE x.restaurant_id = ? ORDER BY x.erased_at DESC, x.id DESC`, restaurantID)
}
