package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"net/url"
	"regexp"
	"time"
)

// Notification channels.
const (
	ChannelEmail   = "email"
	ChannelSMS     = "sms"
	ChannelWebhook = "webhook"
)

// EventTest is the event type of a test send's log entry.
const EventTest = "test"

// NotificationSetting is a rule: events of one type go to a destination
// over a channel. Secret is the webhook signing key, "" for the others.
type NotificationSetting struct {
	ID           string
	RestaurantID string
	Channel      string
	EventType    string
	Destination  string
	IsEnabled    bool
	Secret       string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// NotificationSettingUpdate is a partial update of a rule.
type NotificationSettingUpdate struct {
	Channel     Field[string]
	EventType   Field[string]
	Destination Field[string]
	IsEnabled   Field[bool]
	// ChannelReady tells whether a channel is set up; an update that
	// enables a rule, or moves an enabled one, onto a channel that is not
	// is refused (channel_not_configured). nil: no check.
	ChannelReady func(channel string) bool
}

var (
	eventTypeRe = regexp.MustCompile(`^[a-z][a-z0-9_.]{0,63}$`)
	e164Re      = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)
)

// ValidEventType reports whether s is a well-formed event type; the list
// of types is open.
func ValidEventType(s string) bool { return eventTypeRe.MatchString(s) }

// ValidChannel reports whether s names a channel.
func ValidChannel(s string) bool {
	return s == ChannelEmail || s == ChannelSMS || s == ChannelWebhook
}

// ValidateDestination adds a field error unless dest fits the channel: one
// email address, an E.164 number, or an absolute http(s) URL. A saved
// setting and a test send share it.
func ValidateDestination(f *Fields, channel, dest string) {
	switch channel {
	case ChannelEmail:
		if !validEmail(dest) {
			f.Add("destination", FNotEmail, "must be one email address for the email channel")
		}
	case ChannelSMS:
		if !e164Re.MatchString(dest) {
			f.Add("destination", FNotPhone, "must be an E.164 phone number such as +4915112345678 for the sms channel")
		}
	case ChannelWebhook:
		u, err := url.Parse(dest)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" || len(dest) > 2048 {
			f.Add("destination", FNotURL, "must be an absolute http or https URL for the webhook channel")
		}
	}
}

func (n *NotificationSetting) validate(f *Fields) {
	if !ValidChannel(n.Channel) {
		f.Add("channel", FOneOf, "must be email, sms or webhook", "values", []string{"email", "sms", "webhook"})
	}
	if !ValidEventType(n.EventType) {
		f.Add("event_type", FNotEventType, "must match ^[a-z][a-z0-9_.]{0,63}$")
	}
	if ValidChannel(n.Channel) {
		ValidateDestination(f, n.Channel, n.Destination)
	}
}

// Validate checks a rule before it is created: the API checks its values
// before whether its channel is set up.
func (n *NotificationSetting) Validate() error {
	var f Fields
	n.validate(&f)
	return f.Err()
}

