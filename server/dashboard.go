package server

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
	"posbox/tse"
)

// dashboardJSON is GET /api/dashboard: what the console's first screen
// shows, in one request (the TSE's health is GET /api/tse/status).
type dashboardJSON struct {
	Date          string                 `json:"date"` // today, local
	Timezone      string                 `json:"timezone"`
	GeneratedAt   string                 `json:"generated_at"`
	ClockedIn     []clockedInJSON        `json:"clocked_in"`
	Today         todayJSON              `json:"today"`
	Notifications dashboardNotifications `json:"notifications"`
	// TSE says who signs (null when no TSE is configured); its health is
	// GET /api/tse/status.
	TSE *dashboardTSEJSON `json:"tse"`
}

// dashboardTSEJSON: the provider, and whether it is the built-in
// simulator, whose receipts are not valid for tax purposes.
type dashboardTSEJSON struct {
	Provider  string `json:"provider"`
	Simulated bool   `json:"simulated"`
}

// clockedInJSON is one open time entry: who, since when, hours so far.
type clockedInJSON struct {
	TimeEntryID string      `json:"time_entry_id"`
	UserID      string      `json:"user_id"`
	UserName    string      `json:"user_name"`
	ClockIn     string      `json:"clock_in"`
	WorkedHours json.Number `json:"worked_hours"`
	// OpenTooLong: open past the restaurant's limit, to review (a forgotten
	// clock-out); FlaggedAt: when the check raised its event.
	OpenTooLong bool    `json:"open_too_long"`
	FlaggedAt   *string `json:"open_flagged_at"`
}

// todayJSON sums the entries that began today (local), per staff member.
type todayJSON struct {
	WorkedHours json.Number     `json:"worked_hours"`
	Entries     int             `json:"entries"`
	ByUser      []userHoursJSON `json:"by_user"`
}

type userHoursJSON struct {
	UserID      string      `json:"user_id"`
	UserName    string      `json:"user_name"`
	WorkedHours json.Number `json:"worked_hours"`
	Entries     int         `json:"entries"`
}

type dashboardNotifications struct {
	FailedLast24h int `json:"failed_last_24h"`
	Queued        int `json:"queued"`
}

// dashboard is GET /api/dashboard (admin).
func (s *Server) dashboard(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	c := caller(r.Context())
	now := s.now()
	today := now.In(c.restaurant.Location()).Format(store.DateFormat)
	open, err := s.store.OpenEntries(r.Context(), c.restaurant.ID)
	if err != nil {
		return err
	}
	entries, err := s.store.TimeEntries(r.Context(), c.restaurant, today)
	if err != nil {
		return err
	}
	counts, err := s.store.CountDeliveries(r.Context(), c.restaurant.ID, now.Add(-24*time.Hour))
	if err != nil {
		return err
	}
	out := dashboardJSON{Date: today, Timezone: c.restaurant.Timezone, GeneratedAt: ts(now),
		ClockedIn:     make([]clockedInJSON, 0, len(open)),
		Today:         todayJSON{Entries: len(entries), ByUser: []userHoursJSON{}},
		Notifications: dashboardNotifications{FailedLast24h: counts.FailedSince, Queued: counts.Queued}}
	if s.cfg.TSE != nil {
		kind := s.cfg.TSE.Kind()
		out.TSE = &dashboardTSEJSON{Provider: kind, Simulated: kind == tse.KindSimulator}
	}
	for _, e := range open {
		out.ClockedIn = append(out.ClockedIn, clockedInJSON{e.ID, e.UserID, e.UserName, ts(e.ClockIn),
			store.HoursJSON(e.WorkedHundredths(now)), c.restaurant.OpenTooLong(e, now), tsPtr(e.OpenFlaggedAt)})
	}
	// Hours are summed in hundredths per entry, as each entry shows them.
	var total int64
	perUser := map[string]int{}
	var sums []int64
	for _, e := range entries {
		h := e.WorkedHundredths(now)
		total += h
		i, ok := perUser[e.UserID]
		if !ok {
			i = len(out.Today.ByUser)
			perUser[e.UserID] = i
			out.Today.ByUser = append(out.Today.ByUser, userHoursJSON{UserID: e.UserID, UserName: e.UserName})
			sums = append(sums, 0)
		}
		sums[i] += h
		out.Today.ByUser[i].Entries++
	}
	for i := range out.Today.ByUser {
		out.Today.ByUser[i].WorkedHours = store.HoursJSON(sums[i])
	}
	out.Today.WorkedHours = store.HoursJSON(total)
	return writeJSON(w, http.StatusOK, envelope{"dashboard": out})
}
