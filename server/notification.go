package server

import (
	"context"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// Notifier sends test messages and says which channels are set up;
// package notify's Dispatcher is one. Deliveries of events are queued by
// the store and sent in the background.
type Notifier interface {
	SendTest(ctx context.Context, restaurantID, channel, destination string) (*store.TestSend, error)
	// ChannelSetup names, for email and sms, where the settings come from:
	// store.SettingsFromConsole, store.SettingsFromConfig or store.SettingsNone.
	ChannelSetup(ctx context.Context, restaurantID string) (map[string]string, error)
}

type settingJSON struct {
	ID          string  `json:"id"`
	Channel     string  `json:"channel"`
	EventType   string  `json:"event_type"`
	IsEnabled   bool    `json:"is_enabled"`
	Destination string  `json:"destination"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
	Secret      *string `json:"secret,omitempty"` // webhook rules only; last, as the contract lists it
}

func toSettingJSON(n *store.NotificationSetting) settingJSON {
	j := settingJSON{ID: n.ID, Channel: n.Channel, EventType: n.EventType, IsEnabled: n.IsEnabled,
		Destination: n.Destination, CreatedAt: ts(n.CreatedAt), UpdatedAt: ts(n.UpdatedAt)}
	if n.Secret != "" {
		j.Secret = &n.Secret
	}
	return j
}

func (s *Server) listNotificationSettings(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	list, err := s.store.NotificationSettings(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]settingJSON, 0, len(list))
	for _, n := range list {
		out = append(out, toSettingJSON(n))
	}
	return writeJSON(w, http.StatusOK, envelope{"settings": out})
}

type createSettingRequest struct {
	Channel     *string `json:"channel"`
	EventType   *string `json:"event_type"`
	IsEnabled   *bool   `json:"is_enabled"`
	Destination *string `json:"destination"`
}

func (s *Server) createNotificationSetting(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req createSettingRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "channel", req.Channel)
	required(&f, "event_type", req.EventType)
	required(&f, "is_enabled", req.IsEnabled)
	required(&f, "destination", req.Destination)
	if err := f.Err(); err != nil {
		return err
	}
	n := &store.NotificationSetting{RestaurantID: caller(r.Context()).restaurant.ID, Channel: *req.Channel,
		EventType: *req.EventType, IsEnabled: *req.IsEnabled, Destination: *req.Destination}
	if err := n.Validate(); err != nil {
		return err
	}
	if n.IsEnabled {
		ready, err := s.channelReady(r.Context(), n.RestaurantID)
		if err != nil {
			return err
		}
		if !ready(n.Channel) {
			return store.ChannelNotConfigured(n.Channel)
		}
	}
	if err := s.store.CreateNotificationSetting(r.Context(), n); err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, envelope{"setting": toSettingJSON(n)})
}

type updateSettingRequest struct {
	Channel     store.Field[string] `json:"channel"`
	EventType   store.Field[string] `json:"event_type"`
	Destination store.Field[string] `json:"destination"`
	IsEnabled   store.Field[bool]   `json:"is_enabled"`
}

func (s *Server) updateNotificationSetting(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "notification setting")
	if err != nil {
		return err
	}
	var req updateSettingRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	rid := caller(r.Context()).restaurant.ID
	ready, err := s.channelReady(r.Context(), rid)
	if err != nil {
		return err
	}
	n, err := s.store.UpdateNotificationSetting(r.Context(), rid, id, store.NotificationSettingUpdate{Channel: req.Channel,
		EventType: req.EventType, Destination: req.Destination, IsEnabled: req.IsEnabled, ChannelReady: ready})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"setting": toSettingJSON(n)})
}

// channelReady tells whether a channel of the restaurant is set up: an
// enabled email or SMS rule without settings would fail every send, so it
// is refused (docs/NOTIFICATIONS.md). Settings are only ever saved, never
// removed, so a channel once ready stays ready and the check cannot race.
// Without a dispatcher (some tests) every channel counts as ready.
func (s *Server) channelReady(ctx context.Context, restaurantID string) (func(string) bool, error) {
	if s.cfg.Notifier == nil {
		return func(string) bool { return true }, nil
	}
	setup, err := s.cfg.Notifier.ChannelSetup(ctx, restaurantID)
	if err != nil {
		return nil, err
	}
	return func(ch string) bool { src, ok := setup[ch]; return !ok || src != store.SettingsNone }, nil
}

func (s *Server) deleteNotificationSetting(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "notification setting")
	if err != nil {
		return err
	}
	if err := s.store.DeleteNotificationSetting(r.Context(), caller(r.Context()).restaurant.ID, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

type logJSON struct {
	ID          string  `json:"id"`
	SettingID   *string `json:"setting_id"`
	Channel     string  `json:"channel"`
	EventType   string  `json:"event_type"`
	Destination string  `json:"destination"`
	Status      string  `json:"status"`
	Error       *string `json:"error"`
	Message     *string `json:"message"`
	SentAt      string  `json:"sent_at"`
	Attempt     int     `json:"attempt"`
}

func toLogJSON(l *store.NotificationLog) logJSON {
	return logJSON{l.ID, l.SettingID, l.Channel, l.EventType, l.Destination, l.Status, l.Error, l.Message, ts(l.SentAt), l.Attempt}
}

// listNotificationLogs: limit defaults to 50, above 200 is cut to 200,
// anything not an integer ≥ 1 is a 422.
func (s *Server) listNotificationLogs(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	limit := store.DefaultLogLimit
	if q := r.URL.Query(); q.Has("limit") {
		n, err := strconv.Atoi(q.Get("limit"))
		if err != nil || n < 1 {
			return store.Invalid("limit", store.FTooSmall, "must be an integer of at least 1", "min", 1)
		}
		limit = min(n, store.MaxLogLimit)
	}
	logs, err := s.store.NotificationLogs(r.Context(), caller(r.Context()).restaurant.ID, limit)
	if err != nil {
		return err
	}
	out := make([]logJSON, 0, len(logs))
	for _, l := range logs {
		out = append(out, toLogJSON(l))
	}
	return writeJSON(w, http.StatusOK, envelope{"logs": out})
}

type deliveryJSON struct {
	ID            string  `json:"id"`
	SettingID     string  `json:"setting_id"`
	EventID       string  `json:"event_id"`
	EventType     string  `json:"event_type"`
	WebhookID     string  `json:"webhook_id"`
	Status        string  `json:"status"`
	Attempts      int     `json:"attempts"`
	NextAttemptAt *string `json:"next_attempt_at"` // null once final
	LastError     *string `json:"last_error"`
	CreatedAt     string  `json:"created_at"`
	UpdatedAt     string  `json:"updated_at"`
}

// listDeliveries shows the queue (beyond the contract): what is pending,
// when it is retried and why it failed. ?status= filters, ?limit= as for
// the logs.
func (s *Server) listDeliveries(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q := r.URL.Query()
	limit := store.DefaultLogLimit
	var f store.Fields
	if q.Has("limit") {
		n, err := strconv.Atoi(q.Get("limit"))
		if err != nil || n < 1 {
			f.Add("limit", store.FTooSmall, "must be an integer of at least 1", "min", 1)
		}
		limit = min(n, store.MaxLogLimit)
	}
	status := q.Get("status")
	if q.Has("status") && !store.ValidDeliveryStatus(status) {
		f.Add("status", store.FOneOf, "must be pending, in_flight, delivered, failed or cancelled", "values", []string{"pending", "in_flight", "delivered", "failed", "cancelled"})
	}
	if err := f.Err(); err != nil {
		return err
	}
	list, err := s.store.RecentDeliveries(r.Context(), caller(r.Context()).restaurant.ID, status, limit)
	if err != nil {
		return err
	}
	out := make([]deliveryJSON, 0, len(list))
	for _, d := range list {
		j := deliveryJSON{ID: d.ID, SettingID: d.SettingID, EventID: d.EventID, EventType: d.EventType, WebhookID: d.WebhookID,
			Status: d.Status, Attempts: d.Attempts, LastError: d.LastError, CreatedAt: ts(d.CreatedAt), UpdatedAt: ts(d.UpdatedAt)}
		if d.Status == store.DeliveryPending || d.Status == store.DeliveryInFlight {
			j.NextAttemptAt = tsPtr(&d.NextAttemptAt)
		}
		out = append(out, j)
	}
	return writeJSON(w, http.StatusOK, envelope{"deliveries": out})
}

type testRequest struct {
	Channel     *string `json:"channel"`
	Destination *string `json:"destination"`
}

type testResultJSON struct {
	Success     bool   `json:"success"`
	Channel     string `json:"channel"`
	Destination string `json:"destination"`
	Message     string `json:"message"`
	SentAt      string `json:"sent_at"`
	// Secret is the signing secret of a webhook test that no rule sends
	// to (made for this test); absent otherwise.
	Secret string `json:"secret,omitempty"`
}

// testNotification sends one message now and answers 200 with the
// outcome, a failed delivery included (the error is in message).
func (s *Server) testNotification(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req testRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "channel", req.Channel)
	required(&f, "destination", req.Destination)
	if err := f.Err(); err != nil {
		return err
	}
	if !store.ValidChannel(*req.Channel) {
		f.Add("channel", store.FOneOf, "must be email, sms or webhook", "values", []string{"email", "sms", "webhook"})
	} else {
		store.ValidateDestination(&f, *req.Channel, *req.Destination)
	}
	if err := f.Err(); err != nil {
		return err
	}
	if s.cfg.Notifier == nil {
		return errHTTP(eInternal, "notifications are not running")
	}
	sent, err := s.cfg.Notifier.SendTest(r.Context(), caller(r.Context()).restaurant.ID, *req.Channel, *req.Destination)
	if err != nil {
		return err
	}
	l := sent.Log
	res := testResultJSON{Success: l.Status == store.LogDelivered, Channel: l.Channel, Destination: l.Destination, SentAt: ts(l.SentAt),
		Secret: sent.NewSecret}
	switch {
	case l.Error != nil:
		res.Message = *l.Error
	case l.Message != nil:
		res.Message = *l.Message
	}
	return writeJSON(w, http.StatusOK, envelope{"result": res})
}
