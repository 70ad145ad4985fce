package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"
)

// The changes that make a §146a (4) AO registration due within a month
// (docs/FISCAL.md, "Registration with the tax office"): a register or a
// TSE put into or out of service.
const (
	RegisterInService    = "register_in_service"
	RegisterOutOfService = "register_out_of_service"
	TSEInService         = "tse_in_service"
	TSEOutOfService      = "tse_out_of_service"
)

// RegistrationChange is one change that makes a registration due.
type RegistrationChange struct {
	ID           string
	Change       string // RegisterInService, ...
	Subject      string // the register's client serial, the TSE's serial ("" when no TSE is known)
	On           string // the change's date (local, YYYY-MM-DD)
	DueOn        string // RegistrationDeadline(On)
	CreatedAt    time.Time
	SubmissionID string // "" while open
}

// registrationDuePayload is the registration_due event's data.
type registrationDuePayload struct {
	Change  string `json:"change"`
	Subject string `json:"subject"`
	Date    string `json:"date"`
	DueBy   string `json:"due_by"`
}

// RegistrationDeadline is the last day to report a change on date on:
// one month later, the same day of the month or, when the month has no
// such day, its last (§ 108 (1) AO with § 188 (2), (3) BGB). A deadline
// on a weekend or holiday moves to the next working day (§ 108 (3) AO);
// posbox names the earlier day, which is never too late.
func RegistrationDeadline(on string) string {
	d, err := time.Parse(DateFormat, on)
	if err != nil {
		return on
	}
	next := time.Date(d.Year(), d.Month()+1, 1, 0, 0, 0, 0, time.UTC)
	last := next.AddDate(0, 1, -1).Day()
	return time.Date(next.Year(), next.Month(), min(d.Day(), last), 0, 0, 0, 0, time.UTC).Format(DateFormat)
}

// restaurantToday is the restaurant's date at the transaction's instant.
func restaurantToday(ctx context.Context, tx *Tx, restaurantID string) (string, error) {
	var tz string
	if err := tx.QueryRowContext(ctx, `SELECT timezone FROM restaurants WHERE id = ?`, restaurantID).Scan(&tz); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return "", NotFound("restaurant")
		}
		return "", err
	}
	return tx.Now.In((&Restaurant{Timezone: tz}).Location()).Format(DateFormat), nil
}

// recordRegistrationChange records a change and raises its
// registration_due event, once: the same open change (kind, subject,
// date) recorded again is ignored by the unique index.
func recordRegistrationChange(ctx context.Context, tx *Tx, restaurantID, change, subject, on string) error {
	due := RegistrationDeadline(on)
	res, err := tx.ExecContext(ctx, `INSERT INTO registration_changes (id, restaurant_id, change, subject, on_date, due_on, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, NewID(), restaurantID, change, subject, on, due, tx.NowText())
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return err
	}
	_, err = InsertEvent(ctx, tx, restaurantID, EventRegistrationDue, registrationDuePayload{change, subject, on, due})
	return err
}

// knownInService is what registration_known holds of one subject.
type knownInService struct {
	in, out string
	found   bool
}

func readKnown(ctx context.Context, tx *Tx, restaurantID, kind, subject string) (knownInService, error) {
	var in, out sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT in_service_on, out_of_service_on FROM registration_known
		WHERE restaurant_id = ? AND kind = ? AND subject = ?`, restaurantID, kind, subject).Scan(&in, &out)
	if errors.Is(err, sql.ErrNoRows) {
		return knownInService{}, nil
	}
	return knownInService{in.String, out.String, err == nil}, err
}

