package store

import (
	"context"
	"encoding/json"
	"strconv"
)

// The payloads of shift_change, clock_in and clock_out events. They are
// delivered as a webhook's "data" and rendered into email/SMS text, so
// each one stands on its own: names, local wall times and the timezone,
// not only ids.

// eventUser names who did something.
type eventUser struct {
	UserID string `json:"user_id"`
	Name   string `json:"name"`
}

// ShiftCore is a shift's own fields in the order they are read. The
// shift_change event holds it (the events table keeps that JSON and
// webhooks deliver it), and the API's shift begins with it (server embeds
// it), so the event and the answer cannot drift apart.
type ShiftCore struct {
	ID           string  `json:"id"`
	UserID       string  `json:"user_id"`
	UserName     string  `json:"user_name"`
	ShiftDate    string  `json:"shift_date"`
	StartTime    string  `json:"start_time"`
	EndTime      string  `json:"end_time"`
	BreakMinutes int     `json:"break_minutes"`
	Role         string  `json:"role"`
	Status       string  `json:"status"`
	Notes        *string `json:"notes"`
}

// Core is the shift's own fields.
func (sh *Shift) Core() ShiftCore {
	return ShiftCore{sh.ID, sh.UserID, sh.UserName, sh.ShiftDate, sh.StartTime, sh.EndTime, sh.BreakMinutes,
		sh.Role, sh.Status, sh.Notes}
}

// eventShift is a shift's own fields plus its UTC instants.
type eventShift struct {
	ShiftCore
	StartsAt string `json:"starts_at"`
	EndsAt   string `json:"ends_at"`
}

func toEventShift(sh *Shift) *eventShift {
	return &eventShift{sh.Core(), FormatTime(sh.StartsAt), FormatTime(sh.EndsAt)}
}

// ShiftChange is the data of a shift_change event. Action is created,
// updated, status_changed, deleted or published; Previous and Changed are set for
// updated and status_changed.
type ShiftChange struct {
	Action   string      `json:"action"`
	Shift    *eventShift `json:"shift"`
	Previous *eventShift `json:"previous,omitempty"`
	Changed  []string    `json:"changed,omitempty"`
	By       eventUser   `json:"by"`
	Timezone string      `json:"timezone"`
}

// shiftEvent raises shift_change for a published shift; a draft's
// changes are the admins' own until its week is published (then
// PublishWeek raises "published"). A change is judged by the shift as it
// was (old, or sh for created and deleted).
func shiftEvent(ctx context.Context, tx *Tx, r *Restaurant, by *User, action string, sh, old *Shift, changed []string) error {
	if was := shiftOr(old, sh); was.PublishedAt == nil {
		return nil
	}
	d := ShiftChange{Action: action, Shift: toEventShift(sh), Changed: changed, By: eventUser{by.ID, by.Name}, Timezone: r.Timezone}
	if old != nil {
		d.Previous = toEventShift(old)
	}
	_, err := InsertEvent(ctx, tx, r.ID, EventShiftChange, d)
	return err
}

// ClockEvent is the data of a clock_in or clock_out event. LocalTime is
// the punch on the restaurant's wall clock ("2026-11-22 10:00").
type ClockEvent struct {
	Action    string         `json:"action"`
	TimeEntry eventTimeEntry `json:"time_entry"`
	LocalTime string         `json:"local_time"`
	Timezone  string         `json:"timezone"`
}

type eventTimeEntry struct {
	ID           string       `json:"id"`
	UserID       string       `json:"user_id"`
	UserName     string       `json:"user_name"`
	ClockIn      string       `json:"clock_in"`
	ClockOut     *string      `json:"clock_out"`
	BreakMinutes int          `json:"break_minutes"`
	WorkedHours  *json.Number `json:"worked_hours,omitempty"` // clock_out only
}

func clockEvent(ctx context.Context, tx *Tx, r *Restaurant, typ string, e *TimeEntry) error {
	d := ClockEvent{Action: typ, Timezone: r.Timezone, TimeEntry: eventTimeEntry{
		ID: e.ID, UserID: e.UserID, UserName: e.UserName, ClockIn: FormatTime(e.ClockIn), BreakMinutes: e.BreakMinutes}}
	punch := e.ClockIn
	if e.ClockOut != nil {
		out := FormatTime(*e.ClockOut)
		h := HoursJSON(e.WorkedHundredths(*e.ClockOut))
		d.TimeEntry.ClockOut, d.TimeEntry.WorkedHours, punch = &out, &h, *e.ClockOut
	}
	d.LocalTime = punch.In(r.Location()).Format("2006-01-02 15:04")
	_, err := InsertEvent(ctx, tx, r.ID, typ, d)
	return err
}

// HoursJSON renders hundredths of an hour as a JSON number with at most
// two decimals: 750 → 7.5, 825 → 8.25, 800 → 8.
func HoursJSON(h int64) json.Number {
	s := strconv.FormatInt(h/100, 10)
	if frac := h % 100; frac != 0 {
		fs := strconv.FormatInt(frac+100, 10)[1:]
		if fs[1] == '0' {
			fs = fs[:1]
		}
		s += "." + fs
	}
	return json.Number(s)
}

// shiftOr is a when it is set, else b.
func shiftOr(a, b *Shift) *Shift {
	if a != nil {
		return a
	}
	return b
}
