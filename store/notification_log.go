package store

import (
	"context"
	"database/sql"
	"time"
)

// Log entry states: the outcome of one attempt.
const (
	LogDelivered = "delivered"
	LogFailed    = "failed"
)

// Limits of a notification log listing.
const (
	DefaultLogLimit = 50
	MaxLogLimit     = 200
)

// NotificationLog is one delivery attempt or test send. SettingID and
// DeliveryID are nil for a test send.
type NotificationLog struct {
	ID           string
	RestaurantID string
	SettingID    *string
	DeliveryID   *string
	Channel      string
	EventType    string
	Destination  string
	Status       string
	Error        *string // nil when delivered
	Message      *string // readable summary of what was sent
	Attempt      int     // 1-based
	Temporary    bool    // the failure was called transient by the far side
	SentAt       time.Time
}

// InsertNotificationLog records a test send (or any attempt outside the
// queue); ID and SentAt are set here.
func (s *Store) InsertNotificationLog(ctx context.Context, l *NotificationLog) error {
	return s.write(ctx, func(tx *Tx) error { return insertLog(ctx, tx, l) })
}

func insertLog(ctx context.Context, tx *Tx, l *NotificationLog) error {
	l.ID = NewID()
	if l.SentAt.IsZero() {
		l.SentAt = tx.Now
	}
	if l.Attempt == 0 {
		l.Attempt = 1
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO notification_logs (id, restaurant_id, setting_id, delivery_id, channel,
		event_type, destination, status, error, message, attempt, temporary, sent_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		l.ID, l.RestaurantID, l.SettingID, l.DeliveryID, l.Channel, l.EventType, l.Destination, l.Status,
		l.Error, l.Message, l.Attempt, l.Temporary, FormatTime(l.SentAt))
	return err
}

// NotificationLogs lists a restaurant's most recent log entries first, at
// most limit (clamped to 1..MaxLogLimit).
func (s *Store) NotificationLogs(ctx context.Context, restaurantID string, limit int) ([]*NotificationLog, error) {
	limit = min(max(limit, 1), MaxLogLimit)
	rows, err := s.rs.QueryContext(ctx, `SELECT id, restaurant_id, setting_id, delivery_id, channel, event_type,
		destination, status, error, message, attempt, temporary, sent_at FROM notification_logs
		WHERE restaurant_id = ? ORDER BY sent_at DESC, id DESC LIMIT ?`, restaurantID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*NotificationLog{}
	for rows.Next() {
		var l NotificationLog
		var setting, delivery, errText, msg sql.NullString
		var sent string
		if err := rows.Scan(&l.ID, &l.RestaurantID, &setting, &delivery, &l.Channel, &l.EventType, &l.Destination,
			&l.Status, &errText, &msg, &l.Attempt, &l.Temporary, &sent); err != nil {
			return nil, err
		}
		l.SettingID, l.DeliveryID = nullString(setting), nullString(delivery)
		l.Error, l.Message, l.SentAt = nullString(errText), nullString(msg), ParseTime(sent)
		out = append(out, &l)
	}
	return out, rows.Err()
}

// TestSend is the outcome of a test send: its log row and, for a webhook
// no rule sends to, the secret it was signed with (made for the test).
type TestSend struct {
	Log       *NotificationLog
	NewSecret string
}
