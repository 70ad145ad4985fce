package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"posbox/internal/logging"
	"posbox/retention"
	"strconv"
	"strings"
	"time"
)

// Config is every setting of the appliance. Each has a key, an environment
// variable POSBOX_<KEY> and a line "key = value" in the optional config
// file. Precedence: flag, environment, file, default.
type Config struct {
	Addr       string
	DataDir    string
	Timezone   string
	TokenTTL   time.Duration
	LogFormat  string
	LogLevel   string
	AdminEmail string

	SMTPHost     string
	SMTPPort     int
	SMTPUsername string
	SMTPPassword string
	SMTPFrom     string
	SMTPTLS      string

	SMSProvider string
	SMSURL      string
	SMSAccount  string
	SMSToken    string
	SMSFrom     string

	WebhookAllowedHosts string
	Language            string // de or en: notification texts
	DailyReportTime     string // HH:MM, restaurant's local time
	ClosingTime         string // HH:MM local: the automatic daily closing; "" off
	TSEBudget           time.Duration
	// TSEArchiveTime is when the nightly TSE archive export starts
	// (HH:MM, restaurant-local; it may start until 3 h later).
	TSEArchiveTime string
	BackupDir      string
	BackupKeep     int
	// BackupPassphraseFile holds the passphrase of complete nightly
	// backups (first line); empty: nightly backups are database only.
	BackupPassphraseFile string
	// TLS is "auto" (HTTPS on addr, plain HTTP only from this machine)
	// or "off" (plain HTTP, behind a reverse proxy that does TLS).
	TLS         string
	TLSCertFile string // the owner's certificate (PEM); generated when empty
	TLSKeyFile  string

	// ReplicaURL is where the database is replicated, encrypted (package
	// replica, on Litestream); empty: no replication.
	ReplicaURL string
	// ReplicaRecipients are age public keys (comma-separated) every
	// replica object is encrypted to besides the box's recovery key.
	ReplicaRecipients string
	// ReplicaStallAfter is how long uploads may fail before
	// replication_stalled is raised; ReplicaBacklogMaxMB bounds the local
	// backlog while the replica is away (docs/REPLICATION.md, "Offline
	// for days").
	ReplicaStallAfter   time.Duration
	ReplicaBacklogMaxMB int

	// HQFollow are the replica URLs posbox hq follows; HQKeyFiles the age
	// identity files it reads them with (start_hq.go, docs/HQ.md).
	HQFollow   listValue
	HQKeyFiles listValue

	// NotificationKeepDays and EventKeepDays are the short retention
	// periods (start_retention.go, docs/RETENTION.md).
	NotificationKeepDays int
	EventKeepDays        int

	// File is the config file read (--config), absolute; empty for none.
	File string
}

// DefaultConfig runs a working appliance with no file at all.
func DefaultConfig() Config {
	return Config{
		Addr:                ":8080",
		DataDir:             "./data",
		Timezone:            "Europe/Berlin",
		TokenTTL:            12 * time.Hour,
		LogFormat:           "text",
		LogLevel:            "info",
		AdminEmail:          "admin@posbox.local",
		SMTPPort:            587,
		SMTPTLS:             "starttls",
		WebhookAllowedHosts: "external,private,loopback",
		Language:            "de",
		DailyReportTime:     "06:00",
		ClosingTime:         "05:00",
		TSEBudget:           3 * time.Second,
		TSEArchiveTime:      "04:30",
		BackupKeep:          7,
		TLS:                 "auto",
		ReplicaStallAfter:   time.Hour,
		ReplicaBacklogMaxMB: 2048,

		NotificationKeepDays: retention.DefaultNotificationDays,
		EventKeepDays:        retention.DefaultEventDays,
	}
}

// setting binds one key to its field in Config.
type setting struct {
	key   string
	usage string
	value flag.Value
}

