package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// Steps of a TSS replacement, in order (docs/TSE.md, "Replacing the TSS").
const (
	ReplaceClosing = "closing" // every register closed
	ReplaceExport  = "export"  // the final export verified into the archive
	ReplaceDisable = "disable" // the old TSS disabled at the provider
	ReplaceSetup   = "setup"   // a new TSS set up, tse.json replaced
	ReplaceSwitch  = "switch"  // the queue switches to the new TSS (a restart)
	ReplaceDone    = "done"
)

// ReplaceSteps are the steps in order.
var ReplaceSteps = []string{ReplaceClosing, ReplaceExport, ReplaceDisable, ReplaceSetup, ReplaceSwitch, ReplaceDone}

// Error codes of a replacement (docs/API.md, "Replacing the TSS").
const (
	// ETSEReplacementOpen refuses a second replacement while one is open.
	ETSEReplacementOpen = "tse_replacement_open"
	// ETSEReplacementRefused: a step cannot go on as things stand (the
	// message says why and what to do).
	ETSEReplacementRefused = "tse_replacement_refused"
	// ETSEReplacing: sales wait while the TSS is replaced (503, Retry-After).
	ETSEReplacing = "tse_replacing"
)

// TSEReplacement is one replacement of a TSS: where it stands, and the
// record of the change.
type TSEReplacement struct {
	ID, RestaurantID     string
	OldTSSID, OldSerial  string
	NewTSSID, NewSerial  string // set from the setup step on
	Step                 string
	ForceReason          string // set when the queue could not be emptied
	StartedBy            string // user id
	StartedByName        string
	StartedAt            time.Time
	ClosedAt, ExportedAt *time.Time
	FinalCounter         int64 // the old TSS's last signature counter, archived
	DisabledAt, SetUpAt  *time.Time
	SwitchedAt           *time.Time
	LastError            string
	UpdatedAt            time.Time
}

const tseReplacementColumns = `r.id, r.restaurant_id, r.old_tss_id, r.old_serial, COALESCE(r.new_tss_id, ''), COALESCE(r.new_serial, ''),
	r.step, COALESCE(r.force_reason, ''), r.started_by, u.name, r.started_at, r.closed_at, r.exported_at, COALESCE(r.final_counter, 0),
	r.disabled_at, r.set_up_at, r.switched_at, COALESCE(r.last_error, ''), r.updated_at`

func scanTSEReplacement(sc scanner) (*TSEReplacement, error) {
	var r TSEReplacement
	var started, updated string
	var closed, exported, disabled, setUp, switched sql.NullString
	if err := sc.Scan(&r.ID, &r.RestaurantID, &r.OldTSSID, &r.OldSerial, &r.NewTSSID, &r.NewSerial, &r.Step, &r.ForceReason,
		&r.StartedBy, &r.StartedByName, &started, &closed, &exported, &r.FinalCounter, &disabled, &setUp, &switched,
		&r.LastError, &updated); err != nil {
		return nil, err
	}
	r.StartedAt, r.UpdatedAt = ParseTime(started), ParseTime(updated)
	r.ClosedAt, r.ExportedAt, r.DisabledAt = parseNullTime(closed), parseNullTime(exported), parseNullTime(disabled)
	r.SetUpAt, r.SwitchedAt = parseNullTime(setUp), parseNullTime(switched)
	return &r, nil
}

