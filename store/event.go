package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// Event types the appliance raises itself.
const (
	EventShiftChange       = "shift_change"
	EventClockIn           = "clock_in"
	EventClockOut          = "clock_out"
	EventDiscountExhausted = "discount_exhausted"
	EventTSEError          = "tse_error"
	EventTSERecovered      = "tse_recovered"
	EventTSECertExpiring   = "tse_certificate_expiring"
	EventDailyReport       = "daily_report"
	// The time clock (docs/TIMECLOCK.md).
	EventLabourLawWarning     = "labour_law_warning"
	EventTimeEntryOpenTooLong = "time_entry_open_too_long"
	// Replication off the box (docs/REPLICATION.md, "Offline for days").
	EventReplicationStalled   = "replication_stalled"
	EventReplicationRecovered = "replication_recovered"
	// A register or the TSE put into or out of service: the tax office
	// must be told within a month (docs/FISCAL.md, §146a (4) AO).
	EventRegistrationDue = "registration_due"
)

// Event types the POS terminals post, named in the contract; a
// terminal's own names go under POSEventPrefix. Everything else is
// raised by posbox itself and cannot be posted from outside, so a till
// cannot send the owner a fake TSE alarm or daily report.
const (
	EventNewOrder        = "new_order"
	EventOrderCancelled  = "order_cancelled"
	EventPaymentReceived = "payment_received"
	EventLowStock        = "low_stock"
	POSEventPrefix       = "pos."
)

// EEventTypeReserved refuses a posted event of a type the POS may not post.
const EEventTypeReserved = "event_type_reserved"

// POSEventTypes are the contract's POS event types, in the docs' order.
var POSEventTypes = []string{EventNewOrder, EventOrderCancelled, EventPaymentReceived, EventLowStock}

// IsPOSEventType reports whether a POS terminal may post an event of type
// t: one of POSEventTypes, or a well-formed name under "pos.".
func IsPOSEventType(t string) bool {
	for _, p := range POSEventTypes {
		if t == p {
			return true
		}
	}
	return len(t) > len(POSEventPrefix) && t[:len(POSEventPrefix)] == POSEventPrefix && ValidEventType(t)
}

// ReservedEventType is the error for a posted event the POS may not raise.
func ReservedEventType(t string) error {
	e := Invalid("type", FReservedEvent, "is not an event the POS may post").(*Error)
	e.Code, e.Message = EEventTypeReserved, "only the POS's events can be posted: new_order, order_cancelled, payment_received, low_stock, or a name starting with pos."
	return e
}

// Event is something that happened, kept for notification delivery.
type Event struct {
	ID           string
	RestaurantID string
	Type         string
	Data         json.RawMessage
	CreatedAt    time.Time
}

// InsertEvent records an event inside tx, so it commits or vanishes with
// the change that caused it. It is the one place events are written;
// notification deliveries fan out from here.
func InsertEvent(ctx context.Context, tx *Tx, restaurantID, typ string, data any) (*Event, error) {
	e := &Event{ID: NewID(), RestaurantID: restaurantID, Type: typ, CreatedAt: tx.Now}
	rules, err := matchingRules(ctx, tx, restaurantID, typ) // writer_rules.go
	if err != nil {
		return nil, err
	}
	if len(rules) == 0 {
		// No enabled rule wants it: nothing would ever read the row (no
		// endpoint lists events; a rule made later does not deliver the
		// past), so it is neither encoded nor written. It was a third of
		// a clock-in's writes (docs/NOTIFICATIONS.md, "Event types and
		// payloads").
		return e, nil
	}
	if e.Data, err = json.Marshal(data); err != nil {
		return nil, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO events (id, restaurant_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)`,
		e.ID, e.RestaurantID, e.Type, string(e.Data), tx.NowText())
	if err != nil {
		return nil, err
	}
	// Every enabled rule of this restaurant and type gets a delivery in
	// this same transaction: no event is lost between commit and queue.
	if err := queueDeliveries(ctx, tx, e, rules); err != nil {
		return nil, err
	}
	return e, nil
}

// Event finds one event by id.
func (s *Store) Event(ctx context.Context, id string) (*Event, error) {
	var e Event
	var data, created string
	err := s.rs.QueryRowContext(ctx, `SELECT id, restaurant_id, type, data, created_at FROM events WHERE id = ?`, id).
		Scan(&e.ID, &e.RestaurantID, &e.Type, &data, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("event")
	}
	if err != nil {
		return nil, err
	}
	e.Data, e.CreatedAt = json.RawMessage(data), ParseTime(created)
	return &e, nil
}

// PublishEvent records an event on its own (one a terminal posts).
func (s *Store) PublishEvent(ctx context.Context, restaurantID, typ string, data any) (*Event, error) {
	var e *Event
	err := s.write(ctx, func(tx *Tx) (err error) {
		e, err = InsertEvent(ctx, tx, restaurantID, typ, data)
		return err
	})
	return e, err
}

// Events lists a restaurant's events of one type (all when typ is ""),
// newest first, at most limit.
func (s *Store) Events(ctx context.Context, restaurantID, typ string, limit int) ([]*Event, error) {
	rows, err := s.rs.QueryContext(ctx, `SELECT id, restaurant_id, type, data, created_at FROM events
		WHERE restaurant_id = ? AND (? = '' OR type = ?) ORDER BY created_at DESC, id DESC LIMIT ?`,
		restaurantID, typ, typ, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Event
	for rows.Next() {
		var e Event
		var data, created string
		if err := rows.Scan(&e.ID, &e.RestaurantID, &e.Type, &data, &created); err != nil {
			return nil, err
		}
		e.Data, e.CreatedAt = json.RawMessage(data), ParseTime(created)
		out = append(out, &e)
	}
	return out, rows.Err()
}