func writeKnown(ctx context.Context, tx *Tx, restaurantID, kind, subject, in, out string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO registration_known (restaurant_id, kind, subject, in_service_on, out_of_service_on, seen_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (restaurant_id, kind, subject) DO UPDATE SET in_service_on = excluded.in_service_on,
		out_of_service_on = excluded.out_of_service_on`, restaurantID, kind, subject, nullStr(in), nullStr(out), tx.NowText())
	return err
}

// noteRegisterChanges compares the registers being saved with what is
// known in service, inside the save's transaction: a new register, a
// changed date in service (in_service_on, else acquired_on) or a new date
// out of service is a change. A register without either date is in
// service today. Other fields (brand, model, ...) change nothing to
// report here. A register removed from the list is not out of service.
func noteRegisterChanges(ctx context.Context, tx *Tx, restaurantID string, regs []FiscalRegister) error {
	today := ""
	for _, r := range regs {
		k, err := readKnown(ctx, tx, restaurantID, "register", r.ClientSerial)
		if err != nil {
			return err
		}
		in := r.InServiceOn
		if in == "" {
			in = r.AcquiredOn
		}
		if !k.found || (in != "" && in != k.in) {
			on := in
			if on == "" {
				if today == "" {
					if today, err = restaurantToday(ctx, tx, restaurantID); err != nil {
						return err
					}
				}
				on = today
			}
			if err := recordRegistrationChange(ctx, tx, restaurantID, RegisterInService, r.ClientSerial, on); err != nil {
				return err
			}
		}
		if r.DecommissionedOn != "" && r.DecommissionedOn != k.out {
			if err := recordRegistrationChange(ctx, tx, restaurantID, RegisterOutOfService, r.ClientSerial, r.DecommissionedOn); err != nil {
				return err
			}
		}
		if !k.found || in != k.in || r.DecommissionedOn != k.out {
			if err := writeKnown(ctx, tx, restaurantID, "register", r.ClientSerial, in, r.DecommissionedOn); err != nil {
				return err
			}
		}
	}
	return nil
}

// currentTSE is the TSE known in service most recently ("" for none).
func currentTSE(ctx context.Context, tx *Tx, restaurantID string) (string, error) {
	var serial string
	err := tx.QueryRowContext(ctx, `SELECT subject FROM registration_known WHERE restaurant_id = ? AND kind = 'tse'
		ORDER BY out_of_service_on IS NOT NULL, seen_at DESC, rowid DESC LIMIT 1`, restaurantID).Scan(&serial)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return serial, err
}

// noteTSEDates compares the TSE's dates the owner saves with the ones
// saved before: a new date in or out of service is a change of the TSE
// known in service.
func noteTSEDates(ctx context.Context, tx *Tx, restaurantID string, in, out string) error {
	var oldIn, oldOut sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT tse_in_service_on, tse_out_of_service_on FROM fiscal_master_data WHERE restaurant_id = ?`,
		restaurantID).Scan(&oldIn, &oldOut)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if (in == "" || in == oldIn.String) && (out == "" || out == oldOut.String) {
		return nil
	}
	serial, err := currentTSE(ctx, tx, restaurantID)
	if err != nil {
		return err
	}
	if in != "" && in != oldIn.String {
		if err := recordRegistrationChange(ctx, tx, restaurantID, TSEInService, serial, in); err != nil {
			return err
		}
	}
	if out != "" && out != oldOut.String {
		if err := recordRegistrationChange(ctx, tx, restaurantID, TSEOutOfService, serial, out); err != nil {
			return err
		}
	}
	if serial == "" {
		return nil
	}
	k, err := readKnown(ctx, tx, restaurantID, "tse", serial)
	if err != nil {
		return err
	}
	return writeKnown(ctx, tx, restaurantID, "tse", serial, cmpOr(in, k.in), cmpOr(out, k.out))
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// NoteTSE tells the change detector the serial of the certified TSS the
// box signs with now, whatever put it there (setup, a replacement). A
// serial not known before is a TSE put into service today, and every
// other TSE known in service is out of service today. A known serial
// changes nothing, so this may be called as often as the TSS is read.
// The simulator is no TSE and must never be passed here.
func (s *Store) NoteTSE(ctx context.Context, restaurantID, serial string) error {
	if serial == "" {
		return Invalid("serial", FRequired, "missing or empty")
	}
	return s.write(ctx, func(tx *Tx) error {
		k, err := readKnown(ctx, tx, restaurantID, "tse", serial)
		if err != nil || k.found {
			return err
		}
		today, err := restaurantToday(ctx, tx, restaurantID)
		if err != nil {
			return err
		}
		old, err := queryAll(ctx, tx, func(sc scanner) (string, error) {
			var v string
			return v, sc.Scan(&v)
		}, `SELECT subject FROM registration_known WHERE restaurant_id = ? AND kind = 'tse' AND out_of_service_on IS NULL`, restaurantID)
		if err != nil {
			return err
		}
		for _, o := range old {
			if err := recordRegistrationChange(ctx, tx, restaurantID, TSEOutOfService, o, today); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE registration_known SET out_of_service_on = ? WHERE restaurant_id = ? AND kind = 'tse'
				AND subject = ?`, today, restaurantID, o); err != nil {
				return err
			}
		}
		if err := writeKnown(ctx, tx, restaurantID, "tse", serial, today, ""); err != nil {
			return err
		}
		return recordRegistrationChange(ctx, tx, restaurantID, TSEInService, serial, today)
	})
}

func scanRegistrationChange(sc scanner) (RegistrationChange, error) {
	var c RegistrationChange
	var created string
	var sub sql.NullString
	err := sc.Scan(&c.ID, &c.Change, &c.Subject, &c.On, &c.DueOn, &created, &sub)
	c.CreatedAt, c.SubmissionID = ParseTime(created), sub.String
	return c, err
}

// OpenRegistrationChanges lists the changes no submission covers yet,
// the earliest deadline first.
func (s *Store) OpenRegistrationChanges(ctx context.Context, restaurantID string) ([]RegistrationChange, error) {
	return queryAll(ctx, s.rdb, scanRegistrationChange, `SELECT id, change, subject, on_date, due_on, created_at, submission_id
		FROM registration_changes WHERE restaurant_id = ? AND submission_id IS NULL ORDER BY due_on, created_at, id`, restaurantID)
}

// RegistrationSubmission is a registration the owner marked as
// submitted, with the file posbox made then (kept unchanged as proof).
type RegistrationSubmission struct {
	ID          string
	SubmittedOn string
	File        string // empty in lists
	SHA256      string
	CreatedBy   string
	CreatedAt   time.Time
	Changes     []RegistrationChange // the changes it covers
}

// SubmitRegistration keeps file as the registration submitted on
// submittedOn (a local date, not in the future) and marks every open
// change as covered by it.
func (s *Store) SubmitRegistration(ctx context.Context, restaurantID, submittedOn, file, by string) (*RegistrationSubmission, error) {
	d, err := time.Parse(DateFormat, submittedOn)
	if err != nil {
		return nil, Invalid("submitted_on", FNotDate, "must be a date YYYY-MM-DD")
	}
	sum := sha256.Sum256([]byte(file))
	sub := &RegistrationSubmission{ID: NewID(), SubmittedOn: d.Format(DateFormat), SHA256: hex.EncodeToString(sum[:]), CreatedBy: by}
	err = s.write(ctx, func(tx *Tx) error {
		today, err := restaurantToday(ctx, tx, restaurantID)
		if err != nil {
			return err
		}
		if sub.SubmittedOn > today {
			return Invalid("submitted_on", FInFuture, "must not be in the future")
		}
		sub.CreatedAt = tx.Now
		if _, err := tx.ExecContext(ctx, `INSERT INTO registration_submissions (id, restaurant_id, submitted_on, file, sha256, created_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, sub.ID, restaurantID, sub.SubmittedOn, file, sub.SHA256, by, tx.NowText()); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE registration_changes SET submission_id = ? WHERE restaurant_id = ? AND submission_id IS NULL`,
			sub.ID, restaurantID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.RegistrationSubmission(ctx, restaurantID, sub.ID)
}

// RegistrationSubmissions lists the submissions, newest first, without
// their files.
func (s *Store) RegistrationSubmissions(ctx context.Context, restaurantID string) ([]RegistrationSubmission, error) {
	list, err := queryAll(ctx, s.rdb, func(sc scanner) (RegistrationSubmission, error) {
		var r RegistrationSubmission
		var created string
		err := sc.Scan(&r.ID, &r.SubmittedOn, &r.SHA256, &r.CreatedBy, &created)
		r.CreatedAt = ParseTime(created)
		return r, err
	}, `SELECT id, submitted_on, sha256, created_by, created_at FROM registration_submissions WHERE restaurant_id = ?
		ORDER BY created_at DESC, id DESC`, restaurantID)
	if err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].Changes, err = s.submissionChanges(ctx, list[i].ID); err != nil {
			return nil, err
		}
	}
	return list, nil
}

func (s *Store) submissionChanges(ctx context.Context, id string) ([]RegistrationChange, error) {
	return queryAll(ctx, s.rdb, scanRegistrationChange, `SELECT id, change, subject, on_date, due_on, created_at, submission_id
		FROM registration_changes WHERE submission_id = ? ORDER BY on_date, created_at, id`, id)
}

// RegistrationSubmission is one submission with its file.
func (s *Store) RegistrationSubmission(ctx context.Context, restaurantID, id string) (*RegistrationSubmission, error) {
	var r RegistrationSubmission
	var created string
	err := s.rdb.QueryRowContext(ctx, `SELECT id, submitted_on, file, sha256, created_by, created_at FROM registration_submissions
		WHERE restaurant_id = ? AND id = ?`, restaurantID, id).Scan(&r.ID, &r.SubmittedOn, &r.File, &r.SHA256, &r.CreatedBy, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("registration submission")
	}
	if err != nil {
		return nil, err
	}
	r.CreatedAt = ParseTime(created)
	if r.Changes, err = s.submissionChanges(ctx, id); err != nil {
		return nil, err
	}
	return &r, nil
}
