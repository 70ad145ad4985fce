package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
	"unicode/utf8"
)

// MaxOwnerSectionLen is the longest of the owner's sections, in
// characters (a few printed pages each).
const MaxOwnerSectionLen = 20000

// OwnerSections are the parts of the procedure document only the owner
// can write (docs/FISCAL.md, "The procedure document"): how the business
// is organised, who operates the tills and how, how cash is counted, and
// the internal control system.
type OwnerSections struct {
	Organisation    string `json:"organisation"`
	TillOperation   string `json:"till_operation"`
	CashCounting    string `json:"cash_counting"`
	InternalControl string `json:"internal_control"`
}

// Validate checks each section's length and characters (line breaks and
// tabs are text here).
func (o OwnerSections) Validate() error {
	var f Fields
	for _, x := range []struct{ name, v string }{{"organisation", o.Organisation}, {"till_operation", o.TillOperation},
		{"cash_counting", o.CashCounting}, {"internal_control", o.InternalControl}} {
		if utf8.RuneCountInString(x.v) > MaxOwnerSectionLen {
			f.Add(x.name, FTooLong, "is too long", "max", MaxOwnerSectionLen)
		}
		if hasControl(x.v) {
			f.Add(x.name, FControlChars, "must not contain control characters")
		}
	}
	return f.Err()
}

// OwnerText is one saved version of the owner's sections.
type OwnerText struct {
	Version int64
	OwnerSections
	SavedBy     string // user id
	SavedByName string // the user's name now (pseudonymised once erased)
	SavedAt     time.Time
}

const ownerTextColumns = `t.version, t.organisation, t.till_operation, t.cash_counting, t.internal_control,
	t.saved_by, coalesce(u.name, ''), t.saved_at`

func scanOwnerText(sc scanner) (OwnerText, error) {
	var o OwnerText
	var at string
	if err := sc.Scan(&o.Version, &o.Organisation, &o.TillOperation, &o.CashCounting, &o.InternalControl, &o.SavedBy, &o.SavedByName, &at); err != nil {
		return o, err
	}
	o.SavedAt = ParseTime(at)
	return o, nil
}

// SaveOwnerText stores the owner's sections as the restaurant's next
// version; earlier versions stay as they were.
func (s *Store) SaveOwnerText(ctx context.Context, restaurantID, userID string, o OwnerSections) (*OwnerText, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	var out *OwnerText
	err := s.write(ctx, func(tx *Tx) error {
		var v int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) + 1 FROM procdoc_owner_texts WHERE restaurant_id = ?`,
			restaurantID).Scan(&v); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO procdoc_owner_texts (restaurant_id, version, organisation, till_operation,
			cash_counting, internal_control, saved_by, saved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, restaurantID, v,
			o.Organisation, o.TillOperation, o.CashCounting, o.InternalControl, userID, tx.NowText()); err != nil {
			return err
		}
		o, err := scanOwnerText(tx.QueryRowContext(ctx, `SELECT `+ownerTextColumns+` FROM procdoc_owner_texts t
			LEFT JOIN users u ON u.id = t.saved_by WHERE t.restaurant_id = ? AND t.version = ?`, restaurantID, v))
		out = &o
		return err
	})
	return out, err
}

// OwnerText is the restaurant's newest owner text; nil (and no error)
// before the first save.
func (s *Store) OwnerText(ctx context.Context, restaurantID string) (*OwnerText, error) {
	o, err := scanOwnerText(s.rdb.QueryRowContext(ctx, `SELECT `+ownerTextColumns+` FROM procdoc_owner_texts t
		LEFT JOIN users u ON u.id = t.saved_by WHERE t.restaurant_id = ? ORDER BY t.version DESC LIMIT 1`, restaurantID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &o, nil
}

// OwnerTexts is every saved version of the restaurant's owner text,
// newest first.
func (s *Store) OwnerTexts(ctx context.Context, restaurantID string) ([]OwnerText, error) {
	return queryAll(ctx, s.rdb, scanOwnerText, `SELECT `+ownerTextColumns+` FROM procdoc_owner_texts t
		LEFT JOIN users u ON u.id = t.saved_by WHERE t.restaurant_id = ? ORDER BY t.version DESC`, restaurantID)
}

// ProcDocVersion is one generated version of the procedure document:
// its content (JSON, as generated, never changed) and its SHA-256.
type ProcDocVersion struct {
	Version     int64
	SHA256      string
	Content     string // empty in a list of versions
	GeneratedAt time.Time
}

// RecordProcDocVersion returns the restaurant's newest version when its
// SHA-256 is sha, else stores content as the next version (generated
// now) and returns that. One write: two generations of the same content
// at once make one version.
func (s *Store) RecordProcDocVersion(ctx context.Context, restaurantID, sha, content string) (*ProcDocVersion, error) {
	var out *ProcDocVersion
	err := s.write(ctx, func(tx *Tx) error {
		v := ProcDocVersion{}
		var at string
		err := tx.QueryRowContext(ctx, `SELECT version, sha256, content, generated_at FROM procdoc_versions
			WHERE restaurant_id = ? ORDER BY version DESC LIMIT 1`, restaurantID).Scan(&v.Version, &v.SHA256, &v.Content, &at)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err == nil && v.SHA256 == sha {
			v.GeneratedAt = ParseTime(at)
			out = &v
			return nil
		}
		next := ProcDocVersion{Version: v.Version + 1, SHA256: sha, Content: content, GeneratedAt: tx.Now}
		if _, err := tx.ExecContext(ctx, `INSERT INTO procdoc_versions (restaurant_id, version, sha256, content, generated_at)
			VALUES (?, ?, ?, ?, ?)`, restaurantID, next.Version, sha, content, tx.NowText()); err != nil {
			return err
		}
		out = &next
		return nil
	})
	return out, err
}

// ProcDocVersions lists the restaurant's generated versions, newest
// first, without their content.
func (s *Store) ProcDocVersions(ctx context.Context, restaurantID string) ([]ProcDocVersion, error) {
	return queryAll(ctx, s.rdb, func(sc scanner) (ProcDocVersion, error) {
		var v ProcDocVersion
		var at string
		if err := sc.Scan(&v.Version, &v.SHA256, &at); err != nil {
			return v, err
		}
		v.GeneratedAt = ParseTime(at)
		return v, nil
	}, `SELECT version, sha256, generated_at FROM procdoc_versions WHERE restaurant_id = ? ORDER BY version DESC`, restaurantID)
}

// ProcDocVersionAt is the restaurant's version n with its content; a
// not_found error when there is none.
func (s *Store) ProcDocVersionAt(ctx context.Context, restaurantID string, n int64) (*ProcDocVersion, error) {
	v := ProcDocVersion{Version: n}
	var at string
	err := s.rdb.QueryRowContext(ctx, `SELECT sha256, content, generated_at FROM procdoc_versions WHERE restaurant_id = ? AND version = ?`,
		restaurantID, n).Scan(&v.SHA256, &v.Content, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("procedure document version")
	}
	if err != nil {
		return nil, err
	}
	v.GeneratedAt = ParseTime(at)
	return &v, nil
}
