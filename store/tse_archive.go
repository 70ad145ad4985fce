package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
)

// The fiscal archive's rows (migration 00009): one per TAR export posbox
// asked the provider for. The job in fiscal/archive drives them; every state
// change is one of the functions below, in one write transaction.

// Archive kinds and states.
const (
	TSEArchiveIncremental = "incremental"
	TSEArchiveDates       = "dates"

	TSEArchivePending   = "pending"
	TSEArchiveExporting = "exporting"
	TSEArchiveVerifying = "verifying"
	TSEArchiveArchived  = "archived"
	TSEArchiveFailed    = "failed"

	TSEVerificationPassed = "passed"
	TSEVerificationFailed = "failed"
)

// ETSEArchiveOverlap: an archived range would overlap another of the TSS.
const ETSEArchiveOverlap = "tse_archive_overlap"

// TSEArchive is one export of the TSS's log messages and, once archived,
// the verified TAR file kept on the box.
type TSEArchive struct {
	ID           string
	RestaurantID string
	TSSID        string
	TSSSerial    string
	Kind         string // incremental or dates
	// FirstCounter and LastCounter are the signature-counter range: planned
	// for an incremental row, found in the TAR for a dates row (nil until then).
	FirstCounter *int64
	LastCounter  *int64
	// StartDate and EndDate bound a dates export (nil for incremental).
	StartDate     *time.Time
	EndDate       *time.Time
	ExportID      string
	State         string
	Attempts      int
	NextAttemptAt time.Time
	ReasonCode    string
	Reason        string
	Verification  string // "", passed or failed
	LogMessages   *int64
	FirstLogTime  *time.Time
	LastLogTime   *time.Time
	FileName      string
	SizeBytes     *int64
	SHA256        string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	ArchivedAt    *time.Time
}

const tseArchiveColumns = `id, restaurant_id, tss_id, tss_serial, kind, first_counter, last_counter, start_date, end_date,
	export_id, state, attempts, next_attempt_at, reason_code, reason, verification, log_messages, first_log_time,
	last_log_time, file_name, size_bytes, sha256, created_at, updated_at, archived_at`

func scanTSEArchive(sc scanner) (*TSEArchive, error) {
	var a TSEArchive
	var first, last, msgs, size sql.NullInt64
	var startDate, endDate, code, reason, verification, firstLog, lastLog, file, sum, archived sql.NullString
	var next, created, updated string
	if err := sc.Scan(&a.ID, &a.RestaurantID, &a.TSSID, &a.TSSSerial, &a.Kind, &first, &last, &startDate, &endDate,
		&a.ExportID, &a.State, &a.Attempts, &next, &code, &reason, &verification, &msgs, &firstLog,
		&lastLog, &file, &size, &sum, &created, &updated, &archived); err != nil {
		return nil, err
	}
	a.FirstCounter, a.LastCounter, a.LogMessages, a.SizeBytes = nullInt(first), nullInt(last), nullInt(msgs), nullInt(size)
	a.StartDate, a.EndDate = parseNullTime(startDate), parseNullTime(endDate)
	a.NextAttemptAt, a.CreatedAt, a.UpdatedAt = ParseTime(next), ParseTime(created), ParseTime(updated)
	a.ReasonCode, a.Reason, a.Verification = code.String, reason.String, verification.String
	a.FirstLogTime, a.LastLogTime, a.ArchivedAt = parseNullTime(firstLog), parseNullTime(lastLog), parseNullTime(archived)
	a.FileName, a.SHA256 = file.String, sum.String
	return &a, nil
}

// Open reports whether the export still has work to do.
func (a *TSEArchive) Open() bool {
	return a.State == TSEArchivePending || a.State == TSEArchiveExporting || a.State == TSEArchiveVerifying
}

// newExportID is an export id for the provider: fiskaly wants a v4 UUID
// for the resources a client names.
func newExportID() string { return uuid.NewString() }

