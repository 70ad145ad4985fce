package retention

import (
	"context"
	"fmt"
	"testing"
	"time"

	"posbox/store"
)

// Erasing a staff member who left: refused while active (nothing
// changes); once deactivated, email, password, PIN and the rule that
// mailed her go at once, her tokens end, the audit record says who erased
// whom and when; name and staff number stay for the time records until
// their six years end, then the job pseudonymises them. The receipts'
// own copy of her name is never touched.
func TestEraseNowWhatMayGoAndPseudonymiseWhenTheTimeRecordsGo(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, local(2026, time.March, 2, 10, 0))
	seedFiscal(t, f, f.clock.Now())
	f.exec(t, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, created_at, updated_at)
		VALUES ('te1', '`+f.rest.ID+`', '`+f.staff.ID+`', '2026-03-01T09:00:00.000Z', '2026-03-01T17:00:00.000Z', '2026-03-01T17:00:00.000Z', '2026-03-01T17:00:00.000Z')`)
	rule := &store.NotificationSetting{RestaurantID: f.rest.ID, Channel: store.ChannelEmail, EventType: "shift_change",
		Destination: "KIM@linde.test", IsEnabled: true}
	if err := f.st.CreateNotificationSetting(ctx, rule); err != nil {
		t.Fatal(err)
	}
	other := &store.NotificationSetting{RestaurantID: f.rest.ID, Channel: store.ChannelEmail, EventType: "daily_report",
		Destination: "chefin@linde.test", IsEnabled: true}
	if err := f.st.CreateNotificationSetting(ctx, other); err != nil {
		t.Fatal(err)
	}

	sums := f.tableSums(t)
	if _, err := f.st.EraseUser(ctx, f.rest.ID, f.staff.ID, f.admin.ID); store.ErrorCode(err) != store.EUserActive {
		t.Fatalf("erasing an active user: %v, want %s", err, store.EUserActive)
	}
	for name, sum := range f.tableSums(t) {
		if sums[name] != sum {
			t.Errorf("the refused erasure changed %s", name)
		}
	}

	if _, err := f.st.UpdateUser(ctx, f.rest.ID, f.staff.ID, store.UserUpdate{IsActive: store.Of(false), ByUserID: f.admin.ID}); err != nil {
		t.Fatal(err)
	}
	f.clock.Set(local(2026, time.April, 1, 9, 0))
	e, err := f.st.EraseUser(ctx, f.rest.ID, f.staff.ID, f.admin.ID)
	if err != nil {
		t.Fatal(err)
	}
	if e.UserID != f.staff.ID || e.ErasedBy != f.admin.ID || !e.ErasedAt.Equal(f.clock.Now()) {
		t.Errorf("audit record %+v", e)
	}
	var email, name, hash, staffNo string
	var pin *string
	var version int
	if err := f.st.ReadDB().QueryRow(`SELECT email, name, password_hash, pin_hash, staff_number, token_version FROM users WHERE id = ?`,
		f.staff.ID).Scan(&email, &name, &hash, &pin, &staffNo, &version); err != nil {
		t.Fatal(err)
	}
	if email == f.staff.Email || hash != "" || pin != nil || version <= f.staff.TokenVersion {
		t.Errorf("after the erasure: email %q, password hash %q, PIN %v, token version %d (was %d)", email, hash, pin, version, f.staff.TokenVersion)
	}
	if name != "Kim Koch" || staffNo != "0042" {
		t.Errorf("name %q, staff number %q: the time records' period still needs them", name, staffNo)
	}
	if _, err := f.st.AuthUser(ctx, f.rest.ID, f.staff.ID); !store.IsNotFound(err) {
		t.Errorf("the erased user still authenticates: %v", err)
	}
	if _, err := f.st.NotificationSetting(ctx, f.rest.ID, rule.ID); !store.IsNotFound(err) {
		t.Errorf("the rule mailing her is still there: %v", err)
	}
	if _, err := f.st.NotificationSetting(ctx, f.rest.ID, other.ID); err != nil {
		t.Errorf("another address's rule went: %v", err)
	}
	if _, err := f.st.EraseUser(ctx, f.rest.ID, f.staff.ID, f.admin.ID); store.ErrorCode(err) != store.EUserErased {
		t.Errorf("a second erasure: %v, want %s", err, store.EUserErased)
	}

	f.clock.Set(local(2033, time.December, 31, 12, 0)) // seven years after 2026 not yet over
	f.touch(t)
	if rep, err := f.job().Run(ctx); err != nil || rep.Pseudonymised != 0 {
		t.Fatalf("in 2033: %+v, %v; the name is still needed", rep, err)
	}
	f.clock.Set(local(2034, time.January, 1, 0, 41))
	f.touch(t)
	rep, err := f.job().Run(ctx)
	if err != nil || rep.Pseudonymised != 1 || rep.TimeEntries != 1 {
		t.Fatalf("in 2034: %+v, %v; want her time entry gone and her name pseudonymised", rep, err)
	}
	if err := f.st.ReadDB().QueryRow(`SELECT name, coalesce(staff_number, '') FROM users WHERE id = ?`, f.staff.ID).Scan(&name, &staffNo); err != nil {
		t.Fatal(err)
	}
	if name != store.PseudonymFor(f.staff.ID) || staffNo != "" {
		t.Errorf("name %q, staff number %q after the time records' period", name, staffNo)
	}
	if n := f.count(t, `SELECT count(*) FROM tse_sale_details WHERE operator_name = 'Kim Koch'`); n != 2 {
		t.Errorf("%d receipts still name her, want 2: receipts are fiscal records", n)
	}
	ers, err := f.st.UserErasures(ctx, f.rest.ID)
	if err != nil || len(ers) != 1 || ers[0].PseudonymisedAt == nil {
		t.Errorf("erasure records %+v, %v", ers, err)
	}
}

// SMTP errors quote the recipient: after the erasure the address is
// nowhere in the notification log or the deliveries' last errors, while
// the log of other addresses stays.
func TestEraseLeavesTheAddressInNoLogOrError(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, local(2026, time.March, 2, 10, 0))
	rule := &store.NotificationSetting{RestaurantID: f.rest.ID, Channel: store.ChannelEmail, EventType: "shift_change",
		Destination: "Kim@Linde.test", IsEnabled: true}
	if err := f.st.CreateNotificationSetting(ctx, rule); err != nil {
		t.Fatal(err)
	}
	r, now := f.rest.ID, ts(f.clock.Now())
	logRow := func(id, dest, errText string) string {
		return `INSERT INTO notification_logs (id, restaurant_id, channel, event_type, destination, status, error, attempt, sent_at)
			VALUES ('` + id + `', '` + r + `', 'email', 'shift_change', '` + dest + `', 'failed', '` + errText + `', 1, '` + now + `')`
	}
	f.exec(t,
		`INSERT INTO events (id, restaurant_id, type, data, created_at) VALUES ('ev1', '`+r+`', 'shift_change', '{}', '`+now+`')`,
		`INSERT INTO notification_deliveries (id, restaurant_id, event_id, setting_id, webhook_id, status, last_error, next_attempt_at, created_at, updated_at)
			VALUES ('de1', '`+r+`', 'ev1', '`+rule.ID+`', 'msg_de1', 'failed', '550 5.1.1 <kim@linde.test>: mailbox full', '`+now+`', '`+now+`', '`+now+`')`,
		logRow("lg-kim", "kim@linde.test", "550 5.1.1 <kim@linde.test>: mailbox full"),
		logRow("lg-other-quotes-kim", "chefin@linde.test", "RCPT kim@linde.test refused"),
		logRow("lg-other", "chefin@linde.test", "550 mailbox full"),
	)
	if _, err := f.st.UpdateUser(ctx, f.rest.ID, f.staff.ID, store.UserUpdate{IsActive: store.Of(false), ByUserID: f.admin.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.EraseUser(ctx, f.rest.ID, f.staff.ID, f.admin.ID); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`SELECT count(*) FROM notification_logs WHERE instr(lower(destination || ' ' || coalesce(error, '')), 'kim@linde.test') > 0`,
		`SELECT count(*) FROM notification_deliveries WHERE instr(lower(coalesce(last_error, '')), 'kim@linde.test') > 0`,
	} {
		if n := f.count(t, q); n != 0 {
			t.Errorf("%d rows still hold the address: %s", n, q)
		}
	}
	if got := fmt.Sprint(f.ids(t, "notification_logs")); got != "[lg-other]" {
		t.Errorf("log entries left %s, want [lg-other]", got)
	}
}
