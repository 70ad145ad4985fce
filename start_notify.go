package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"posbox/notify"
	"posbox/store"
)

// checkNotify validates the notification settings at start, so a typo
// fails the start instead of every delivery.
func (c *Config) checkNotify() error {
	if _, err := c.notifySenders(); err != nil {
		return err
	}
	if c.Language != "de" && c.Language != "en" {
		return fmt.Errorf("language: %q is not de or en", c.Language)
	}
	if _, err := time.Parse("15:04", c.DailyReportTime); err != nil || len(c.DailyReportTime) != 5 {
		return fmt.Errorf("daily_report_time: %q is not HH:MM", c.DailyReportTime)
	}
	return nil
}

// notifySenders builds one sender per channel from the configuration.
func (c *Config) notifySenders() (map[string]notify.Sender, error) {
	// HELO with the machine's name: some relays refuse "localhost".
	helo, _ := os.Hostname()
	email, err := notify.NewEmailSender(notify.EmailConfig{Host: c.SMTPHost, Port: c.SMTPPort, Username: c.SMTPUsername,
		Password: c.SMTPPassword, From: c.SMTPFrom, TLS: c.SMTPTLS, HELO: helo})
	if err != nil {
		return nil, err
	}
	sms, err := notify.NewSMSSender(notify.SMSConfig{Provider: c.SMSProvider, URL: c.SMSURL, Account: c.SMSAccount,
		Token: c.SMSToken, From: c.SMSFrom})
	if err != nil {
		return nil, err
	}
	hook, err := notify.NewWebhookSender(notify.WebhookConfig{AllowedHosts: c.WebhookAllowedHosts})
	if err != nil {
		return nil, err
	}
	return map[string]notify.Sender{store.ChannelEmail: email, store.ChannelSMS: sms, store.ChannelWebhook: hook}, nil
}

// newDispatcher builds the delivery dispatcher with the configured senders;
// email and SMS settings saved from the console override them per
// restaurant, read at each send (docs/NOTIFICATIONS.md).
func newDispatcher(st *store.Store, cfg Config, log *slog.Logger) (*notify.Dispatcher, error) {
	senders, err := cfg.notifySenders()
	if err != nil {
		return nil, err
	}
	helo, _ := os.Hostname()
	return notify.New(st, notify.Options{Senders: senders, Language: cfg.Language, Logger: log, HELO: helo}), nil
}

// startNotifications runs the delivery dispatcher on ctx and schedules the
// daily report (checked every minute, sent once per restaurant and local
// date at daily_report_time).
func startNotifications(ctx context.Context, workers *sync.WaitGroup, sched *cron.Cron, st *store.Store,
	d *notify.Dispatcher, cfg Config, log *slog.Logger) error {
	workers.Add(1)
	go func() {
		defer workers.Done()
		if err := d.Run(ctx); err != nil {
			log.Error("notifications stopped", "err", err)
		}
	}()
	daily := &notify.DailyReporter{St: st, At: cfg.DailyReportTime, Log: log}
	_, err := sched.AddFunc("* * * * *", func() {
		if err := daily.Run(ctx); err != nil && ctx.Err() == nil {
			log.Error("daily report", "err", err)
		}
	})
	return err
}