// NewWebhookSecret is a Standard Webhooks signing secret: "whsec_" and
// the base64 of 32 random bytes.
func NewWebhookSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand since Go 1.24)
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// CreateNotificationSetting adds a rule; a webhook rule gets a secret.
func (s *Store) CreateNotificationSetting(ctx context.Context, n *NotificationSetting) error {
	var f Fields
	n.validate(&f)
	if err := f.Err(); err != nil {
		return err
	}
	n.Secret = ""
	if n.Channel == ChannelWebhook {
		n.Secret = NewWebhookSecret()
	}
	return s.write(ctx, func(tx *Tx) error {
		n.ID, n.CreatedAt, n.UpdatedAt = NewID(), tx.Now, tx.Now
		_, err := tx.ExecContext(ctx, `INSERT INTO notification_settings
			(id, restaurant_id, channel, event_type, destination, is_enabled, secret, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			n.ID, n.RestaurantID, n.Channel, n.EventType, n.Destination, n.IsEnabled, emptyToNull(n.Secret),
			FormatTime(n.CreatedAt), FormatTime(n.UpdatedAt))
		return err
	})
}

const settingCols = `id, restaurant_id, channel, event_type, destination, is_enabled, secret, created_at, updated_at`

func scanSetting(sc scanner) (*NotificationSetting, error) {
	var n NotificationSetting
	var secret sql.NullString
	var created, updated string
	if err := sc.Scan(&n.ID, &n.RestaurantID, &n.Channel, &n.EventType, &n.Destination, &n.IsEnabled, &secret, &created, &updated); err != nil {
		return nil, err
	}
	n.Secret, n.CreatedAt, n.UpdatedAt = secret.String, ParseTime(created), ParseTime(updated)
	return &n, nil
}

// NotificationSettings lists a restaurant's rules, oldest first.
func (s *Store) NotificationSettings(ctx context.Context, restaurantID string) ([]*NotificationSetting, error) {
	return queryAll(ctx, s.rs, scanSetting, `SELECT `+settingCols+` FROM notification_settings
		WHERE restaurant_id = ? ORDER BY created_at, id`, restaurantID)
}

// NotificationSetting finds one rule of a restaurant.
func (s *Store) NotificationSetting(ctx context.Context, restaurantID, id string) (*NotificationSetting, error) {
	return getSetting(ctx, s.rs, restaurantID, id)
}

type settingQueryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func getSetting(ctx context.Context, q settingQueryer, restaurantID, id string) (*NotificationSetting, error) {
	n, err := scanSetting(q.QueryRowContext(ctx, `SELECT `+settingCols+` FROM notification_settings
		WHERE id = ? AND restaurant_id = ?`, id, restaurantID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("notification setting")
	}
	return n, err
}

// UpdateNotificationSetting applies a partial update. Disabling a rule
// cancels its queued deliveries (pending retries included) in the same
// transaction; switching a rule to webhook gives it a secret.
func (s *Store) UpdateNotificationSetting(ctx context.Context, restaurantID, id string, u NotificationSettingUpdate) (*NotificationSetting, error) {
	var f Fields
	NotNull(&f, "channel", u.Channel)
	NotNull(&f, "event_type", u.EventType)
	NotNull(&f, "destination", u.Destination)
	NotNull(&f, "is_enabled", u.IsEnabled)
	if err := f.Err(); err != nil {
		return nil, err
	}
	var n *NotificationSetting
	err := s.write(ctx, func(tx *Tx) (err error) {
		if n, err = getSetting(ctx, tx, restaurantID, id); err != nil {
			return err
		}
		u.Channel.Apply(&n.Channel)
		u.EventType.Apply(&n.EventType)
		u.Destination.Apply(&n.Destination)
		u.IsEnabled.Apply(&n.IsEnabled)
		n.validate(&f)
		if err := f.Err(); err != nil {
			return err
		}
		if u.ChannelReady != nil && n.IsEnabled && (u.IsEnabled.Set || u.Channel.Set) && !u.ChannelReady(n.Channel) {
			return ChannelNotConfigured(n.Channel)
		}
		switch {
		case n.Channel != ChannelWebhook:
			n.Secret = ""
		case n.Secret == "":
			n.Secret = NewWebhookSecret()
		}
		n.UpdatedAt = tx.Now
		if _, err := tx.ExecContext(ctx, `UPDATE notification_settings SET channel = ?, event_type = ?, destination = ?,
			is_enabled = ?, secret = ?, updated_at = ? WHERE id = ?`,
			n.Channel, n.EventType, n.Destination, n.IsEnabled, emptyToNull(n.Secret), FormatTime(n.UpdatedAt), n.ID); err != nil {
			return err
		}
		if !n.IsEnabled {
			return cancelDeliveries(ctx, tx, n.ID, "rule disabled")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// DeleteNotificationSetting removes a rule for good and cancels its queued
// deliveries; its log entries stay.
func (s *Store) DeleteNotificationSetting(ctx context.Context, restaurantID, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM notification_settings WHERE id = ? AND restaurant_id = ?`, id, restaurantID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return NotFound("notification setting")
		}
		return cancelDeliveries(ctx, tx, id, "rule deleted")
	})
}
