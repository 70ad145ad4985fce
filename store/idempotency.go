package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// EIdempotencyKeyReused: the same Idempotency-Key came with a different request.
const EIdempotencyKeyReused = "idempotency_key_reused"

// Idempotency scopes: one per kind of request, so the same key sent
// with a sale and with a redemption names two different requests.
const (
	IdemTSESale        = "tse_sale"
	IdemDiscountRedeem = "discount_redeem"
)

// IdempotencyRetention is how long a key is remembered; the daily purge
// removes older ones, after which the same key is a new request. A week
// covers a till switched off over a closed weekend or holiday that resends
// its unanswered requests when it comes back.
const IdempotencyRetention = 7 * 24 * time.Hour

// IdempotencyKey is one use of an Idempotency-Key header. Keys are scoped
// per restaurant (any user of it: a retry after a re-login or a handover
// at the till is still the same request) and per kind of request (Scope).
type IdempotencyKey struct {
	RestaurantID string
	Scope        string
	Key          string
	RequestHash  string // of the validated request, path ids included
}

// IdempotentReplay is what a key remembers of its first request.
type IdempotentReplay struct {
	ResourceID string // what the first request made (tx id, redemption id)
	Status     int    // 0 while the first request is still being answered
	Response   []byte // the first answer's body
}

// lookupIdempotency finds k inside a write transaction: not_found for a
// new key, EIdempotencyKeyReused when it came with another request before.
// The caller records the key with insertIdempotency in the same
// transaction; the single writer makes look-up and insert one step, and
// the primary key would refuse a second row anyway.
func lookupIdempotency(ctx context.Context, q queryer, k IdempotencyKey) (*IdempotentReplay, error) {
	var hash string
	var r IdempotentReplay
	var status sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT request_hash, resource_id, status, response FROM idempotency_keys
		WHERE restaurant_id = ? AND scope = ? AND key = ?`, k.RestaurantID, k.Scope, k.Key).Scan(&hash, &r.ResourceID, &status, &r.Response)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, NotFound("idempotency key")
	case err != nil:
		return nil, err
	case hash != k.RequestHash:
		return nil, Errorf(EIdempotencyKeyReused, "this Idempotency-Key was already used for a different request")
	}
	r.Status = int(status.Int64)
	return &r, nil
}

// insertIdempotency records a new key with what its request made and,
// when already known, the answer (status 0: answered later through
// SetIdempotentResponse).
func insertIdempotency(ctx context.Context, tx *Tx, k IdempotencyKey, r IdempotentReplay) error {
	var status any
	var body any
	if r.Status != 0 {
		status, body = r.Status, r.Response
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO idempotency_keys (restaurant_id, scope, key, request_hash, resource_id,
		status, response, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		k.RestaurantID, k.Scope, k.Key, k.RequestHash, r.ResourceID, status, body, FormatTime(tx.Now))
	return err
}

// AnswerIdempotent records the answer of a key recorded without one and
// returns the answer the key now has: this one, or the one another
// request for the same key recorded first. Every request of one key thus
// gives the till the same answer.
func (s *Store) AnswerIdempotent(ctx context.Context, k IdempotencyKey, status int, body []byte) (*IdempotentReplay, error) {
	var r IdempotentReplay
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE idempotency_keys SET status = ?, response = ?
			WHERE restaurant_id = ? AND scope = ? AND key = ? AND status IS NULL`, status, body, k.RestaurantID, k.Scope, k.Key); err != nil {
			return err
		}
		var st sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT resource_id, status, response FROM idempotency_keys
			WHERE restaurant_id = ? AND scope = ? AND key = ?`, k.RestaurantID, k.Scope, k.Key).Scan(&r.ResourceID, &st, &r.Response)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("idempotency key")
		}
		r.Status = int(st.Int64)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// RedeemedBefore is the stored answer of a redemption whose key and
// request were seen before (nil when the key is new; 422
// idempotency_key_reused for another request), read outside the write
// transaction: a retry then gets its answer without a check that could
// have changed since, such as an admin's password (RedeemOnce decides
// again inside the transaction when the key is new).
func (s *Store) RedeemedBefore(ctx context.Context, k IdempotencyKey) (*IdempotentReplay, error) {
	k.Scope = IdemDiscountRedeem
	r, err := lookupIdempotency(ctx, s.rs, k)
	if IsNotFound(err) {
		return nil, nil
	}
	return r, err
}

// Idempotent reads what a key remembers (404 when it is unknown).
func (s *Store) Idempotent(ctx context.Context, k IdempotencyKey) (*IdempotentReplay, error) {
	var r IdempotentReplay
	var status sql.NullInt64
	err := s.rs.QueryRowContext(ctx, `SELECT resource_id, status, response FROM idempotency_keys
		WHERE restaurant_id = ? AND scope = ? AND key = ?`, k.RestaurantID, k.Scope, k.Key).Scan(&r.ResourceID, &status, &r.Response)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("idempotency key")
	}
	if err != nil {
		return nil, err
	}
	r.Status = int(status.Int64)
	return &r, nil
}

// PurgeIdempotencyKeys deletes the keys recorded more than
// IdempotencyRetention before now and returns how many went.
func (s *Store) PurgeIdempotencyKeys(ctx context.Context) (int64, error) {
	var n int64
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE created_at < ?`,
			FormatTime(tx.Now.Add(-IdempotencyRetention)))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}