// PlanTSEArchiveRanges adds the incremental ranges not yet planned, from
// the last planned counter + 1 up to upTo, each at most maxRecords
// counters long, and returns them (none when everything is planned). The
// export id of each is chosen here, before anything is triggered.
func (s *Store) PlanTSEArchiveRanges(ctx context.Context, restaurantID, tssID, serial string, upTo, maxRecords int64) ([]*TSEArchive, error) {
	if maxRecords < 1 {
		return nil, errors.New("store: maxRecords must be at least 1")
	}
	var out []*TSEArchive
	err := s.write(ctx, func(tx *Tx) error {
		out = nil
		// The chain starts at counter 1 or at the declared start
		// (tse_archive_start.go); ranges set aside before it do not count.
		from, err := archiveFrom(ctx, tx, tssID)
		if err != nil {
			return err
		}
		var planned sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(last_counter) FROM tse_archives WHERE tss_id = ? AND kind = 'incremental' AND first_counter >= ?`,
			tssID, from).Scan(&planned); err != nil {
			return err
		}
		now := FormatTime(tx.Now)
		for first := max(planned.Int64, from-1) + 1; first <= upTo; first += maxRecords {
			last := min(first+maxRecords-1, upTo)
			id := NewID()
			if _, err := tx.ExecContext(ctx, `INSERT INTO tse_archives (id, restaurant_id, tss_id, tss_serial, kind,
				first_counter, last_counter, export_id, state, next_attempt_at, created_at, updated_at)
				VALUES (?, ?, ?, ?, 'incremental', ?, ?, ?, 'pending', ?, ?, ?)`,
				id, restaurantID, tssID, serial, first, last, newExportID(), now, now, now); err != nil {
				return mapArchiveErr(err)
			}
			a, err := scanTSEArchive(tx.QueryRowContext(ctx, `SELECT `+tseArchiveColumns+` FROM tse_archives WHERE id = ?`, id))
			if err != nil {
				return err
			}
			out = append(out, a)
		}
		return nil
	})
	return out, err
}

// CreateTSEDateArchive records an admin's export of the log messages
// between two instants (start inclusive, end exclusive); the job triggers it.
func (s *Store) CreateTSEDateArchive(ctx context.Context, restaurantID, tssID, serial string, start, end time.Time) (*TSEArchive, error) {
	var a *TSEArchive
	err := s.write(ctx, func(tx *Tx) error {
		id, now := NewID(), FormatTime(tx.Now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO tse_archives (id, restaurant_id, tss_id, tss_serial, kind,
			start_date, end_date, export_id, state, next_attempt_at, created_at, updated_at)
			VALUES (?, ?, ?, ?, 'dates', ?, ?, ?, 'pending', ?, ?, ?)`,
			id, restaurantID, tssID, serial, FormatTime(start), FormatTime(end), newExportID(), now, now, now); err != nil {
			return err
		}
		var err error
		a, err = scanTSEArchive(tx.QueryRowContext(ctx, `SELECT `+tseArchiveColumns+` FROM tse_archives WHERE id = ?`, id))
		return err
	})
	return a, err
}

// OpenTSEArchives lists the TSS's exports with work left: incremental
// ranges by counter first, then dates exports by age.
func (s *Store) OpenTSEArchives(ctx context.Context, tssID string) ([]*TSEArchive, error) {
	return queryAll(ctx, s.rdb, scanTSEArchive, `SELECT `+tseArchiveColumns+` FROM tse_archives
		WHERE tss_id = ? AND state IN ('pending', 'exporting', 'verifying')
		ORDER BY kind = 'dates', first_counter, created_at`, tssID)
}

// TSEArchives lists a restaurant's archive rows, newest range first.
func (s *Store) TSEArchives(ctx context.Context, restaurantID string) ([]*TSEArchive, error) {
	return queryAll(ctx, s.rdb, scanTSEArchive, `SELECT `+tseArchiveColumns+` FROM tse_archives
		WHERE restaurant_id = ? ORDER BY kind = 'dates', first_counter DESC, created_at DESC`, restaurantID)
}

