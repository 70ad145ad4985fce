package store

import (
	"context"
	"database/sql"
	"errors"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// EChannelNotConfigured refuses an enabled email or SMS rule while that
// channel has no settings (docs/NOTIFICATIONS.md): every send would fail.
const EChannelNotConfigured = "channel_not_configured"

// ChannelNotConfigured is the error for an enabled rule on a channel that
// is not set up.
func ChannelNotConfigured(channel string) error {
	what := map[string]string{ChannelEmail: "email (SMTP)", ChannelSMS: "SMS"}[channel]
	e := Invalid("channel", FNotSetUp, "is not set up on this box").(*Error)
	e.Code, e.Message = EChannelNotConfigured, what+" is not set up: save its settings first, or add the rule disabled"
	return e
}

// Sources of a channel's settings, by the names the API shows.
const (
	SettingsFromConsole = "console"     // saved on the box (these tables)
	SettingsFromConfig  = "config_file" // the configuration file's keys
	SettingsNone        = "none"
)

// SMTP security modes (the config file's smtp_tls).
var SMTPTLSModes = []string{"starttls", "tls", "opportunistic", "none"}

// SMS providers (the config file's sms_provider).
const (
	SMSTwilio  = "twilio"
	SMSGeneric = "generic"
)

// TwilioURL is the Twilio API's base URL, the default for that provider.
const TwilioURL = "https://api.twilio.com"

// EmailSettings is the SMTP relay saved from the console. Password is a
// secret: the API answers only whether one is set.
type EmailSettings struct {
	Host      string
	Port      int
	Username  string
	Password  string
	From      string
	TLS       string
	UpdatedAt time.Time
}

// EmailSettingsInput is a PUT of the email settings. Host and From are
// required; Port defaults by TLS (587, or 465 for tls); TLS defaults to
// starttls; a Password left out keeps the saved one ("" removes it).
type EmailSettingsInput struct {
	Host     Field[string]
	Port     Field[int]
	Username Field[string]
	Password Field[string]
	From     Field[string]
	TLS      Field[string]
}

// SMSSettings is the SMS provider saved from the console. Token is a
// secret like EmailSettings.Password.
type SMSSettings struct {
	Provider  string
	URL       string
	Account   string
	Token     string
	From      string
	UpdatedAt time.Time
}

// SMSSettingsInput is a PUT of the SMS settings: Provider required; URL
// defaults to Twilio's for twilio and is required for generic; twilio
// needs Account, Token and From; a Token left out keeps the saved one.
type SMSSettingsInput struct {
	Provider Field[string]
	URL      Field[string]
	Account  Field[string]
	Token    Field[string]
	From     Field[string]
}

var hostnameRe = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$`)

// validHost accepts a DNS name or an IP address, without scheme or port.
func validHost(h string) bool { return hostnameRe.MatchString(h) || net.ParseIP(h) != nil }

// checkText adds a field error for a setting with a control character or
// over max characters.
func checkText(f *Fields, field, s string, max int) {
	if hasControl(s) || utf8.RuneCountInString(s) > max {
		f.Add(field, FTooLong, "must be at most "+strconv.Itoa(max)+" characters without control characters", "max", max)
	}
}

// notNulls adds a field error for each member sent as null, in order.
func notNulls(f *Fields, names []string, vs ...Field[string]) {
	for i, v := range vs {
		NotNull(f, names[i], v)
	}
}

// EmailSettings reads a restaurant's saved email settings; not_found
// when none are saved (the configuration file's apply).
func (s *Store) EmailSettings(ctx context.Context, restaurantID string) (*EmailSettings, error) {
	return readEmailSettings(ctx, s.rs, restaurantID)
}

func readEmailSettings(ctx context.Context, q settingQueryer, restaurantID string) (*EmailSettings, error) {
	var e EmailSettings
	var updated string
	err := q.QueryRowContext(ctx, `SELECT host, port, username, password, from_address, tls, updated_at
		FROM email_settings WHERE restaurant_id = ?`, restaurantID).
		Scan(&e.Host, &e.Port, &e.Username, &e.Password, &e.From, &e.TLS, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("email settings")
	}
	if err != nil {
		return nil, err
	}
	e.UpdatedAt = ParseTime(updated)
	return &e, nil
}

// PutEmailSettings validates and saves a restaurant's email settings,
// keeping the saved password when in leaves it out. A refusal changes
// nothing.
func (s *Store) PutEmailSettings(ctx context.Context, restaurantID string, in EmailSettingsInput) (*EmailSettings, error) {
	var f Fields
	notNulls(&f, []string{"host", "username", "password", "from", "tls"}, in.Host, in.Username, in.Password, in.From, in.TLS)
	NotNull(&f, "port", in.Port)
	e := EmailSettings{Host: in.Host.Value, Port: in.Port.Value, Username: in.Username.Value, From: in.From.Value, TLS: in.TLS.Value}
	if e.TLS == "" {
		e.TLS = "starttls"
	}
	switch {
	case !in.Host.Set || e.Host == "":
		f.Add("host", FRequired, "is required")
	case !validHost(e.Host):
		f.Add("host", FBadFormat, "must be a server name such as smtp.example.com, without scheme or port")
	}
	if in.Port.Set && (e.Port < 1 || e.Port > 65535) {
		f.Add("port", FOutOfRange, "must be 1-65535", "min", 1, "max", 65535)
	}
	if e.Port == 0 {
		e.Port = 587
		if e.TLS == "tls" {
			e.Port = 465
		}
	}
	if !slices.Contains(SMTPTLSModes, e.TLS) {
		f.Add("tls", FOneOf, "must be starttls, tls, opportunistic or none", "values", SMTPTLSModes)
	}
	switch {
	case !in.From.Set || e.From == "":
		f.Add("from", FRequired, "is required")
	case !validEmail(e.From):
		f.Add("from", FNotEmail, "must be one email address")
	}
	checkText(&f, "username", e.Username, 254)
	checkText(&f, "password", in.Password.Value, 1024)
	if err := f.Err(); err != nil {
		return nil, err
	}
	err := s.write(ctx, func(tx *Tx) error {
		old, err := readEmailSettings(ctx, tx, restaurantID)
		switch {
		case in.Password.Set:
			e.Password = in.Password.Value
		case err == nil:
			e.Password = old.Password
		case !IsNotFound(err):
			return err
		}
		e.UpdatedAt = tx.Now
		_, err = tx.ExecContext(ctx, `INSERT INTO email_settings (restaurant_id, host, port, username, password, from_address, tls, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (restaurant_id) DO UPDATE SET host = excluded.host, port = excluded.port,
			username = excluded.username, password = excluded.password, from_address = excluded.from_address, tls = excluded.tls,
			updated_at = excluded.updated_at`,
			restaurantID, e.Host, e.Port, e.Username, e.Password, e.From, e.TLS, FormatTime(e.UpdatedAt))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &e, nil
}

// SMSSettings reads a restaurant's saved SMS settings; not_found when
// none are saved.
func (s *Store) SMSSettings(ctx context.Context, restaurantID string) (*SMSSettings, error) {
	return readSMSSettings(ctx, s.rs, restaurantID)
}

func readSMSSettings(ctx context.Context, q settingQueryer, restaurantID string) (*SMSSettings, error) {
	var m SMSSettings
	var updated string
	err := q.QueryRowContext(ctx, `SELECT provider, url, account, token, sender, updated_at FROM sms_settings
		WHERE restaurant_id = ?`, restaurantID).Scan(&m.Provider, &m.URL, &m.Account, &m.Token, &m.From, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("SMS settings")
	}
	if err != nil {
		return nil, err
	}
	m.UpdatedAt = ParseTime(updated)
	return &m, nil
}

// PutSMSSettings validates and saves a restaurant's SMS settings, keeping
// the saved token when in leaves it out.
func (s *Store) PutSMSSettings(ctx context.Context, restaurantID string, in SMSSettingsInput) (*SMSSettings, error) {
	var f Fields
	notNulls(&f, []string{"provider", "url", "account", "token", "from"}, in.Provider, in.URL, in.Account, in.Token, in.From)
	m := SMSSettings{Provider: in.Provider.Value, URL: in.URL.Value, Account: in.Account.Value, From: in.From.Value}
	switch {
	case !in.Provider.Set || m.Provider == "":
		f.Add("provider", FRequired, "is required")
	case m.Provider != SMSTwilio && m.Provider != SMSGeneric:
		f.Add("provider", FOneOf, "must be twilio or generic", "values", []string{SMSTwilio, SMSGeneric})
	}
	if m.URL == "" && m.Provider == SMSTwilio {
		m.URL = TwilioURL
	}
	if m.URL == "" {
		if m.Provider == SMSGeneric {
			f.Add("url", FRequired, "is required")
		}
	} else if u, err := url.Parse(m.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || len(m.URL) > 2048 {
		f.Add("url", FNotURL, "must be an absolute http or https URL")
	}
	checkText(&f, "account", m.Account, 128)
	checkText(&f, "token", in.Token.Value, 1024)
	checkText(&f, "from", m.From, 32)
	if m.Provider == SMSTwilio {
		if m.Account == "" {
			f.Add("account", FRequired, "is required for Twilio")
		}
		if m.From == "" {
			f.Add("from", FRequired, "is required for Twilio")
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	err := s.write(ctx, func(tx *Tx) error {
		old, err := readSMSSettings(ctx, tx, restaurantID)
		switch {
		case in.Token.Set:
			m.Token = in.Token.Value
		case err == nil:
			m.Token = old.Token
		case !IsNotFound(err):
			return err
		}
		if m.Provider == SMSTwilio && m.Token == "" {
			return Invalid("token", FRequired, "is required for Twilio")
		}
		m.UpdatedAt = tx.Now
		_, err = tx.ExecContext(ctx, `INSERT INTO sms_settings (restaurant_id, provider, url, account, token, sender, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (restaurant_id) DO UPDATE SET provider = excluded.provider, url = excluded.url,
			account = excluded.account, token = excluded.token, sender = excluded.sender, updated_at = excluded.updated_at`,
			restaurantID, m.Provider, m.URL, m.Account, m.Token, m.From, FormatTime(m.UpdatedAt))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &m, nil
}
