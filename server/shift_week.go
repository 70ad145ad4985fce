package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// The plan of a whole week: publish it, or copy another week into it
// (docs/API.md "Scheduled shifts", docs/TIMECLOCK.md).

type publishWeekRequest struct {
	Week *string `json:"week"`
}

// publishJSON is the answer of publishing a week.
type publishJSON struct {
	From      string      `json:"from"`
	To        string      `json:"to"`
	Published int         `json:"published"`
	Shifts    []shiftJSON `json:"shifts"`
}

// publishWeek is POST /api/shifts/publish {week}: every draft of the week
// (Monday to Sunday of the date given) becomes visible to its staff
// member and raises shift_change. Idempotent: again, nothing is left.
func (s *Server) publishWeek(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req publishWeekRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "week", req.Week)
	if err := f.Err(); err != nil {
		return err
	}
	week, err := store.WeekOf("week", *req.Week)
	if err != nil {
		return err
	}
	c := caller(r.Context())
	shifts, err := s.store.PublishWeek(r.Context(), c.restaurant, c.user, week)
	if err != nil {
		return err
	}
	out, err := s.shiftsJSON(r, shifts)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"publish": publishJSON{week.From, week.To, len(shifts), out}})
}

type copyWeekRequest struct {
	FromWeek *string `json:"from_week"`
	ToWeek   *string `json:"to_week"`
}

// copySkipJSON is a shift of the source week that was not copied.
type copySkipJSON struct {
	ShiftID   string `json:"shift_id"`
	UserName  string `json:"user_name"`
	ShiftDate string `json:"shift_date"`
	StartTime string `json:"start_time"`
	EndTime   string `json:"end_time"`
	Reason    string `json:"reason"`
}

// copyJSON is the answer of copying a week.
type copyJSON struct {
	FromWeek string         `json:"from_week"`
	ToWeek   string         `json:"to_week"`
	Copied   int            `json:"copied"`
	Skipped  int            `json:"skipped"`
	Shifts   []shiftJSON    `json:"shifts"`
	Skips    []copySkipJSON `json:"skips"`
}

// copyWeek is POST /api/shifts/copy-week {from_week, to_week}: the
// source week's shifts as drafts in the target week, at the same wall
// times; what would overlap is skipped and named.
func (s *Server) copyWeek(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req copyWeekRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "from_week", req.FromWeek)
	required(&f, "to_week", req.ToWeek)
	if err := f.Err(); err != nil {
		return err
	}
	from, errFrom := store.WeekOf("from_week", *req.FromWeek)
	to, errTo := store.WeekOf("to_week", *req.ToWeek)
	if errFrom != nil {
		f.Add("from_week", store.FNotDate, "must be a date YYYY-MM-DD")
	}
	if errTo != nil {
		f.Add("to_week", store.FNotDate, "must be a date YYYY-MM-DD")
	}
	if err := f.Err(); err != nil {
		return err
	}
	c := caller(r.Context())
	copied, skipped, err := s.store.CopyWeek(r.Context(), c.restaurant, from, to)
	if err != nil {
		return err
	}
	out, err := s.shiftsJSON(r, copied)
	if err != nil {
		return err
	}
	skips := make([]copySkipJSON, 0, len(skipped))
	for _, sk := range skipped {
		src := sk.Source
		skips = append(skips, copySkipJSON{src.ID, src.UserName, src.ShiftDate, src.StartTime, src.EndTime, sk.Reason})
	}
	return writeJSON(w, http.StatusOK, envelope{"copy": copyJSON{from.From, to.From, len(copied), len(skipped), out, skips}})
}
