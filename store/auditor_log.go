package store

import (
	"context"
	"time"
	"unicode/utf8"
)

// AuditorRequest is one request of an auditor, allowed or refused, as
// the append-only auditor_requests keeps it (migration 00028: triggers
// refuse UPDATE and DELETE). Name and email are the auditor's at the
// time, a copy of their own.
type AuditorRequest struct {
	Seq          int64
	RestaurantID string
	UserID       string
	UserName     string
	UserEmail    string
	At           time.Time
	Method       string
	// Target is the path with its query, cut to MaxAuditorTarget bytes.
	Target string
	Status int
}

// MaxAuditorTarget bounds a logged path and query (a URL is bounded by
// the server's header limit, not by this table).
const MaxAuditorTarget = 2048

// Limits of one page of the log.
const (
	DefaultAuditorLogLimit = 100
	MaxAuditorLogLimit     = 500
)

// RecordAuditorRequest appends one row through the group commit and
// returns once it is durable: the server answers the auditor only then.
func (s *Store) RecordAuditorRequest(ctx context.Context, u *User, method, target string, status int) error {
	if len(target) > MaxAuditorTarget {
		target = target[:MaxAuditorTarget]
		for !utf8.ValidString(target) {
			target = target[:len(target)-1]
		}
	}
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO auditor_requests (restaurant_id, user_id, user_name, user_email, at, method, target, status)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, u.RestaurantID, u.ID, u.Name, u.Email, FormatTime(tx.Now), method, target, status)
		return err
	})
}

// AuditorRequests is one page of a restaurant's log, newest first:
// up to limit rows with a seq below before (0: from the newest).
func (s *Store) AuditorRequests(ctx context.Context, restaurantID string, before int64, limit int) ([]*AuditorRequest, error) {
	if before <= 0 {
		before = 1 << 62
	}
	return queryAll(ctx, s.rs, func(row scanner) (*AuditorRequest, error) {
		var r AuditorRequest
		var at string
		err := row.Scan(&r.Seq, &r.RestaurantID, &r.UserID, &r.UserName, &r.UserEmail, &at, &r.Method, &r.Target, &r.Status)
		r.At = ParseTime(at)
		return &r, err
	}, `SELECT seq, restaurant_id, user_id, user_name, user_email, at, method, target, status FROM auditor_requests
		WHERE restaurant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`, restaurantID, before, min(max(limit, 1), MaxAuditorLogLimit))
}
