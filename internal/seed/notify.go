package seed

import (
	"context"
	"time"

	"posbox/store"
)

// failedPerHundred of the deliveries fail for good (the webhook's
// server was down all day).
const failedPerHundred = 4

// reportDays: the owner turned the daily report on this many days ago.
// (Building a report scans the transactions' business times, which no
// index orders: over years of history every report would cost a scan of
// all of them. That is the box's cost too; the benchmark measures it.)
const reportDays = 60

// notificationRules: the staff's shift changes by email from the start.
func (g *gen) notificationRules(ctx context.Context) error {
	return g.rule(ctx, &store.NotificationSetting{Channel: store.ChannelEmail, EventType: store.EventShiftChange,
		Destination: "dienstplan@example.com"})
}

func (g *gen) rule(ctx context.Context, n *store.NotificationSetting) error {
	n.RestaurantID, n.IsEnabled = g.r.ID, true
	if n.Channel == store.ChannelWebhook {
		n.Secret = store.NewWebhookSecret()
	}
	return g.st.CreateNotificationSetting(ctx, n)
}

// dailyReport publishes the day's report the next morning, as notify's
// DailyReporter does, for the last reportDays days (the webhook rule is
// made on the first), then delivers what is queued.
func (g *gen) dailyReport(ctx context.Context, day time.Time) error {
	if day.Before(g.today.AddDate(0, 0, -reportDays)) {
		return g.deliverAt(ctx, g.at(day.AddDate(0, 0, 1), 6, 0))
	}
	if !g.reporting {
		g.clock.Set(g.at(day, 10, 0))
		if err := g.rule(ctx, &store.NotificationSetting{Channel: store.ChannelWebhook, EventType: store.EventDailyReport,
			Destination: "https://hooks.example.com/posbox/daily"}); err != nil {
			return err
		}
		g.reporting = true
	}
	g.clock.Set(g.at(day.AddDate(0, 0, 1), 6, 0))
	rep, err := g.st.BuildDailyReport(ctx, g.r, day.Format(store.DateFormat))
	if err != nil {
		return err
	}
	if _, err := g.st.PublishDailyReport(ctx, g.r.ID, rep); err != nil {
		return err
	}
	g.res.Events++
	return g.deliver(ctx)
}

// deliverAt is deliver at t.
func (g *gen) deliverAt(ctx context.Context, t time.Time) error {
	g.clock.Set(t)
	return g.deliver(ctx)
}

// deliver sends every due delivery once: delivered, or failed for good.
func (g *gen) deliver(ctx context.Context) error {
	settings, err := g.st.NotificationSettings(ctx, g.r.ID)
	if err != nil {
		return err
	}
	byID := map[string]*store.NotificationSetting{}
	for _, s := range settings {
		byID[s.ID] = s
	}
	for {
		now := g.clock.Now()
		ds, err := g.st.ClaimDeliveries(ctx, now, 200, nil)
		if err != nil || len(ds) == 0 {
			return err
		}
		for _, d := range ds {
			s := byID[d.SettingID]
			log := &store.NotificationLog{RestaurantID: g.r.ID, SettingID: &d.SettingID, DeliveryID: &d.ID, Channel: s.Channel,
				EventType: s.EventType, Destination: s.Destination, Status: store.LogDelivered, Attempt: 1}
			if g.rnd.IntN(100) < failedPerHundred {
				msg := "connection refused"
				log.Status, log.Error = store.LogFailed, &msg
				g.res.FailedDeliveries++
			}
			if err := g.st.CompleteAttempt(ctx, d, store.Attempt{Log: log}); err != nil {
				return err
			}
			g.res.Deliveries++
		}
	}
}
