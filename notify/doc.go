// Package notify delivers events to people and systems: email through
// go-mail, SMS through an HTTP provider, and Standard Webhooks. The
// Dispatcher drains the durable queue the store fills when an event is
// written; every attempt becomes a log entry. It imports store, never
// server; the server reaches it through server.Notifier
// (docs/NOTIFICATIONS.md for the owner).
//
// The queue is written with the event: store.InsertEvent, the one place
// events are written, adds one notification_deliveries row per enabled
// rule of the restaurant and type in the producer's transaction, so every
// producer (shifts, discounts, TSE, POST /api/events, the daily report)
// delivers without knowing of notifications, and an event cannot commit
// without its deliveries or the other way round (UNIQUE(event_id,
// setting_id) refuses a double enqueue).
//
// dispatcher.go: a loop that claims due rows and hands them to 4
// workers, at most one delivery per rule at a time
// (the store's spread claim), so a receiver that hangs holds one
// worker until its timeout, never the other rules', and a rule's
// deliveries go out in order. A claim is one UPDATE … RETURNING in a
// BEGIN IMMEDIATE transaction, so two dispatchers never claim a row
// twice. It wakes on the store's nudge after a commit that queued
// deliveries and polls once a second for due retries; its clock is the
// store's, so retry timing is tested by moving the clock. At send time the
// rule is read again: a disabled, deleted or retyped rule cancels the
// delivery, an edited destination is used. After a send, the log row and
// the delivery's new state are one transaction; a crash between the send
// and that write sends again after the restart (at least once; receivers
// dedupe on webhook-id, fixed per delivery). At start in_flight rows go
// back to pending (one dispatcher per database); at stop, sends under
// way finish (30 s at most) and claimed rows not started are handed back.
//
// retry.go: attempts at 0, 5 s, 1 min, 5 min, 30 min, 2 h, 6 h and 12 h
// (±20 % jitter; a longer Retry-After up to 6 h wins): about 20.6 h, which
// covers a night offline while a POS event still matters. 410 Gone is a
// plain permanent failure: rules belong to the admin and are never
// switched off behind their back.
//
// Senders implement Sender; errors are *Failure{Retryable, Temporary,
// RetryAfter}. email.go: one connection per mail; smtp_tls maps to
// go-mail's TLSMandatory, implicit TLS, TLSOpportunistic or NoTLS; an SMTP
// error is never retried, its temporary flag is logged. sms.go: twilio
// (form and basic auth) or generic (JSON and bearer), one attempt.
// webhook.go: Standard Webhooks v1 signed with crypto/hmac (the spec's Go
// test vector is a unit test); no redirects, no proxy, and hostmatch.go's
// allow list is checked on the resolved address in the dialer's Control
// hook, so DNS rebinding cannot reach a forbidden address. channels.go
// picks a restaurant's email and SMS sender at each send: the settings
// saved from the console over the configuration file's.
//
// texts.go: one function per event type and language (German default,
// English) gives the one-line summary (subject, SMS, log message) and an
// email body listing every data field, so unknown types stay readable;
// HTML through html/template; money from cents (45,80 € / €45.80),
// instants on the restaurant's wall clock; TSE reason codes in words.
// Test sends use the same senders synchronously (15 s), are logged with
// event_type test and never queued; a webhook test is signed with the
// rule's secret for that destination, or one made for the test.
//
// daily.go: DailyReporter runs every minute on main's UTC cron; for each
// restaurant whose local time has passed daily_report_time it builds
// yesterday's report (store.BuildDailyReport) and publishes the
// daily_report event with the date recorded in kv in the same
// transaction, so a restart never sends it twice; a day the box was off
// gets no report (no catch-up storm).
//
// Not done on purpose: per-rule rate limits, quiet hours, manual resend,
// log retention (one row per attempt, a few hundred a day).
package notify
