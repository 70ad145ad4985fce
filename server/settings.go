package server

import (
	"context"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// The email (SMTP) and SMS settings an administrator saves from the
// console (docs/NOTIFICATIONS.md). Secrets go in, never out: an answer
// says only password_set / token_set.

type emailSettingsJSON struct {
	Configured  bool    `json:"configured"`
	Source      string  `json:"source"`
	Host        *string `json:"host"`
	Port        *int    `json:"port"`
	Username    *string `json:"username"`
	From        *string `json:"from"`
	TLS         *string `json:"tls"`
	PasswordSet bool    `json:"password_set"`
	UpdatedAt   *string `json:"updated_at"`
}

type smsSettingsJSON struct {
	Configured bool    `json:"configured"`
	Source     string  `json:"source"`
	Provider   *string `json:"provider"`
	URL        *string `json:"url"`
	Account    *string `json:"account"`
	From       *string `json:"from"`
	TokenSet   bool    `json:"token_set"`
	UpdatedAt  *string `json:"updated_at"`
}

// settingsSource names where a channel's settings come from; without a
// dispatcher only the saved ones count.
func (s *Server) settingsSource(ctx context.Context, restaurantID, channel string, saved bool) (string, error) {
	if saved {
		return store.SettingsFromConsole, nil
	}
	if s.cfg.Notifier == nil {
		return store.SettingsNone, nil
	}
	setup, err := s.cfg.Notifier.ChannelSetup(ctx, restaurantID)
	if err != nil {
		return "", err
	}
	return setup[channel], nil
}

func (s *Server) emailSettingsJSON(ctx context.Context, restaurantID string, e *store.EmailSettings) (emailSettingsJSON, error) {
	src, err := s.settingsSource(ctx, restaurantID, store.ChannelEmail, e != nil)
	out := emailSettingsJSON{Source: src, Configured: src == store.SettingsFromConsole || src == store.SettingsFromConfig}
	if e != nil {
		out.Host, out.Port, out.Username, out.From, out.TLS = &e.Host, &e.Port, &e.Username, &e.From, &e.TLS
		out.PasswordSet, out.UpdatedAt = e.Password != "", tsPtr(&e.UpdatedAt)
	}
	return out, err
}

func (s *Server) smsSettingsJSON(ctx context.Context, restaurantID string, m *store.SMSSettings) (smsSettingsJSON, error) {
	src, err := s.settingsSource(ctx, restaurantID, store.ChannelSMS, m != nil)
	out := smsSettingsJSON{Source: src, Configured: src == store.SettingsFromConsole || src == store.SettingsFromConfig}
	if m != nil {
		out.Provider, out.URL, out.Account, out.From = &m.Provider, &m.URL, &m.Account, &m.From
		out.TokenSet, out.UpdatedAt = m.Token != "", tsPtr(&m.UpdatedAt)
	}
	return out, err
}

// getEmailSettings is GET /api/settings/email (admin).
func (s *Server) getEmailSettings(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	rid := caller(r.Context()).restaurant.ID
	e, err := s.store.EmailSettings(r.Context(), rid)
	if err != nil && !store.IsNotFound(err) {
		return err
	}
	out, err := s.emailSettingsJSON(r.Context(), rid, e)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"email": out})
}

type emailSettingsRequest struct {
	Host     store.Field[string] `json:"host"`
	Port     store.Field[int]    `json:"port"`
	Username store.Field[string] `json:"username"`
	Password store.Field[string] `json:"password"`
	From     store.Field[string] `json:"from"`
	TLS      store.Field[string] `json:"tls"`
}

// putEmailSettings is PUT /api/settings/email (admin): saved settings
// apply to the next email sent, no restart.
func (s *Server) putEmailSettings(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req emailSettingsRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	rid := caller(r.Context()).restaurant.ID
	e, err := s.store.PutEmailSettings(r.Context(), rid, store.EmailSettingsInput(req))
	if err != nil {
		return err
	}
	out, err := s.emailSettingsJSON(r.Context(), rid, e)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"email": out})
}

// getSMSSettings is GET /api/settings/sms (admin).
func (s *Server) getSMSSettings(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	rid := caller(r.Context()).restaurant.ID
	m, err := s.store.SMSSettings(r.Context(), rid)
	if err != nil && !store.IsNotFound(err) {
		return err
	}
	out, err := s.smsSettingsJSON(r.Context(), rid, m)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"sms": out})
}

type smsSettingsRequest struct {
	Provider store.Field[string] `json:"provider"`
	URL      store.Field[string] `json:"url"`
	Account  store.Field[string] `json:"account"`
	Token    store.Field[string] `json:"token"`
	From     store.Field[string] `json:"from"`
}

// putSMSSettings is PUT /api/settings/sms (admin).
func (s *Server) putSMSSettings(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req smsSettingsRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	rid := caller(r.Context()).restaurant.ID
	m, err := s.store.PutSMSSettings(r.Context(), rid, store.SMSSettingsInput(req))
	if err != nil {
		return err
	}
	out, err := s.smsSettingsJSON(r.Context(), rid, m)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"sms": out})
}
