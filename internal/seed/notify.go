package seed

import (
	"context"
	"time"

	"posbox/store"
)

// failedPerHundred of the deliveries fail for good (the webhook's
// server was down all day).
const failedPerHundred = 4

// notificationRules: the owner's daily report by webhook and the staff's
// shift changes by email.
func (g *gen) notificationRules(ctx context.Context) error {
	for _, n := range []*store.NotificationSetting{
		{Channel: store.ChannelWebhook, EventType: store.EventDailyReport, Destination: "https://hooks.example.com/posbox/daily"},
		{Channel: store.ChannelEmail, EventType: store.EventShiftChange, Destination: "dienstplan@example.com"},
	} {
		n.RestaurantID, n.IsEnabled = g.r.ID, true
		if n.Channel == store.ChannelWebhook {
			n.Secret = store.NewWebhookSecret()
		}
		if err := g.st.CreateNotificationSetting(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// dailyReport publishes the day's report the next morning, as notify's
// DailyReporter does, then delivers what is queued.
func (g *gen) dailyReport(ctx context.Context, day time.Time) error {
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
