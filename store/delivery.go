package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"
)

// Delivery states. pending and in_flight are live; the rest are final.
const (
	DeliveryPending   = "pending"
	DeliveryInFlight  = "in_flight"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
	DeliveryCancelled = "cancelled"
)

// Delivery is one (event, rule) pair in the durable queue.
type Delivery struct {
	ID            string
	RestaurantID  string
	EventID       string
	SettingID     string
	WebhookID     string
	Status        string
	Attempts      int
	NextAttemptAt time.Time
	LastError     *string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// queueDeliveries writes one pending delivery per rule (the enabled rules
// of the event's restaurant and type), inside the event's transaction,
// and asks for a dispatcher nudge once it commits.
func queueDeliveries(ctx context.Context, tx *Tx, e *Event, rules []string) error {
	now := tx.NowText()
	for _, rule := range rules {
		id := NewID()
		if _, err := tx.ExecContext(ctx, `INSERT INTO notification_deliveries
			(id, restaurant_id, event_id, setting_id, webhook_id, status, attempts, next_attempt_at, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
			id, e.RestaurantID, e.ID, rule, WebhookID(id), now, now, now); err != nil {
			return err
		}
	}
	if len(rules) > 0 && tx.st != nil {
		tx.afterCommit = append(tx.afterCommit, tx.st.nudge)
	}
	return nil
}

// WebhookID is the Standard Webhooks message id of a delivery: no dots,
// not user-controlled, the same on every retry.
func WebhookID(deliveryID string) string { return "msg_" + strings.ReplaceAll(deliveryID, "-", "") }

// nudge wakes a waiting dispatcher without ever blocking a writer.
func (s *Store) nudge() {
	select {
	case s.queued <- struct{}{}:
	default:
	}
}

// DeliveriesQueued receives a value after a commit queued deliveries; a
// dispatcher waits on it besides its periodic poll.
func (s *Store) DeliveriesQueued() <-chan struct{} { return s.queued }

const deliveryCols = `id, restaurant_id, event_id, setting_id, webhook_id, status, attempts, next_attempt_at, last_error, created_at, updated_at`

func scanDelivery(sc scanner) (*Delivery, error) {
	var d Delivery
	var next, created, updated string
	var lastErr sql.NullString
	if err := sc.Scan(&d.ID, &d.RestaurantID, &d.EventID, &d.SettingID, &d.WebhookID, &d.Status, &d.Attempts,
		&next, &lastErr, &created, &updated); err != nil {
		return nil, err
	}
	d.NextAttemptAt, d.CreatedAt, d.UpdatedAt = ParseTime(next), ParseTime(created), ParseTime(updated)
	d.LastError = nullString(lastErr)
	return &d, nil
}

// DeliverySpread makes a claim take at most one delivery per rule and
// none of the rules in Busy (the dispatcher is sending to them already):
// a receiver that hangs then holds one of the dispatcher's workers, never
// all of them, and a rule's deliveries still go out in order.
type DeliverySpread struct {
	Busy []string // setting ids
}

// ClaimDeliveries moves at most limit pending deliveries due at now to
// in_flight and returns them, oldest due first; spread (nil: none) limits
// which. One statement in one immediate transaction: two dispatchers
// never claim the same row.
func (s *Store) ClaimDeliveries(ctx context.Context, now time.Time, limit int, spread *DeliverySpread) ([]*Delivery, error) {
	// A cheap look on the reader first: an idle poll never takes the
	// writer connection from a sale.
	var due bool
	if err := s.rs.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM notification_deliveries
		WHERE status = 'pending' AND next_attempt_at <= ?)`, FormatTime(now)).Scan(&due); err != nil || !due {
		return nil, err
	}
	pick, args := claimPick(spread)
	var out []*Delivery
	err := s.write(ctx, func(tx *Tx) error {
		rows, err := tx.QueryContext(ctx, `UPDATE notification_deliveries SET status = 'in_flight', updated_at = ?
			WHERE id IN (`+pick+`)
			RETURNING `+deliveryCols, append(append([]any{FormatTime(tx.Now), FormatTime(now)}, args...), limit)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			d, err := scanDelivery(rows)
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	// RETURNING gives no order; keep the claim order for fairness.
	slices.SortFunc(out, func(a, b *Delivery) int {
		if c := a.NextAttemptAt.Compare(b.NextAttemptAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// claimPick is the query of the ids a claim takes, oldest due first; its
// parameters are the due time, then args, then the limit.
func claimPick(spread *DeliverySpread) (query string, args []any) {
	if spread == nil {
		return `SELECT id FROM notification_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
				ORDER BY next_attempt_at, id LIMIT ?`, nil
	}
	skip := ""
	if busy := spread.Busy; len(busy) > 0 {
		skip = ` AND setting_id NOT IN (?` + strings.Repeat(`, ?`, len(busy)-1) + `)`
		for _, b := range busy {
			args = append(args, b)
		}
	}
	return `SELECT id FROM (
				SELECT id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY setting_id ORDER BY next_attempt_at, id) AS n
				FROM notification_deliveries WHERE status = 'pending' AND next_attempt_at <= ?` + skip + `)
				WHERE n = 1 ORDER BY next_attempt_at, id LIMIT ?`, args
}

// RequeueInFlight puts deliveries left in_flight (by a crash) back to
// pending; the dispatcher calls it once at start.
func (s *Store) RequeueInFlight(ctx context.Context) (int, error) {
	var n int64
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE notification_deliveries SET status = 'pending', updated_at = ?
			WHERE status = 'in_flight'`, FormatTime(tx.Now))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// ReleaseDelivery hands a claimed delivery back unattempted (shutdown).
func (s *Store) ReleaseDelivery(ctx context.Context, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE notification_deliveries SET status = 'pending', updated_at = ?
			WHERE id = ? AND status = 'in_flight'`, FormatTime(tx.Now), id)
		return err
	})
}

// CancelDelivery ends a claimed or pending delivery without sending it,
// e.g. because its rule was disabled or deleted meanwhile.
func (s *Store) CancelDelivery(ctx context.Context, id, reason string) error {
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE notification_deliveries SET status = 'cancelled', last_error = ?, updated_at = ?
			WHERE id = ? AND status IN ('pending', 'in_flight')`, reason, FormatTime(tx.Now), id)
		return err
	})
}

// cancelDeliveries ends a rule's pending deliveries; in_flight ones are
// dropped by the dispatcher when it re-reads the rule.
func cancelDeliveries(ctx context.Context, tx *Tx, settingID, reason string) error {
	_, err := tx.ExecContext(ctx, `UPDATE notification_deliveries SET status = 'cancelled', last_error = ?, updated_at = ?
		WHERE setting_id = ? AND status = 'pending'`, reason, FormatTime(tx.Now), settingID)
	return err
}

// Attempt is the outcome of one send of a claimed delivery.
type Attempt struct {
	Log *NotificationLog // the attempt's log entry (ID and SentAt are set here)
	// Retry at this instant; zero means the outcome is final.
	RetryAt time.Time
}

// CompleteAttempt records one attempt of a claimed delivery: its log entry
// and the delivery's new state (delivered, failed, or pending again at
// RetryAt), in one transaction. A delivery no longer in flight keeps its
// state; the attempt is still logged.
func (s *Store) CompleteAttempt(ctx context.Context, d *Delivery, a Attempt) error {
	return s.write(ctx, func(tx *Tx) error {
		if err := insertLog(ctx, tx, a.Log); err != nil {
			return err
		}
		status, next := DeliveryDelivered, d.NextAttemptAt
		switch {
		case a.Log.Status == LogDelivered:
		case !a.RetryAt.IsZero():
			status, next = DeliveryPending, a.RetryAt
		default:
			status = DeliveryFailed
		}
		_, err := tx.ExecContext(ctx, `UPDATE notification_deliveries SET status = ?, attempts = ?, next_attempt_at = ?,
			last_error = ?, updated_at = ? WHERE id = ? AND status = 'in_flight'`,
			status, a.Log.Attempt, FormatTime(next), a.Log.Error, FormatTime(tx.Now), d.ID)
		return err
	})
}

// Delivery finds one delivery by id.
func (s *Store) Delivery(ctx context.Context, id string) (*Delivery, error) {
	d, err := scanDelivery(s.rs.QueryRowContext(ctx, `SELECT `+deliveryCols+` FROM notification_deliveries WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("delivery")
	}
	return d, err
}

// ValidDeliveryStatus reports whether s names a delivery state.
func ValidDeliveryStatus(s string) bool {
	switch s {
	case DeliveryPending, DeliveryInFlight, DeliveryDelivered, DeliveryFailed, DeliveryCancelled:
		return true
	}
	return false
}

// DeliveryView is a delivery with its event's type, for the admin's view
// of the queue.
type DeliveryView struct {
	Delivery
	EventType string
}

// RecentDeliveries lists a restaurant's deliveries in one status (all when
// status is ""), newest first, at most limit.
func (s *Store) RecentDeliveries(ctx context.Context, restaurantID, status string, limit int) ([]*DeliveryView, error) {
	rows, err := s.rs.QueryContext(ctx, `SELECT e.type, d.id, d.restaurant_id, d.event_id, d.setting_id, d.webhook_id,
		d.status, d.attempts, d.next_attempt_at, d.last_error, d.created_at, d.updated_at
		FROM notification_deliveries d JOIN events e ON e.id = d.event_id
		WHERE d.restaurant_id = ? AND (? = '' OR d.status = ?) ORDER BY d.created_at DESC, d.id DESC LIMIT ?`,
		restaurantID, status, status, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*DeliveryView{}
	for rows.Next() {
		var v DeliveryView
		var typ string
		d, err := scanDelivery(prefixScanner{rows, &typ})
		if err != nil {
			return nil, err
		}
		v.Delivery, v.EventType = *d, typ
		out = append(out, &v)
	}
	return out, rows.Err()
}

// prefixScanner scans one extra leading column into first.
type prefixScanner struct {
	sc    scanner
	first *string
}

func (p prefixScanner) Scan(dest ...any) error { return p.sc.Scan(append([]any{p.first}, dest...)...) }

// Deliveries lists a restaurant's deliveries in one status (all when
// status is ""), oldest first.
func (s *Store) Deliveries(ctx context.Context, restaurantID, status string) ([]*Delivery, error) {
	return queryAll(ctx, s.rs, scanDelivery, `SELECT `+deliveryCols+` FROM notification_deliveries
		WHERE restaurant_id = ? AND (? = '' OR status = ?) ORDER BY created_at, id`, restaurantID, status, status)
}

// DeliveryRule is a delivery's rule as it is now, for the dispatcher's
// re-read at send time; not_found when the rule was deleted.
func (s *Store) DeliveryRule(ctx context.Context, d *Delivery) (*NotificationSetting, error) {
	return getSetting(ctx, s.rs, d.RestaurantID, d.SettingID)
}

// DeliveryCounts is what the console's dashboard says about notifications.
type DeliveryCounts struct {
	FailedSince int // deliveries that gave up since the instant asked for
	Queued      int // pending or in flight
}

const countDeliveriesSQL = `SELECT
	(SELECT count(*) FROM notification_deliveries WHERE restaurant_id = ? AND status = 'failed' AND updated_at >= ?),
	(SELECT count(*) FROM notification_deliveries WHERE restaurant_id = ? AND status IN ('pending', 'in_flight'))`

// CountDeliveries counts a restaurant's deliveries that failed for good
// since since, and those still queued.
func (s *Store) CountDeliveries(ctx context.Context, restaurantID string, since time.Time) (DeliveryCounts, error) {
	var c DeliveryCounts
	// Two ranges on notification_deliveries_restaurant_status (migration
	// 00019), not a pass over every delivery the box ever made: a
	// delivery that gave up keeps its status and updated_at for good.
	err := s.rs.QueryRowContext(ctx, countDeliveriesSQL, restaurantID, FormatTime(since), restaurantID).Scan(&c.FailedSince, &c.Queued)
	return c, err
}
