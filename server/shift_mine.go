package server

import (
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// maxMineDays bounds GET /api/shifts/mine's range (a staff member's view,
// not an export).
const maxMineDays = 92

// myShifts is GET /api/shifts/mine?date_from&date_to (any user): the
// caller's own published shifts, every status, with notes; their warnings
// are judged against the published plan only. The default range is this
// week and next (Monday to Sunday) in the restaurant's timezone.
func (s *Server) myShifts(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	c := caller(r.Context())
	q := r.URL.Query()
	from, to := defaultMineRange(s.now().In(c.restaurant.Location()))
	var f store.Fields
	if v := q.Get("date_from"); v != "" {
		from = parseDate(&f, "date_from", v)
	}
	if v := q.Get("date_to"); v != "" {
		to = parseDate(&f, "date_to", v)
	}
	if err := f.Err(); err != nil {
		return err
	}
	df, _ := time.Parse(store.DateFormat, from)
	dt, _ := time.Parse(store.DateFormat, to)
	switch {
	case dt.Before(df):
		return store.Invalid("date_to", store.FBeforeField, "must not be before date_from", "field", "date_from")
	case dt.Sub(df) >= maxMineDays*24*time.Hour:
		return store.Invalid("date_to", store.FRangeTooLong, "the range may span at most 92 days", "days", 92)
	}
	shifts, err := s.store.UserShifts(r.Context(), c.restaurant.ID, c.user.ID, from, to)
	if err != nil {
		return err
	}
	out, err := s.shiftsJSONWith(r, shifts, s.store.PublishedShiftsWarnings)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"shifts": out})
}

// defaultMineRange is Monday of this week to Sunday of next week of the
// local date of now.
func defaultMineRange(now time.Time) (from, to string) {
	d := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	monday := d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	return monday.Format(store.DateFormat), monday.AddDate(0, 0, 13).Format(store.DateFormat)
}
