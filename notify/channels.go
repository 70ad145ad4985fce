package notify

import (
	"context"

	"posbox/store"
)

// configured is a sender that can tell whether it has settings (the email
// and SMS senders built from an empty configuration have none).
type configured interface{ Configured() bool }

// Configured reports whether the relay is set (smtp_host).
func (s *EmailSender) Configured() bool { return s.cfg.Host != "" }

// Configured reports whether a provider is set (sms_provider).
func (s *SMSSender) Configured() bool { return s.cfg.Provider != "" }

// senderFor is the sender of channel for a restaurant. Email and SMS
// settings saved from the console (store.EmailSettings, store.SMSSettings)
// win over the configuration file's and are read at every send, so a
// change applies to the next message without a restart.
func (d *Dispatcher) senderFor(ctx context.Context, restaurantID, channel string) (Sender, error) {
	switch channel {
	case store.ChannelEmail:
		e, err := d.st.EmailSettings(ctx, restaurantID)
		if err == nil {
			return NewEmailSender(EmailConfig{Host: e.Host, Port: e.Port, Username: e.Username, Password: e.Password,
				From: e.From, TLS: e.TLS, HELO: d.helo})
		}
		if !store.IsNotFound(err) {
			return nil, err
		}
	case store.ChannelSMS:
		m, err := d.st.SMSSettings(ctx, restaurantID)
		if err == nil {
			return NewSMSSender(SMSConfig{Provider: m.Provider, URL: m.URL, Account: m.Account, Token: m.Token, From: m.From})
		}
		if !store.IsNotFound(err) {
			return nil, err
		}
	}
	return d.senders[channel], nil
}

// ChannelSetup says, for email and SMS, where a restaurant's settings come
// from: store.SettingsFromConsole, store.SettingsFromConfig or
// store.SettingsNone. Webhooks need no setup.
func (d *Dispatcher) ChannelSetup(ctx context.Context, restaurantID string) (map[string]string, error) {
	out := map[string]string{}
	_, err := d.st.EmailSettings(ctx, restaurantID)
	out[store.ChannelEmail], err = d.source(err, store.ChannelEmail)
	if err != nil {
		return nil, err
	}
	_, err = d.st.SMSSettings(ctx, restaurantID)
	out[store.ChannelSMS], err = d.source(err, store.ChannelSMS)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// source names where a channel's settings come from, given the result of
// reading the saved ones.
func (d *Dispatcher) source(readErr error, channel string) (string, error) {
	switch {
	case readErr == nil:
		return store.SettingsFromConsole, nil
	case !store.IsNotFound(readErr):
		return "", readErr
	}
	s := d.senders[channel]
	if c, ok := s.(configured); s == nil || (ok && !c.Configured()) {
		return store.SettingsNone, nil
	}
	return store.SettingsFromConfig, nil
}