// TSEArchive finds one archive row of a restaurant.
func (s *Store) TSEArchive(ctx context.Context, restaurantID, id string) (*TSEArchive, error) {
	a, err := scanTSEArchive(s.rdb.QueryRowContext(ctx, `SELECT `+tseArchiveColumns+` FROM tse_archives
		WHERE id = ? AND restaurant_id = ?`, id, restaurantID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("archive")
	}
	return a, err
}

// StartTSEArchiveExport notes that the export is (about to be) triggered:
// state exporting, one more attempt. A restart finds it exporting and
// resumes the same export id.
func (s *Store) StartTSEArchiveExport(ctx context.Context, id string) error {
	return s.setArchive(ctx, id, `state = 'exporting', attempts = attempts + 1`)
}

// VerifyingTSEArchive notes that the TAR is downloaded and being checked.
func (s *Store) VerifyingTSEArchive(ctx context.Context, id string) error {
	return s.setArchive(ctx, id, `state = 'verifying'`)
}

// RetryTSEArchive puts an export back to pending until next, with the
// reason shown to the admin. newExport gives it a fresh export id: the
// provider's export failed, was cancelled or expired, so a new one is
// needed; otherwise the same export is resumed.
func (s *Store) RetryTSEArchive(ctx context.Context, id string, next time.Time, newExport bool, code, reason string) error {
	return s.write(ctx, func(tx *Tx) error {
		exportID := any(nil)
		if newExport {
			exportID = newExportID()
		}
		res, err := tx.ExecContext(ctx, `UPDATE tse_archives SET state = 'pending', next_attempt_at = ?,
			export_id = COALESCE(?, export_id), reason_code = ?, reason = ?, updated_at = ?
			WHERE id = ? AND state IN ('pending', 'exporting', 'verifying')`,
			FormatTime(next), exportID, emptyToNull(code), emptyToNull(reason), FormatTime(tx.Now), id)
		return oneRow(res, err, "archive")
	})
}

// FailTSEArchive ends an export that is not retried (an admin's dates
// export the provider refused): state failed with its reason.
func (s *Store) FailTSEArchive(ctx context.Context, id, code, reason string) error {
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tse_archives SET state = 'failed', reason_code = ?, reason = ?, updated_at = ?
			WHERE id = ? AND state IN ('pending', 'exporting', 'verifying')`, code, reason, FormatTime(tx.Now), id)
		return oneRow(res, err, "archive")
	})
}

// TSEArchiveFinding is why a TAR failed verification.
type TSEArchiveFinding struct {
	Code   string // tar_gap, tar_signature, tar_unreadable, tar_missing_transaction, ...
	Reason string // a sentence for people
	// Details go into the tse_error event (counters, numbers).
	Details map[string]any
}

// RejectTSEArchive records a TAR that failed verification and raises
// tse_error in the same transaction. An incremental range stays pending
// (with a fresh export id, tried again at next) so the chain is never
// closed over a gap; a dates export ends failed.
func (s *Store) RejectTSEArchive(ctx context.Context, a *TSEArchive, next time.Time, f TSEArchiveFinding) error {
	return s.write(ctx, func(tx *Tx) error {
		state := TSEArchivePending
		if a.Kind == TSEArchiveDates {
			state = TSEArchiveFailed
		}
		res, err := tx.ExecContext(ctx, `UPDATE tse_archives SET state = ?, verification = 'failed', export_id = ?,
			next_attempt_at = ?, reason_code = ?, reason = ?, updated_at = ?
			WHERE id = ? AND state IN ('pending', 'exporting', 'verifying')`,
			state, newExportID(), FormatTime(next), f.Code, f.Reason, FormatTime(tx.Now), a.ID)
		if err := oneRow(res, err, "archive"); err != nil {
			return err
		}
		data := map[string]any{"reason": "archive_verification_failed", "archive_id": a.ID, "export_id": a.ExportID,
			"tss_id": a.TSSID, "error_code": f.Code, "message": f.Reason}
		if a.FirstCounter != nil && a.LastCounter != nil {
			data["first_counter"], data["last_counter"] = *a.FirstCounter, *a.LastCounter
		}
		for k, v := range f.Details {
			data[k] = v
		}
		_, err = InsertEvent(ctx, tx, a.RestaurantID, EventTSEError, data)
		return err
	})
}

// TSEArchiveResult is a verified TAR in its final place.
type TSEArchiveResult struct {
	FirstCounter, LastCounter int64
	LogMessages               int64
	FirstLogTime, LastLogTime time.Time
	FileName                  string
	SizeBytes                 int64
	SHA256                    string
}

// ArchiveTSEArchive marks an export archived with its verified file. For
// an incremental range, no other archived range of the TSS may overlap
// it: checked here in the write transaction (409 tse_archive_overlap) and
// by the trigger of 00009.
func (s *Store) ArchiveTSEArchive(ctx context.Context, id string, r TSEArchiveResult) (*TSEArchive, error) {
	var a *TSEArchive
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := scanTSEArchive(tx.QueryRowContext(ctx, `SELECT `+tseArchiveColumns+` FROM tse_archives WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("archive")
		}
		if err != nil {
			return err
		}
		if !cur.Open() {
			return Errorf(EConflict, "archive %s is %s, not being exported", id, cur.State)
		}
		if cur.Kind == TSEArchiveIncremental {
			if *cur.FirstCounter != r.FirstCounter || *cur.LastCounter != r.LastCounter {
				return Errorf(EConflict, "archive %s covers %d-%d, the file %d-%d", id, *cur.FirstCounter, *cur.LastCounter,
					r.FirstCounter, r.LastCounter)
			}
			var other string
			err := tx.QueryRowContext(ctx, `SELECT id FROM tse_archives WHERE tss_id = ? AND kind = 'incremental'
				AND state = 'archived' AND id != ? AND first_counter <= ? AND ? <= last_counter LIMIT 1`,
				cur.TSSID, id, r.LastCounter, r.FirstCounter).Scan(&other)
			if err == nil {
				return Errorf(ETSEArchiveOverlap, "signature counters %d-%d are already archived (archive %s)", r.FirstCounter, r.LastCounter, other)
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		now := FormatTime(tx.Now)
		if _, err := tx.ExecContext(ctx, `UPDATE tse_archives SET state = 'archived', verification = 'passed',
			first_counter = ?, last_counter = ?, log_messages = ?, first_log_time = ?, last_log_time = ?,
			file_name = ?, size_bytes = ?, sha256 = ?, reason_code = NULL, reason = NULL, archived_at = ?, updated_at = ?
			WHERE id = ?`, r.FirstCounter, r.LastCounter, r.LogMessages, FormatTime(r.FirstLogTime), FormatTime(r.LastLogTime),
			r.FileName, r.SizeBytes, r.SHA256, now, now, id); err != nil {
			return mapArchiveErr(err)
		}
		a, err = scanTSEArchive(tx.QueryRowContext(ctx, `SELECT `+tseArchiveColumns+` FROM tse_archives WHERE id = ?`, id))
		return err
	})
	return a, err
}