// settings lists every configurable key, in documentation order.
func (c *Config) settings() []setting {
	return []setting{
		{"addr", "listen address HOST:PORT", (*stringValue)(&c.Addr)},
		{"data_dir", "data directory (database, keys, backups)", (*stringValue)(&c.DataDir)},
		{"timezone", "IANA timezone of the restaurant created on first start", (*stringValue)(&c.Timezone)},
		{"token_ttl", "access token lifetime", (*durationValue)(&c.TokenTTL)},
		{"log_format", "text or json", (*stringValue)(&c.LogFormat)},
		{"log_level", "debug, info, warn or error", (*stringValue)(&c.LogLevel)},
		{"admin_email", "email of the admin created on first start", (*stringValue)(&c.AdminEmail)},
		{"smtp_host", "SMTP server for email notifications", (*stringValue)(&c.SMTPHost)},
		{"smtp_port", "SMTP port", (*intValue)(&c.SMTPPort)},
		{"smtp_username", "SMTP user", (*stringValue)(&c.SMTPUsername)},
		{"smtp_password", "SMTP password", (*stringValue)(&c.SMTPPassword)},
		{"smtp_from", "sender address of notification mails", (*stringValue)(&c.SMTPFrom)},
		{"smtp_tls", "starttls, tls, opportunistic or none", (*stringValue)(&c.SMTPTLS)},
		{"sms_provider", "twilio or generic", (*stringValue)(&c.SMSProvider)},
		{"sms_url", "SMS provider base URL", (*stringValue)(&c.SMSURL)},
		{"sms_account", "SMS account (Twilio account SID)", (*stringValue)(&c.SMSAccount)},
		{"sms_token", "SMS token", (*stringValue)(&c.SMSToken)},
		{"sms_from", "SMS sender", (*stringValue)(&c.SMSFrom)},
		{"webhook_allowed_hosts", "allowed webhook targets (external,private,loopback,*,host names, CIDRs)", (*stringValue)(&c.WebhookAllowedHosts)},
		{"language", "language of notification texts: de or en", (*stringValue)(&c.Language)},
		{"daily_report_time", "local time HH:MM when the previous day's report is sent", (*stringValue)(&c.DailyReportTime)},
		{"closing_time", "local time HH:MM of the automatic daily closing of the previous day's registers (empty: none)", (*stringValue)(&c.ClosingTime)},
		{"tse_budget", "how long a sale waits for a signature before it is queued", (*durationValue)(&c.TSEBudget)},
		{"tse_archive_time", "local time HH:MM when the nightly TSE archive export starts (it may start until 3 h later)", (*stringValue)(&c.TSEArchiveTime)},
		{"backup_dir", "nightly backup folder (default DATA_DIR/backups)", (*stringValue)(&c.BackupDir)},
		{"backup_keep", "nightly backups kept (0: no nightly backup)", (*intValue)(&c.BackupKeep)},
		{"backup_passphrase_file", "file whose first line is the passphrase of complete nightly backups (empty: database only)", (*stringValue)(&c.BackupPassphraseFile)},
		{"tls", "auto (HTTPS; plain HTTP only from this machine) or off (plain HTTP behind a TLS proxy)", (*stringValue)(&c.TLS)},
		{"tls_cert_file", "certificate (PEM) for HTTPS; one is generated in DATA_DIR/tls when empty", (*stringValue)(&c.TLSCertFile)},
		{"tls_key_file", "private key (PEM) of tls_cert_file", (*stringValue)(&c.TLSKeyFile)},
		{"replica_url", "where the database is replicated, encrypted: file:///mnt/nas/posbox, sftp://user@host:port/path, s3://bucket/prefix (empty: no replication)", (*stringValue)(&c.ReplicaURL)},
		{"replica_recipients", "age public keys (age1..., comma-separated) the replica is encrypted to besides DATA_DIR/replica.key", (*stringValue)(&c.ReplicaRecipients)},
		{"hq_follow", "posbox hq only: a box's replica URL to follow; one line each, or separated by spaces (docs/HQ.md)", &c.HQFollow},
		{"hq_key_file", "posbox hq only: an age key file that opens the boxes' replicas (default: DATA_DIR/hq.key, made by posbox hq key)", &c.HQKeyFiles},
		{"replica_stall_after", "how long uploads to the replica may fail before replication_stalled is raised", (*durationValue)(&c.ReplicaStallAfter)},
		{"notification_keep_days", "days finished notification deliveries and their log entries are kept (at least 7, at most 3650)", (*intValue)(&c.NotificationKeepDays)},
		{"event_keep_days", "days events are kept once none of their deliveries is left (at least 7, at most 3650)", (*intValue)(&c.EventKeepDays)},
		{"replica_backlog_max_mb", "most MB of changes kept on the box while the replica is away (never more than half the free space); past it they are given up and a complete copy goes up once the replica answers", (*intValue)(&c.ReplicaBacklogMaxMB)},
	}
}

// loadConfig builds the configuration of one command from its flags, the
// environment and the config file. keys limits which settings the command
// takes as flags; every command takes --config and --data-dir.
func loadConfig(fs *flag.FlagSet, args []string, keys ...string) (Config, error) {
	return loadConfigFrom(DefaultConfig(), fs, args, keys...)
}

