package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// ReasonArchiveStart is the reason_code of an incremental range set
// aside because it lies before the archive's declared first counter.
const ReasonArchiveStart = "before_archive_start"

// TSEArchiveStart is one declaration of the first signature counter to
// archive a TSS from, with who made it, when and why (docs/FISCAL.md,
// "A TSS that signed before posbox archived it").
type TSEArchiveStart struct {
	ID           string
	RestaurantID string
	TSSID        string
	FirstCounter int64
	Reason       string
	SetBy        string // user id
	SetByName    string // the user's name as it is now (an erased user's is pseudonymised)
	SetAt        time.Time
}

const tseArchiveStartSelect = `SELECT s.id, s.restaurant_id, s.tss_id, s.first_counter, s.reason, s.set_by, u.name, s.set_at
	FROM tse_archive_starts s JOIN users u ON u.id = s.set_by`

func scanTSEArchiveStart(sc scanner) (TSEArchiveStart, error) {
	var a TSEArchiveStart
	var at string
	err := sc.Scan(&a.ID, &a.RestaurantID, &a.TSSID, &a.FirstCounter, &a.Reason, &a.SetBy, &a.SetByName, &at)
	a.SetAt = ParseTime(at)
	return a, err
}

// TSEArchiveStarts is the history of a TSS's declared archive starts,
// oldest first; the last one is in force (none: the chain starts at
// counter 1). The procedure document shows it.
func (s *Store) TSEArchiveStarts(ctx context.Context, tssID string) ([]TSEArchiveStart, error) {
	return queryAll(ctx, s.rdb, scanTSEArchiveStart, tseArchiveStartSelect+` WHERE s.tss_id = ? ORDER BY s.first_counter`, tssID)
}

// TSEArchiveStartsOfRestaurant is every declared start of the
// restaurant's TSSs, oldest first.
func (s *Store) TSEArchiveStartsOfRestaurant(ctx context.Context, restaurantID string) ([]TSEArchiveStart, error) {
	return queryAll(ctx, s.rdb, scanTSEArchiveStart, tseArchiveStartSelect+` WHERE s.restaurant_id = ? ORDER BY s.set_at, s.id`, restaurantID)
}

// TSEArchiveStartOf is the declared start in force for a TSS, nil when
// the chain starts at counter 1.
func (s *Store) TSEArchiveStartOf(ctx context.Context, tssID string) (*TSEArchiveStart, error) {
	all, err := s.TSEArchiveStarts(ctx, tssID)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	return &all[len(all)-1], nil
}

// rowQueryer is a *sql.DB or a *Tx.
type rowQueryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// archiveFrom is the first counter of a TSS's archive chain: 1, or the
// declared start in force.
func archiveFrom(ctx context.Context, q rowQueryer, tssID string) (int64, error) {
	var first int64
	err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(first_counter), 1) FROM tse_archive_starts WHERE tss_id = ?`, tssID).Scan(&first)
	return first, err
}

// MaxArchiveStartReasonLen bounds the reason of a declared start.
const MaxArchiveStartReasonLen = 1000

// SetTSEArchiveStart declares first as the first signature counter to
// archive the TSS from, for reason, by the admin userID; maxCounter is
// the TSS's signature counter now (a start may lie at most one beyond
// it). The start only moves forward and never before the end of the
// archived chain: counters already archived stay so. In the same
// transaction the incremental ranges not archived that begin before it
// are set aside (failed, reason_code before_archive_start), and one that
// reaches over it is planned again from it, so the chain goes on from
// the start without a gap.
func (s *Store) SetTSEArchiveStart(ctx context.Context, restaurantID, tssID, serial string, first, maxCounter int64, reason, userID string) (*TSEArchiveStart, error) {
	var f Fields
	reason = strings.TrimSpace(reason)
	switch {
	case reason == "":
		f.Add("reason", FRequired, "is required: say why the earlier counters cannot be archived")
	case utf8.RuneCountInString(reason) > MaxArchiveStartReasonLen:
		f.Add("reason", FTooLong, fmt.Sprintf("must be at most %d characters", MaxArchiveStartReasonLen), "max", MaxArchiveStartReasonLen)
	}
	if first > maxCounter+1 {
		f.Add("first_signature_counter", FTooLarge, fmt.Sprintf("must be at most %d: the TSS has signed up to counter %d", maxCounter+1, maxCounter),
			"max", fmt.Sprint(maxCounter+1))
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var out TSEArchiveStart
	err := s.write(ctx, func(tx *Tx) error {
		from, err := archiveFrom(ctx, tx, tssID)
		if err != nil {
			return err
		}
		chainEnd, err := archivedChainEnd(ctx, tx, tssID, from)
		if err != nil {
			return err
		}
		if low := max(from+1, chainEnd+2); first < low {
			return Invalid("first_signature_counter", FTooSmall, fmt.Sprintf(
				"must be %d or more: the start only moves forward, and the archive's chain from counter %d holds every counter up to %d", low, from, chainEnd),
				"min", low)
		}
		if err := setAsideBefore(ctx, tx, restaurantID, tssID, serial, first, reason); err != nil {
			return err
		}
		out = TSEArchiveStart{ID: NewID(), RestaurantID: restaurantID, TSSID: tssID, FirstCounter: first, Reason: reason, SetBy: userID, SetAt: tx.Now}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tse_archive_starts (id, restaurant_id, tss_id, first_counter, reason, set_by, set_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, out.ID, restaurantID, tssID, first, reason, userID, FormatTime(tx.Now)); err != nil {
			if strings.Contains(err.Error(), "tse_archive_start_backwards") { // the trigger: a concurrent declaration
				return Invalid("first_signature_counter", FTooSmall, "must be beyond the start declared meanwhile", "min", first+1)
			}
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT name FROM users WHERE id = ?`, userID).Scan(&out.SetByName)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// setAsideBefore fails the incremental ranges not archived that begin
// before first (cut at first-1), and plans again from first the part of
// one that reached over it.
func setAsideBefore(ctx context.Context, tx *Tx, restaurantID, tssID, serial string, first int64, reason string) error {
	var overLast int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(last_counter), 0) FROM tse_archives
		WHERE tss_id = ? AND kind = 'incremental' AND state != 'archived' AND first_counter < ? AND last_counter >= ?`,
		tssID, first, first).Scan(&overLast); err != nil {
		return err
	}
	now := FormatTime(tx.Now)
	// Planned ranges never overlap (00009's trigger), so the one reaching
	// over the start is cut at it: its part before is set aside, the rest
	// planned again below.
	if _, err := tx.ExecContext(ctx, `UPDATE tse_archives SET state = 'failed', reason_code = ?, reason = ?, updated_at = ?,
		last_counter = MIN(last_counter, ?)
		WHERE tss_id = ? AND kind = 'incremental' AND state != 'archived' AND first_counter < ?`,
		ReasonArchiveStart, fmt.Sprintf("before the first counter to archive from (%d): %s", first, reason), now, first-1, tssID, first); err != nil {
		return err
	}
	if overLast == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO tse_archives (id, restaurant_id, tss_id, tss_serial, kind,
		first_counter, last_counter, export_id, state, next_attempt_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'incremental', ?, ?, ?, 'pending', ?, ?, ?)`,
		NewID(), restaurantID, tssID, serial, first, overLast, newExportID(), now, now, now)
	return mapArchiveErr(err)
}