// StartTSEReplacement records a new replacement of the TSS oldTSSID at
// its first step; one is open per restaurant at most (the partial unique
// index), so a second start is ETSEReplacementOpen.
func (s *Store) StartTSEReplacement(ctx context.Context, restaurantID, oldTSSID, oldSerial, userID, forceReason string) (*TSEReplacement, error) {
	id := NewID()
	err := s.write(ctx, func(tx *Tx) error {
		now := FormatTime(tx.Now)
		_, err := tx.ExecContext(ctx, `INSERT INTO tse_replacements (id, restaurant_id, old_tss_id, old_serial, step, force_reason,
			started_by, started_at, updated_at) VALUES (?, ?, ?, ?, 'closing', ?, ?, ?, ?)`,
			id, restaurantID, oldTSSID, oldSerial, nullStr(strings.TrimSpace(forceReason)), userID, now, now)
		if err != nil && strings.Contains(err.Error(), "UNIQUE") {
			return Errorf(ETSEReplacementOpen, "a replacement of the TSS is already under way: continue it")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.TSEReplacement(ctx, restaurantID, id)
}

// TSEReplacement finds one replacement of a restaurant.
func (s *Store) TSEReplacement(ctx context.Context, restaurantID, id string) (*TSEReplacement, error) {
	r, err := scanTSEReplacement(s.rdb.QueryRowContext(ctx, `SELECT `+tseReplacementColumns+` FROM tse_replacements r
		JOIN users u ON u.id = r.started_by WHERE r.restaurant_id = ? AND r.id = ?`, restaurantID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("replacement")
	}
	return r, err
}

// OpenTSEReplacement is the restaurant's replacement under way (not_found: none).
func (s *Store) OpenTSEReplacement(ctx context.Context, restaurantID string) (*TSEReplacement, error) {
	r, err := scanTSEReplacement(s.rdb.QueryRowContext(ctx, `SELECT `+tseReplacementColumns+` FROM tse_replacements r
		JOIN users u ON u.id = r.started_by WHERE r.restaurant_id = ? AND r.step != 'done'`, restaurantID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("replacement")
	}
	return r, err
}

// TSEReplacements lists a restaurant's replacements, oldest first: the
// record of every change of TSS (old serial out of service, new in).
func (s *Store) TSEReplacements(ctx context.Context, restaurantID string) ([]*TSEReplacement, error) {
	return queryAll(ctx, s.rdb, scanTSEReplacement, `SELECT `+tseReplacementColumns+` FROM tse_replacements r
		JOIN users u ON u.id = r.started_by WHERE r.restaurant_id = ? ORDER BY r.started_at, r.id`, restaurantID)
}

// ReplacementStep is what finishing a step records.
type ReplacementStep struct {
	FinalCounter        int64  // export
	NewTSSID, NewSerial string // setup
}

// stepStamp is the column a finished step sets to now.
var stepStamp = map[string]string{ReplaceClosing: "closed_at", ReplaceExport: "exported_at", ReplaceDisable: "disabled_at",
	ReplaceSetup: "set_up_at", ReplaceSwitch: "switched_at"}

// FinishTSEReplacementStep moves a replacement from step to the next one
// and records what the step did; a replacement no longer at step (a
// concurrent run finished it) is a conflict and changes nothing.
func (s *Store) FinishTSEReplacementStep(ctx context.Context, id, step string, r ReplacementStep) error {
	next := ""
	for i, st := range ReplaceSteps[:len(ReplaceSteps)-1] {
		if st == step {
			next = ReplaceSteps[i+1]
		}
	}
	if next == "" {
		return Errorf(EConflict, "no step %q to finish", step)
	}
	return s.write(ctx, func(tx *Tx) error {
		now := FormatTime(tx.Now)
		res, err := tx.ExecContext(ctx, `UPDATE tse_replacements SET step = ?, `+stepStamp[step]+` = ?, last_error = NULL, updated_at = ?,
			final_counter = COALESCE(NULLIF(?, 0), final_counter), new_tss_id = COALESCE(NULLIF(?, ''), new_tss_id),
			new_serial = COALESCE(NULLIF(?, ''), new_serial)
			WHERE id = ? AND step = ?`, next, now, now, r.FinalCounter, r.NewTSSID, r.NewSerial, id, step)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return Errorf(EConflict, "the replacement is no longer at step %s", step)
		}
		return nil
	})
}

// FailTSEReplacementStep records why the current step could not finish;
// the replacement stays at it, to be continued.
func (s *Store) FailTSEReplacementStep(ctx context.Context, id, why string) error {
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tse_replacements SET last_error = ?, updated_at = ? WHERE id = ? AND step != 'done'`,
			why, FormatTime(tx.Now), id)
		return err
	})
}

// RecordTSEReplaced ends a replacement at its switch: the appliance signs
// with the new TSS since day (the restaurant's date). The fiscal master
// data's TSE dates then speak of the new TSS (in service since day, not
// out of service); the old TSS's out-of-service date is the replacement's
// (switched_at), listed by TSEReplacements for the §146a report.
func (s *Store) RecordTSEReplaced(ctx context.Context, id, day string) error {
	return s.write(ctx, func(tx *Tx) error {
		var restaurantID string
		if err := tx.QueryRowContext(ctx, `SELECT restaurant_id FROM tse_replacements WHERE id = ? AND step = 'switch'`, id).
			Scan(&restaurantID); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return Errorf(EConflict, "the replacement is not waiting for its switch")
			}
			return err
		}
		now := FormatTime(tx.Now)
		if _, err := tx.ExecContext(ctx, `UPDATE tse_replacements SET step = 'done', switched_at = ?, last_error = NULL, updated_at = ?
			WHERE id = ?`, now, now, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE fiscal_master_data SET tse_in_service_on = ?, tse_out_of_service_on = NULL, updated_at = ?
			WHERE restaurant_id = ?`, day, now, restaurantID)
		return err
	})
}
