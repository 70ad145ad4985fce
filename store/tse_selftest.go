package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// TSE self-test states.
const (
	SelfTestRunning = "RUNNING"
	SelfTestPassed  = "PASSED"
	SelfTestFailed  = "FAILED"
)

// TSESelfTest is one run of the appliance's TSE checks.
type TSESelfTest struct {
	ID           string
	RestaurantID string
	TSSID        string
	State        string
	StartedAt    time.Time
	FinishedAt   *time.Time
	Error        string
	Checks       json.RawMessage
}

const tseSelfTestColumns = `id, restaurant_id, tss_id, state, started_at, finished_at, error, checks`

func scanTSESelfTest(sc scanner) (*TSESelfTest, error) {
	var t TSESelfTest
	var started, checks string
	var finished, errMsg sql.NullString
	if err := sc.Scan(&t.ID, &t.RestaurantID, &t.TSSID, &t.State, &started, &finished, &errMsg, &checks); err != nil {
		return nil, err
	}
	t.StartedAt, t.FinishedAt, t.Error, t.Checks = ParseTime(started), parseNullTime(finished), errMsg.String, json.RawMessage(checks)
	return &t, nil
}

// StartTSESelfTest starts a self-test unless one is running; started is
// false when the running one is returned. The partial unique index on
// RUNNING rows makes this single-flight even across processes.
func (s *Store) StartTSESelfTest(ctx context.Context, restaurantID, tssID string) (t *TSESelfTest, started bool, err error) {
	err = s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO tse_self_tests (id, restaurant_id, tss_id, state, started_at)
			VALUES (?, ?, ?, 'RUNNING', ?)`, NewID(), restaurantID, tssID, FormatTime(tx.Now))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		started = n == 1
		t, err = scanTSESelfTest(tx.QueryRowContext(ctx, `SELECT `+tseSelfTestColumns+` FROM tse_self_tests
			WHERE restaurant_id = ? AND state = 'RUNNING'`, restaurantID))
		return err
	})
	return t, started, err
}

// FinishTSESelfTest records the outcome; a failure records tse_error in
// the same transaction (with the provider's error code when one failed it,
// so notifications can name the cause in any language).
func (s *Store) FinishTSESelfTest(ctx context.Context, id, state, errMsg, errCode string, checks any) (*TSESelfTest, error) {
	raw, err := json.Marshal(checks)
	if err != nil {
		return nil, err
	}
	var t *TSESelfTest
	err = s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE tse_self_tests SET state = ?, finished_at = ?, error = NULLIF(?, ''), checks = ?
			WHERE id = ? AND state = 'RUNNING'`, state, FormatTime(tx.Now), errMsg, string(raw), id); err != nil {
			return err
		}
		if t, err = scanTSESelfTest(tx.QueryRowContext(ctx, `SELECT `+tseSelfTestColumns+` FROM tse_self_tests WHERE id = ?`, id)); err != nil {
			return err
		}
		if state == SelfTestFailed {
			data := map[string]any{"reason": "self_test_failed", "self_test_id": id, "message": errMsg}
			if errCode != "" {
				data["error_code"] = errCode
			}
			_, err = InsertEvent(ctx, tx, t.RestaurantID, EventTSEError, data)
		}
		return err
	})
	return t, err
}

// FailRunningTSESelfTests ends self-tests a crash interrupted.
func (s *Store) FailRunningTSESelfTests(ctx context.Context) error {
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tse_self_tests SET state = 'FAILED', finished_at = ?,
			error = 'interrupted: the appliance stopped during the test' WHERE state = 'RUNNING'`, FormatTime(tx.Now))
		return err
	})
}

// LatestTSESelfTest is the newest self-test of a restaurant; not_found
// before the first.
func (s *Store) LatestTSESelfTest(ctx context.Context, restaurantID string) (*TSESelfTest, error) {
	t, err := scanTSESelfTest(s.rs.QueryRowContext(ctx, `SELECT `+tseSelfTestColumns+` FROM tse_self_tests
		WHERE restaurant_id = ? ORDER BY started_at DESC, id DESC LIMIT 1`, restaurantID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("self-test")
	}
	return t, err
}

// TSESelfTest reads one self-test.
func (s *Store) TSESelfTest(ctx context.Context, id string) (*TSESelfTest, error) {
	t, err := scanTSESelfTest(s.rs.QueryRowContext(ctx, `SELECT `+tseSelfTestColumns+` FROM tse_self_tests WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("self-test")
	}
	return t, err
}