// loadConfigFrom is loadConfig over other defaults: the OS service's data
// folder for "posbox service".
func loadConfigFrom(def Config, fs *flag.FlagSet, args []string, keys ...string) (Config, error) {
	cfg := def
	var file string
	fs.StringVar(&file, "config", os.Getenv("POSBOX_CONFIG"), "config file (key = value lines)")
	want := map[string]bool{"data_dir": true}
	for _, k := range keys {
		want[k] = true
	}
	// Flags parse into a scratch Config so that the file and environment
	// can be applied first and flags last.
	flagged := def
	for _, s := range flagged.settings() {
		if want[s.key] {
			fs.Var(s.value, strings.ReplaceAll(s.key, "_", "-"), s.usage)
		}
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if file != "" {
		if err := cfg.readFile(file); err != nil {
			return cfg, err
		}
	}
	for _, s := range cfg.settings() {
		if v, ok := os.LookupEnv("POSBOX_" + strings.ToUpper(s.key)); ok {
			if err := s.value.Set(v); err != nil {
				return cfg, fmt.Errorf("POSBOX_%s: %w", strings.ToUpper(s.key), err)
			}
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[strings.ReplaceAll(f.Name, "-", "_")] = true })
	fromFlags := map[string]flag.Value{}
	for _, s := range flagged.settings() {
		fromFlags[s.key] = s.value
	}
	for _, s := range cfg.settings() {
		if set[s.key] {
			_ = s.value.Set(fromFlags[s.key].String())
		}
	}
	cfg.File = file
	return cfg, cfg.finish()
}

// readFile applies a config file: "key = value" lines, # comments.
func (c *Config) readFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	byKey := map[string]flag.Value{}
	for _, s := range c.settings() {
		byKey[s.key] = s.value
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"`)
		val, known := byKey[k]
		if !ok || !known {
			return fmt.Errorf("config %s:%d: want key = value with a known key, got %q", path, n, line)
		}
		if err := val.Set(v); err != nil {
			return fmt.Errorf("config %s:%d: %s: %w", path, n, k, err)
		}
	}
	return sc.Err()
}

// finish validates and resolves paths to absolute ones: a Windows service
// starts in System32, so nothing may depend on the working directory.
func (c *Config) finish() error {
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return err
	}
	c.DataDir = abs
	if c.File != "" {
		if c.File, err = filepath.Abs(c.File); err != nil {
			return err
		}
	}
	if c.BackupDir == "" {
		c.BackupDir = filepath.Join(c.DataDir, "backups")
	}
	if c.BackupDir, err = filepath.Abs(c.BackupDir); err != nil {
		return err
	}
	if c.BackupPassphraseFile != "" {
		if c.BackupPassphraseFile, err = filepath.Abs(c.BackupPassphraseFile); err != nil {
			return err
		}
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("log_format: %q is not text or json", c.LogFormat)
	}
	if _, err := time.LoadLocation(c.Timezone); err != nil {
		return fmt.Errorf("timezone: %w", err)
	}
	if c.BackupKeep < 0 {
		return fmt.Errorf("backup_keep must be 0 (no nightly backup) or more")
	}
	if c.TokenTTL <= 0 {
		return fmt.Errorf("token_ttl must be positive")
	}
	if c.TLS != "auto" && c.TLS != "off" {
		return fmt.Errorf("tls: %q is not auto or off", c.TLS)
	}
	if (c.TLSCertFile == "") != (c.TLSKeyFile == "") {
		return fmt.Errorf("tls_cert_file and tls_key_file go together")
	}
	if err := c.checkArchive(); err != nil {
		return err
	}
	if err := c.checkClosing(); err != nil {
		return err
	}
	if err := c.checkRetention(); err != nil {
		return err
	}
	if err := c.checkReplica(); err != nil {
		return err
	}
	return c.checkNotify()
}

type stringValue string

func (v *stringValue) Set(s string) error { *v = stringValue(s); return nil }
func (v *stringValue) String() string     { return string(*v) }

type intValue int

func (v *intValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	*v = intValue(n)
	return err
}
func (v *intValue) String() string { return strconv.Itoa(int(*v)) }

type durationValue time.Duration

func (v *durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	*v = durationValue(d)
	return err
}
func (v *durationValue) String() string { return time.Duration(*v).String() }

// logOptions are c's log settings.
func (c Config) logOptions() logging.Options {
	return logging.Options{Format: c.LogFormat, Level: c.LogLevel}
}
