package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"posbox/store"
)

// scheduleEntryJSON is one entry of a discount's schedule on the wire:
// the same from-to range on each of its days (1 = Monday .. 7 = Sunday),
// local wall-clock times "HH:MM"; to <= from runs past midnight.
type scheduleEntryJSON struct {
	Days []int  `json:"days"`
	From string `json:"from"`
	To   string `json:"to"`
}

// UnmarshalJSON refuses unknown members inside an entry, as the body's
// decoder does at the top (Field's decoding would let them pass).
func (e *scheduleEntryJSON) UnmarshalJSON(b []byte) error {
	type plain scheduleEntryJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p plain
	if err := dec.Decode(&p); err != nil {
		return err
	}
	*e = scheduleEntryJSON(p)
	return nil
}

// scheduleField converts the schedule member into the store's windows,
// one per day and range; each malformed day or time is named in f. The
// store checks the whole (at least one window, at most 28, no exact
// duplicate).
func scheduleField(f *store.Fields, in store.Field[[]scheduleEntryJSON]) store.Field[[]store.ScheduleWindow] {
	out := store.Field[[]store.ScheduleWindow]{Set: in.Set, Null: in.Null}
	if !in.Set || in.Null {
		return out
	}
	out.Value = []store.ScheduleWindow{}
	for i, e := range in.Value {
		at := fmt.Sprintf("schedule[%d].", i)
		from, okFrom := store.ParseClock(e.From)
		if !okFrom {
			f.Add(at+"from", store.FNotTime, "must be a time HH:MM (00:00-23:59)")
		}
		to, okTo := store.ParseClock(e.To)
		if !okTo {
			f.Add(at+"to", store.FNotTime, "must be a time HH:MM (00:00-23:59)")
		}
		if len(e.Days) == 0 {
			f.Add(at+"days", store.FTooFew, "must name at least 1 day", "min", 1)
		}
		for j, d := range e.Days {
			switch {
			case d < 1 || d > 7:
				f.Add(fmt.Sprintf("%sdays[%d]", at, j), store.FOutOfRange, "must be from 1 (Monday) to 7 (Sunday)", "min", 1, "max", 7)
			case slices.Contains(e.Days[:j], d):
				f.Add(fmt.Sprintf("%sdays[%d]", at, j), store.FDuplicate, fmt.Sprintf("names day %d twice", d))
			case okFrom && okTo:
				out.Value = append(out.Value, store.ScheduleWindow{Weekday: d, From: from, To: to})
			}
		}
	}
	return out
}

// scheduleJSON groups a discount's windows for the answer: one entry per
// from-to range with the days that have it, in the order of the first
// day that has it (the windows come sorted by day and start). nil is
// null: always open.
func scheduleJSON(ws []store.ScheduleWindow) []scheduleEntryJSON {
	if ws == nil {
		return nil
	}
	out := []scheduleEntryJSON{}
	index := map[[2]int]int{}
	for _, w := range ws {
		k := [2]int{w.From, w.To}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, scheduleEntryJSON{From: store.FormatClock(w.From), To: store.FormatClock(w.To)})
		}
		out[i].Days = append(out[i].Days, w.Weekday)
	}
	return out
}
