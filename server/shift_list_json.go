package server

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"posbox/store"
)

// The week of shifts is the most often read large answer (200 shifts,
// about 70 KB): renderShiftList writes it straight from the shifts into
// one pre-sized buffer, byte for byte what writeJSON would make of
// envelope{"shifts": toShiftsJSON(...)} (TestShiftListJSONIsEncodingJSONs
// holds it to that), without the reflection of encoding/json over 200
// structs and their 3,000 fields. A string that needs escaping still
// goes through encoding/json.

// shiftListBytes is a guess of one shift's size, so the buffer is
// allocated once for a typical week.
const shiftListBytes = 420

// renderShiftList renders {"shifts":[...]} with each shift's warnings.
func renderShiftList(shifts []*store.Shift, ws map[string][]store.LabourWarning) []byte {
	b := make([]byte, 0, 16+len(shifts)*shiftListBytes)
	b = append(b, `{"shifts":[`...)
	for i, sh := range shifts {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendShiftJSON(b, sh, ws[sh.ID])
	}
	return append(b, "]}\n"...)
}

// appendShiftJSON appends one shift in shiftJSON's field order.
func appendShiftJSON(b []byte, sh *store.Shift, ws []store.LabourWarning) []byte {
	b = appendField(b, `{"id":`, sh.ID)
	b = appendField(b, `,"user_id":`, sh.UserID)
	b = appendField(b, `,"user_name":`, sh.UserName)
	b = appendField(b, `,"shift_date":`, sh.ShiftDate)
	b = appendField(b, `,"start_time":`, sh.StartTime)
	b = appendField(b, `,"end_time":`, sh.EndTime)
	b = strconv.AppendInt(append(b, `,"break_minutes":`...), int64(sh.BreakMinutes), 10)
	b = appendField(b, `,"role":`, sh.Role)
	b = appendField(b, `,"status":`, sh.Status)
	b = append(b, `,"notes":`...)
	if sh.Notes == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, *sh.Notes)
	}
	b = appendInstant(append(b, `,"created_at":`...), sh.CreatedAt)
	b = appendInstant(append(b, `,"updated_at":`...), sh.UpdatedAt)
	b = append(b, `,"warnings":`...)
	b = appendWarnings(b, ws)
	b = append(b, `,"published_at":`...)
	if sh.PublishedAt == nil {
		b = append(b, "null"...)
	} else {
		b = appendInstant(b, *sh.PublishedAt)
	}
	b = strconv.AppendBool(append(b, `,"unstaffed":`...), sh.Unstaffed())
	b = append(append(b, `,"planned_hours":`...), store.HoursJSON(sh.PlannedHundredths())...)
	return append(b, '}')
}

// appendWarnings appends ws as warningJSON's list: the params' keys
// sorted, as encoding/json writes a map.
func appendWarnings(b []byte, ws []store.LabourWarning) []byte {
	b = append(b, '[')
	for i, w := range ws {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendField(b, `{"code":`, w.Code)
		b = appendField(b, `,"rule":`, w.Rule)
		b = appendField(b, `,"date":`, w.Date)
		b = appendField(b, `,"message":`, w.Message)
		b = append(b, `,"params":`...)
		if w.Params == nil {
			b = append(b, "null}"...)
			continue
		}
		b = append(b, '{')
		for j, k := range slices.Sorted(maps.Keys(w.Params)) {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(append(appendJSONString(b, k), ':'), int64(w.Params[k]), 10)
		}
		b = append(b, "}}"...)
	}
	return append(b, ']')
}

func appendField(b []byte, key, v string) []byte { return appendJSONString(append(b, key...), v) }

// appendInstant appends an instant as ts renders it, quoted.
func appendInstant(b []byte, t time.Time) []byte {
	return append(t.UTC().AppendFormat(append(b, '"'), store.TimeFormat), '"')
}

// appendJSONString appends s quoted. Valid UTF-8 without control
// characters, " and \ is copied as it is (names like "Müller" too);
// anything else (escapes, U+2028/U+2029, invalid UTF-8) is encoding/json's
// business, so the rules stay exactly its own.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' {
				return appendEncoded(b, s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return appendEncoded(b, s)
		}
		i += size
	}
	return append(append(append(b, '"'), s...), '"')
}

// appendEncoded appends s as encoding/json writes it (HTML not escaped).
func appendEncoded(b []byte, s string) []byte {
	raw, err := renderJSON(s)
	if err != nil { // a string always encodes
		panic(err)
	}
	return append(b, bytes.TrimSuffix(raw, []byte("\n"))...)
}
