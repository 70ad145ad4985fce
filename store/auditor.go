package store

import (
	"context"
	"time"
)

// The tax office's auditor (GoBD Z1, the Kassennachschau; docs/FISCAL.md,
// "The auditor's access"): a user of role auditor reads the fiscal records
// only, logs in with email and password like an admin, has no till login,
// and only until ValidUntil, the last day of the access in the
// restaurant's timezone. The server refuses everything else; the
// database holds the shape (migration 00028's CHECKs).

// MaxAuditorDays bounds how far ahead an auditor's last day may lie, so
// a forgotten access does not linger: a year covers an Außenprüfung.
const MaxAuditorDays = 366

// AuditorValid reports whether u may use its access at now: an
// auditor's last day in loc has not passed. Every other role is valid.
func (u *User) AuditorValid(now time.Time, loc *time.Location) bool {
	return u.Role != RoleAuditor || now.In(loc).Format(DateFormat) <= u.ValidUntil
}

// validateAuditor checks what the role auditor asks of a user and what
// only it may have.
func (u *User) validateAuditor(f *Fields) {
	if u.Role != RoleAuditor {
		if u.ValidUntil != "" {
			f.Add("valid_until", FNotAllowed, "only an auditor's access has a last day")
		}
		return
	}
	if u.Email == "" {
		f.Add("email", FRequired, "is required for an auditor")
	}
	if u.HasPIN() {
		f.Add("pin", FNotAllowed, "an auditor logs in with email and password, not a PIN")
	}
	if u.StaffNumber != "" {
		f.Add("staff_number", FNotAllowed, "an auditor has no staff number")
	}
	if u.ValidUntil == "" {
		f.Add("valid_until", FRequired, "is required for an auditor: the last day of the access")
	} else if _, err := time.Parse(DateFormat, u.ValidUntil); err != nil {
		f.Add("valid_until", FNotDate, "must be a date YYYY-MM-DD")
	}
}

// checkValidUntil bounds an auditor's new last day (before is the stored
// one; an unchanged day is not checked again, so an ended access can still
// be renamed): from yesterday, which ends the access at once, to
// MaxAuditorDays ahead of the restaurant's today.
func (s *Store) checkValidUntil(ctx context.Context, f *Fields, u *User, before string) error {
	if u.Role != RoleAuditor || u.ValidUntil == before {
		return nil
	}
	d, err := time.Parse(DateFormat, u.ValidUntil)
	if err != nil {
		return nil // validateAuditor said so
	}
	r, err := s.AuthRestaurant(ctx, u.RestaurantID)
	if IsNotFound(err) {
		return nil // the insert's foreign key refuses it
	}
	if err != nil {
		return err
	}
	n := s.Now().In(r.Location())
	today := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC)
	lo, hi := today.AddDate(0, 0, -1), today.AddDate(0, 0, MaxAuditorDays)
	if d.Before(lo) || d.After(hi) {
		f.Add("valid_until", FOutOfRange, "must be from yesterday (ends the access now) to a year ahead",
			"min", lo.Format(DateFormat), "max", hi.Format(DateFormat))
	}
	return nil
}

// applyValidUntil sets the update's last day; a user who stops being an
// auditor loses it.
func (upd UserUpdate) applyValidUntil(u *User) {
	switch v := upd.ValidUntil; {
	case v.Set && v.Null:
		u.ValidUntil = ""
	case v.Set:
		u.ValidUntil = v.Value
	case u.Role != RoleAuditor:
		u.ValidUntil = ""
	}
}