// mapArchiveErr turns the overlap trigger's abort into the domain error.
func mapArchiveErr(err error) error {
	if err != nil && strings.Contains(err.Error(), ETSEArchiveOverlap) {
		return Errorf(ETSEArchiveOverlap, "the range overlaps one the TSS already has")
	}
	return err
}

// oneRow is nil when res changed exactly one row, else not_found.
func oneRow(res sql.Result, err error, what string) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return NotFound(what)
	}
	return nil
}

func (s *Store) setArchive(ctx context.Context, id, set string) error {
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tse_archives SET `+set+`, updated_at = ?
			WHERE id = ? AND state IN ('pending', 'exporting', 'verifying')`, FormatTime(tx.Now), id)
		return oneRow(res, err, "archive")
	})
}

// TSESignedCounter is one transaction posbox holds as signed: the
// signature counter and transaction number of its last signed revision.
type TSESignedCounter struct {
	TxID    string
	Number  int64
	Counter int64
}

// TSESignedCounters lists the transactions of the TSS whose last signature
// falls in [first, last]: each must be in the TAR of that range.
func (s *Store) TSESignedCounters(ctx context.Context, tssID string, first, last int64) ([]TSESignedCounter, error) {
	return queryAll(ctx, s.rdb, func(sc scanner) (TSESignedCounter, error) {
		var c TSESignedCounter
		return c, sc.Scan(&c.TxID, &c.Number, &c.Counter)
	}, `SELECT tx_id, number, signature_counter FROM tse_transactions
		WHERE tss_id = ? AND signature_counter BETWEEN ? AND ? AND number IS NOT NULL ORDER BY signature_counter`,
		tssID, first, last)
}

// TSEArchiveState is how far the archive of a TSS has come.
type TSEArchiveState struct {
	// LastArchivedCounter is the end of the archived chain: every counter
	// from the chain's start (1, or Start's) to it is in a verified TAR on
	// the box (start-1: none yet).
	LastArchivedCounter int64
	// Start is the declared first counter to archive from, with who, when
	// and why (nil: the chain starts at counter 1).
	Start          *TSEArchiveStart
	LastArchivedAt *time.Time
	// OldestUnarchived is the start of the oldest signed transaction whose
	// last signature lies beyond the archived chain (nil: everything is
	// archived).
	OldestUnarchived *time.Time
	Open             int // exports with work left
	// Rejected counts the open ranges whose last TAR failed verification;
	// LastProblem is the newest open range's reason (empty: none).
	Rejected    int
	LastProblem string
	// Set by the archive (fiscal/archive), not by the store: the age of
	// OldestUnarchived in whole days, and a warning for the admin ("" when
	// there is nothing to warn about).
	OldestUnarchivedDays *int
	Warning              string
}

// archivedChainEnd is the last counter of the archived chain from
// counter from (from-1: nothing of it archived yet). Incremental ranges
// are planned back to back from the chain's start (PlanTSEArchiveRanges)
// and never overlap (00009's triggers), so the archived chain ends where
// the first range not archived begins, or with the last range when all
// are archived. Both through 00024's partial indexes: the archived ranges
// are one a night for ten years. Ranges before a declared start were set
// aside (SetTSEArchiveStart) and do not count.
func archivedChainEnd(ctx context.Context, q rowQueryer, tssID string, from int64) (int64, error) {
	var end int64
	err := q.QueryRowContext(ctx, `SELECT COALESCE(
		(SELECT MIN(first_counter) - 1 FROM tse_archives INDEXED BY tse_archives_unarchived
			WHERE tss_id = ?1 AND kind = 'incremental' AND state != 'archived' AND first_counter >= ?2),
		(SELECT last_counter FROM tse_archives WHERE tss_id = ?1 AND kind = 'incremental' AND first_counter >= ?2
			ORDER BY first_counter DESC LIMIT 1), ?2 - 1)`, tssID, from).Scan(&end)
	return end, err
}

// TSEArchiveStateOf summarises the archive of a TSS.
func (s *Store) TSEArchiveStateOf(ctx context.Context, tssID string) (*TSEArchiveState, error) {
	out := &TSEArchiveState{}
	start, err := s.TSEArchiveStartOf(ctx, tssID)
	if err != nil {
		return nil, err
	}
	from := int64(1)
	if start != nil {
		out.Start, from = start, start.FirstCounter
	}
	if out.LastArchivedCounter, err = archivedChainEnd(ctx, s.rdb, tssID, from); err != nil {
		return nil, err
	}
	var lastAt sql.NullString
	if err := s.rdb.QueryRowContext(ctx, `SELECT MAX(archived_at) FROM tse_archives INDEXED BY tse_archives_archived_at
			WHERE tss_id = ? AND kind = 'incremental' AND state = 'archived'`, tssID).Scan(&lastAt); err != nil {
		return nil, err
	}
	out.LastArchivedAt = parseNullTime(lastAt)
	// Beyond the chain's end: the range right after it is not archived,
	// so its first transaction is not, and a later archived range (after
	// a rejected one) holds younger sales. Reading only the tail keeps the
	// status quick after years of sales.
	var oldest sql.NullString
	if err := s.rdb.QueryRowContext(ctx, `SELECT MIN(time_start) FROM tse_transactions
		WHERE tss_id = ? AND signature_counter > ? AND time_start IS NOT NULL`,
		tssID, out.LastArchivedCounter).Scan(&oldest); err != nil {
		return nil, err
	}
	out.OldestUnarchived = parseNullTime(oldest)
	var problem sql.NullString
	if err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(verification = 'failed'), 0),
		(SELECT reason FROM tse_archives WHERE tss_id = ? AND state IN ('pending', 'exporting', 'verifying')
			AND reason IS NOT NULL ORDER BY updated_at DESC LIMIT 1)
		FROM tse_archives WHERE tss_id = ? AND state IN ('pending', 'exporting', 'verifying')`,
		tssID, tssID).Scan(&out.Open, &out.Rejected, &problem); err != nil {
		return nil, err
	}
	out.LastProblem = problem.String
	return out, nil
}
