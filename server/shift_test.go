package server

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"posbox/store"
)

func TestShiftCreate(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	body := shiftBody(sam, "2026-11-23", "10:00", "16:30")
	body["break_minutes"], body["role"], body["notes"] = 30, "waiter", "terrace"
	rec := e.do(t, "POST", "/api/shifts", body, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	var wrapped map[string]json.RawMessage
	decodeInto(t, rec.Body.Bytes(), &wrapped)
	// The contract's fields, then the appliance's.
	wantKeys := []string{"id", "user_id", "user_name", "shift_date", "start_time", "end_time", "break_minutes", "role", "status", "notes", "created_at", "updated_at",
		"warnings", "published_at", "unstaffed", "planned_hours"}
	if got := jsonKeys(t, wrapped["shift"]); !reflect.DeepEqual(got, wantKeys) {
		t.Fatalf("field order %v, want %v", got, wantKeys)
	}
	sh := decodeJSON(t, rec)["shift"].(map[string]any)
	want := map[string]any{"user_id": sam.ID, "user_name": "Sam Staff", "shift_date": "2026-11-23", "start_time": "10:00",
		"end_time": "16:30", "break_minutes": 30.0, "role": "waiter", "status": "pending", "notes": "terrace",
		"created_at": "2026-11-22T09:00:00.000Z", "updated_at": "2026-11-22T09:00:00.000Z"}
	for k, v := range want {
		if sh[k] != v {
			t.Errorf("%s = %v, want %v", k, sh[k], v)
		}
	}
	if !store.ValidID(sh["id"].(string)) {
		t.Errorf("id %v is not a UUID", sh["id"])
	}

	t.Run("DefaultsWhenNotGiven", func(t *testing.T) {
		sh := e.createShift(t, shiftBody(sam, "2026-11-24", "10:00", "12:00"))
		if sh["role"] != "" || sh["notes"] != nil || sh["break_minutes"] != 0.0 || sh["status"] != "pending" {
			t.Fatalf("defaults: %v", sh)
		}
	})
	t.Run("NightShiftEndsNextDay", func(t *testing.T) {
		sh := e.createShift(t, shiftBody(sam, "2026-11-25", "18:00", "02:00"))
		got, err := e.st.Shift(context.Background(), e.restaurant.ID, sh["id"].(string))
		if err != nil {
			t.Fatal(err)
		}
		// Berlin is UTC+1 in November: 18:00 → 17:00Z, 02:00 next day → 01:00Z.
		if got.StartsAt != time.Date(2026, 11, 25, 17, 0, 0, 0, time.UTC) || got.EndsAt != time.Date(2026, 11, 26, 1, 0, 0, 0, time.UTC) {
			t.Fatalf("night shift spans %v - %v", got.StartsAt, got.EndsAt)
		}
		// The next morning overlaps the night shift's tail; touching its end does not.
		wantProblem(t, e.do(t, "POST", "/api/shifts", shiftBody(sam, "2026-11-26", "01:00", "03:00"), e.adminToken), http.StatusConflict, store.EShiftOverlap)
		e.createShift(t, shiftBody(sam, "2026-11-26", "02:00", "06:00"))
		// An 8 h night shift allows a break of up to 479 minutes.
		b := shiftBody(sam, "2026-11-27", "22:00", "06:00")
		b["break_minutes"] = 480
		wantFieldError(t, e.do(t, "POST", "/api/shifts", b, e.adminToken), "break_minutes")
		b["break_minutes"] = 479
		e.createShift(t, b)
	})
	t.Run("OverlapOnlyWithSameUserAndNotCancelled", func(t *testing.T) {
		kim, _ := e.staff(t, "Kim Cook")
		first := e.createShift(t, shiftBody(kim, "2026-12-01", "09:00", "17:00"))
		rec := e.do(t, "POST", "/api/shifts", shiftBody(kim, "2026-12-01", "16:59", "20:00"), e.adminToken)
		p := wantProblem(t, rec, http.StatusConflict, store.EShiftOverlap)
		if !strings.Contains(p["detail"].(string), first["id"].(string)) {
			t.Errorf("detail does not name the other shift: %v", p["detail"])
		}
		// conflict names it as a person knows it: whose, from when to when.
		want := map[string]any{"id": first["id"], "starts_at": "2026-12-01T08:00:00.000Z", "ends_at": "2026-12-01T16:00:00.000Z", "user_name": "Kim Cook"}
		if c, _ := p["conflict"].(map[string]any); !reflect.DeepEqual(c, want) {
			t.Errorf("conflict %v, want %v", p["conflict"], want)
		}
		e.createShift(t, shiftBody(kim, "2026-12-01", "17:00", "20:00")) // touching
		e.createShift(t, shiftBody(sam, "2026-12-01", "09:00", "17:00")) // another user
		wantStatus(t, e.do(t, "PATCH", "/api/shifts/"+first["id"].(string)+"/status", map[string]string{"status": "cancelled"}, e.adminToken), http.StatusOK)
		e.createShift(t, shiftBody(kim, "2026-12-01", "10:00", "12:00")) // the cancelled one blocks nothing
	})
}

func TestShiftValidation(t *testing.T) {
	e := newTestEnv(t)
	e.notifyOn(t, store.EventShiftChange) // so a wrongly raised event would be stored
	sam, _ := e.staff(t, "Sam Staff")
	off, _ := e.staff(t, "Off Duty")
	if _, err := e.st.UpdateUser(context.Background(), e.restaurant.ID, off.ID, store.UserUpdate{IsActive: store.Of(false)}); err != nil {
		t.Fatal(err)
	}
	gone, _ := e.staff(t, "Gone Away")
	if err := e.st.DeleteUser(context.Background(), e.restaurant.ID, gone.ID); err != nil {
		t.Fatal(err)
	}
	r2 := &store.Restaurant{Name: "Other", Timezone: "Europe/Vienna"}
	if err := e.st.CreateRestaurant(context.Background(), r2); err != nil {
		t.Fatal(err)
	}
	foreign, _ := e.addUser(t, r2.ID, "x@other.local", "Foreign", store.RoleStaff)

	with := func(k string, v any) map[string]any {
		b := shiftBody(sam, "2026-11-23", "10:00", "12:00")
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	for _, tc := range []struct {
		name, field string
		body        any
	}{
		{"MissingUser", "user_id", with("user_id", nil)},
		{"MissingDate", "shift_date", with("shift_date", nil)},
		{"MissingStart", "start_time", with("start_time", nil)},
		{"MissingEnd", "end_time", with("end_time", nil)},
		{"NullUser", "user_id", `{"user_id":null,"shift_date":"2026-11-23","start_time":"10:00","end_time":"12:00"}`},
		{"BadDate", "shift_date", with("shift_date", "2026-02-30")},
		{"DateWithTime", "shift_date", with("shift_date", "2026-11-23T10:00:00Z")},
		{"OneDigitHour", "start_time", with("start_time", "9:00")},
		{"Hour24", "end_time", with("end_time", "24:00")},
		{"Minute60", "start_time", with("start_time", "10:60")},
		{"Seconds", "end_time", with("end_time", "12:00:00")},
		{"EqualTimes", "end_time", with("end_time", "10:00")},
		{"NegativeBreak", "break_minutes", with("break_minutes", -1)},
		{"BreakAsLongAsShift", "break_minutes", with("break_minutes", 120)},
		// Minutes that overflow a Duration once multiplied used to wrap
		// round and pass the length check.
		{"BreakBeyondInt32", "break_minutes", with("break_minutes", int64(math.MaxInt32)+1)},
		{"BreakMaxInt64", "break_minutes", with("break_minutes", int64(math.MaxInt64))},
		{"BreakNotInteger", "break_minutes", with("break_minutes", 1.5)},
		{"BreakAsString", "break_minutes", with("break_minutes", "30")},
		{"UserNotUUID", "user_id", with("user_id", "sam")},
		{"UnknownUser", "user_id", with("user_id", store.NewID())},
		{"InactiveUser", "user_id", with("user_id", off.ID)},
		{"DeletedUser", "user_id", with("user_id", gone.ID)},
		{"ForeignUser", "user_id", with("user_id", foreign.ID)},
		{"RoleTooLong", "role", with("role", strings.Repeat("r", 51))},
		{"NotesTooLong", "notes", with("notes", strings.Repeat("n", 2001))},
		{"TimeNotString", "start_time", with("start_time", 10)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFieldError(t, e.do(t, "POST", "/api/shifts", tc.body, e.adminToken), tc.field)
		})
	}
	t.Run("WrongTypeSaysInteger", func(t *testing.T) {
		p := wantProblem(t, e.do(t, "POST", "/api/shifts", with("break_minutes", 1.5), e.adminToken), http.StatusUnprocessableEntity, store.EValidation)
		if msg := p["errors"].([]any)[0].(map[string]any)["message"]; msg != "must be an integer" {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("UnknownField", func(t *testing.T) {
		wantProblem(t, e.do(t, "POST", "/api/shifts", with("status", "confirmed"), e.adminToken), http.StatusBadRequest, eUnknownField)
	})
	t.Run("Malformed", func(t *testing.T) {
		wantProblem(t, e.do(t, "POST", "/api/shifts", `{"user_id":`, e.adminToken), http.StatusBadRequest, eMalformedJSON)
	})
	t.Run("NotJSON", func(t *testing.T) {
		wantProblem(t, e.do(t, "POST", "/api/shifts", `user_id=x`, e.adminToken, "Content-Type", "application/x-www-form-urlencoded"), http.StatusUnsupportedMediaType, eUnsupportedMedia)
	})
	t.Run("NothingChanged", func(t *testing.T) {
		if n := len(e.listShifts(t, "")); n != 0 {
			t.Fatalf("%d shifts after only bad requests", n)
		}
		if n := len(e.events(t, store.EventShiftChange)); n != 0 {
			t.Fatalf("%d events after only bad requests", n)
		}
	})
	t.Run("LongestAllowedBreak", func(t *testing.T) {
		e.createShift(t, with("break_minutes", 119))
	})
}

func TestShiftList(t *testing.T) {
	e := newTestEnv(t)
	zoe, _ := e.staff(t, "Zoe")
	amy, _ := e.staff(t, "Amy")
	// Created out of order; listed by date, start time, then name.
	e.createShift(t, shiftBody(zoe, "2026-11-24", "08:00", "12:00"))
	e.createShift(t, shiftBody(zoe, "2026-11-23", "12:00", "14:00"))
	e.createShift(t, shiftBody(amy, "2026-11-24", "08:00", "12:00"))
	e.createShift(t, shiftBody(amy, "2026-11-23", "18:00", "02:00"))
	e.createShift(t, shiftBody(amy, "2026-11-25", "07:00", "09:00"))
	order := func(list []map[string]any) []string {
		var out []string
		for _, s := range list {
			out = append(out, s["shift_date"].(string)+" "+s["start_time"].(string)+" "+s["user_name"].(string))
		}
		return out
	}
	all := []string{"2026-11-23 12:00 Zoe", "2026-11-23 18:00 Amy", "2026-11-24 08:00 Amy", "2026-11-24 08:00 Zoe", "2026-11-25 07:00 Amy"}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", all},
		{"?date_from=2026-11-24", all[2:]},
		{"?date_to=2026-11-24", all[:4]},
		{"?date_from=2026-11-24&date_to=2026-11-24", all[2:4]},
		{"?date_from=2026-11-26", nil},
	} {
		if got := order(e.listShifts(t, tc.query)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("GET /api/shifts%s = %v, want %v", tc.query, got, tc.want)
		}
	}
	t.Run("EmptyListIsArray", func(t *testing.T) {
		rec := e.do(t, "GET", "/api/shifts?date_from=2030-01-01", nil, e.adminToken)
		if strings.TrimSpace(rec.Body.String()) != `{"shifts":[]}` {
			t.Fatalf("empty list body %s", rec.Body.String())
		}
	})
	t.Run("ErrFromAfterTo", func(t *testing.T) {
		wantFieldError(t, e.do(t, "GET", "/api/shifts?date_from=2026-11-25&date_to=2026-11-24", nil, e.adminToken), "date_to")
	})
	t.Run("ErrBadDates", func(t *testing.T) {
		wantFieldError(t, e.do(t, "GET", "/api/shifts?date_from=24.11.2026", nil, e.adminToken), "date_from")
		wantFieldError(t, e.do(t, "GET", "/api/shifts?date_to=2026-11-31", nil, e.adminToken), "date_to")
	})
	t.Run("DeletedUserStaysListed", func(t *testing.T) {
		if err := e.st.DeleteUser(context.Background(), e.restaurant.ID, zoe.ID); err != nil {
			t.Fatal(err)
		}
		if got := order(e.listShifts(t, "")); !reflect.DeepEqual(got, all) {
			t.Fatalf("after deleting Zoe: %v", got)
		}
	})
	t.Run("OtherRestaurantNotListed", func(t *testing.T) {
		r2 := &store.Restaurant{Name: "Other", Timezone: "Europe/Berlin"}
		if err := e.st.CreateRestaurant(context.Background(), r2); err != nil {
			t.Fatal(err)
		}
		_, tok := e.addUser(t, r2.ID, "boss@other.local", "Boss", store.RoleAdmin)
		rec := e.do(t, "GET", "/api/shifts", nil, tok)
		if strings.TrimSpace(rec.Body.String()) != `{"shifts":[]}` {
			t.Fatalf("other restaurant sees %s", rec.Body.String())
		}
	})
}

func TestShiftUpdate(t *testing.T) {
	e := newTestEnv(t)
	e.notifyOn(t, store.EventShiftChange) // so the events are stored
	sam, _ := e.staff(t, "Sam Staff")
	kim, _ := e.staff(t, "Kim Cook")
	b := shiftBody(sam, "2026-11-23", "10:00", "14:00")
	b["role"], b["notes"], b["break_minutes"] = "waiter", "bring keys", 15
	sh := e.createShift(t, b)
	id := sh["id"].(string)
	other := e.createShift(t, shiftBody(sam, "2026-11-23", "16:00", "20:00"))
	put := func(body any) *httptest.ResponseRecorder {
		return e.do(t, "PUT", "/api/shifts/"+id, body, e.adminToken)
	}

	e.clock.Add(time.Minute)
	rec := put(map[string]any{"end_time": "15:00", "notes": nil})
	wantStatus(t, rec, http.StatusOK)
	got := decodeJSON(t, rec)["shift"].(map[string]any)
	if got["end_time"] != "15:00" || got["start_time"] != "10:00" || got["role"] != "waiter" || got["break_minutes"] != 15.0 ||
		got["notes"] != nil || got["updated_at"] != "2026-11-22T09:01:00.000Z" || got["created_at"] != sh["created_at"] {
		t.Fatalf("after partial update: %v", got)
	}
	t.Run("HugeBreakRefused", func(t *testing.T) {
		for _, m := range []int64{math.MaxInt32 + 1, math.MaxInt64} {
			wantFieldError(t, put(map[string]any{"break_minutes": m}), "break_minutes")
		}
	})
	t.Run("NoChangeIsNoOp", func(t *testing.T) {
		before := len(e.events(t, store.EventShiftChange))
		e.clock.Add(time.Minute)
		rec := put(map[string]any{"end_time": "15:00", "role": "waiter"})
		wantStatus(t, rec, http.StatusOK)
		if decodeJSON(t, rec)["shift"].(map[string]any)["updated_at"] != "2026-11-22T09:01:00.000Z" {
			t.Fatalf("no-op moved updated_at: %s", rec.Body.String())
		}
		if after := len(e.events(t, store.EventShiftChange)); after != before {
			t.Fatalf("no-op recorded an event (%d → %d)", before, after)
		}
	})
	t.Run("ErrOverlap", func(t *testing.T) {
		wantProblem(t, put(map[string]any{"end_time": "16:01"}), http.StatusConflict, store.EShiftOverlap)
		// Moving it to another user who is free is fine; back to Sam overlapping is not.
		wantStatus(t, put(map[string]any{"user_id": kim.ID, "end_time": "17:00"}), http.StatusOK)
		wantProblem(t, put(map[string]any{"user_id": sam.ID}), http.StatusConflict, store.EShiftOverlap)
		wantStatus(t, put(map[string]any{"user_id": sam.ID, "end_time": "16:00"}), http.StatusOK)
		// Moving the other shift onto this one overlaps too.
		rec := e.do(t, "PUT", "/api/shifts/"+other["id"].(string), map[string]any{"start_time": "11:00"}, e.adminToken)
		wantProblem(t, rec, http.StatusConflict, store.EShiftOverlap)
	})
	t.Run("ErrValidation", func(t *testing.T) {
		for _, tc := range []struct {
			field string
			body  any
		}{
			{"end_time", map[string]any{"start_time": "16:00"}},     // equal to end_time
			{"break_minutes", map[string]any{"break_minutes": 360}}, // the shift is 6 h
			{"role", `{"role":null}`},
			{"shift_date", `{"shift_date":null}`},
			{"end_time", map[string]any{"end_time": "5pm"}},
			{"user_id", map[string]any{"user_id": store.NewID()}},
			{"user_id", map[string]any{"user_id": "not-a-uuid"}},
			{"break_minutes", `{"break_minutes":"ten"}`},
		} {
			wantFieldError(t, put(tc.body), tc.field)
		}
		wantProblem(t, put(map[string]any{"status": "confirmed"}), http.StatusBadRequest, eUnknownField)
		cur, _ := e.st.Shift(context.Background(), e.restaurant.ID, id)
		if cur.StartTime != "10:00" || cur.EndTime != "16:00" || cur.UserID != sam.ID {
			t.Fatalf("a refused update changed the shift: %+v", cur)
		}
	})
	t.Run("CancelledShiftMayBeMovedOntoAnother", func(t *testing.T) {
		wantStatus(t, e.do(t, "PATCH", "/api/shifts/"+id+"/status", map[string]any{"status": "cancelled"}, e.adminToken), http.StatusOK)
		wantStatus(t, put(map[string]any{"end_time": "18:00"}), http.StatusOK)
		// ... but cannot come back while it overlaps.
		wantProblem(t, e.do(t, "PATCH", "/api/shifts/"+id+"/status", map[string]any{"status": "pending"}, e.adminToken), http.StatusConflict, store.EShiftOverlap)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		wantProblem(t, e.do(t, "PUT", "/api/shifts/"+store.NewID(), map[string]any{"role": "x"}, e.adminToken), http.StatusNotFound, store.ENotFound)
		wantProblem(t, e.do(t, "PUT", "/api/shifts/abc", map[string]any{"role": "x"}, e.adminToken), http.StatusNotFound, store.ENotFound)
		r2 := &store.Restaurant{Name: "Other", Timezone: "Europe/Berlin"}
		if err := e.st.CreateRestaurant(context.Background(), r2); err != nil {
			t.Fatal(err)
		}
		_, tok := e.addUser(t, r2.ID, "boss@other.local", "Boss", store.RoleAdmin)
		wantProblem(t, e.do(t, "PUT", "/api/shifts/"+id, map[string]any{"role": "x"}, tok), http.StatusNotFound, store.ENotFound)
		wantProblem(t, e.do(t, "PATCH", "/api/shifts/"+id+"/status", map[string]any{"status": "confirmed"}, tok), http.StatusNotFound, store.ENotFound)
		wantProblem(t, e.do(t, "DELETE", "/api/shifts/"+id, nil, tok), http.StatusNotFound, store.ENotFound)
	})
}

func TestShiftStatus(t *testing.T) {
	e := newTestEnv(t)
	e.notifyOn(t, store.EventShiftChange) // so the events are stored
	sam, _ := e.staff(t, "Sam Staff")
	statuses := []string{store.ShiftPending, store.ShiftConfirmed, store.ShiftCancelled}
	for _, from := range statuses {
		for _, to := range statuses {
			t.Run(from+"To"+to, func(t *testing.T) {
				sh := e.createShift(t, shiftBody(sam, "2026-12-01", "10:00", "12:00"))
				path := "/api/shifts/" + sh["id"].(string) + "/status"
				if from != store.ShiftPending {
					wantStatus(t, e.do(t, "PATCH", path, map[string]string{"status": from}, e.adminToken), http.StatusOK)
				}
				before := len(e.events(t, store.EventShiftChange))
				e.clock.Add(time.Second)
				rec := e.do(t, "PATCH", path, map[string]string{"status": to}, e.adminToken)
				wantStatus(t, rec, http.StatusOK)
				got := decodeJSON(t, rec)["shift"].(map[string]any)
				if got["status"] != to {
					t.Fatalf("status %v, want %s", got["status"], to)
				}
				wantEvents := before + 1
				if from == to { // a no-op: nothing written, nothing published
					wantEvents = before
					if got["updated_at"] == ts(e.clock.Now()) {
						t.Fatal("no-op moved updated_at")
					}
				}
				if n := len(e.events(t, store.EventShiftChange)); n != wantEvents {
					t.Fatalf("%d shift_change events, want %d", n, wantEvents)
				}
				wantStatus(t, e.do(t, "DELETE", "/api/shifts/"+sh["id"].(string), nil, e.adminToken), http.StatusNoContent)
			})
		}
	}
	sh := e.createShift(t, shiftBody(sam, "2026-12-02", "10:00", "12:00"))
	path := "/api/shifts/" + sh["id"].(string) + "/status"
	t.Run("ErrValidation", func(t *testing.T) {
		wantFieldError(t, e.do(t, "PATCH", path, map[string]string{"status": "done"}, e.adminToken), "status")
		wantFieldError(t, e.do(t, "PATCH", path, map[string]string{"status": "Confirmed"}, e.adminToken), "status")
		wantFieldError(t, e.do(t, "PATCH", path, map[string]any{}, e.adminToken), "status")
		wantFieldError(t, e.do(t, "PATCH", path, `{"status":null}`, e.adminToken), "status")
		wantFieldError(t, e.do(t, "PATCH", path, `{"status":1}`, e.adminToken), "status")
		wantProblem(t, e.do(t, "PATCH", path, `{"status":"confirmed","x":1}`, e.adminToken), http.StatusBadRequest, eUnknownField)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		wantProblem(t, e.do(t, "PATCH", "/api/shifts/"+store.NewID()+"/status", map[string]string{"status": "confirmed"}, e.adminToken), http.StatusNotFound, store.ENotFound)
	})
}

func TestShiftDelete(t *testing.T) {
	e := newTestEnv(t)
	sam, _ := e.staff(t, "Sam Staff")
	sh := e.createShift(t, shiftBody(sam, "2026-12-01", "10:00", "12:00"))
	rec := e.do(t, "DELETE", "/api/shifts/"+sh["id"].(string), nil, e.adminToken)
	wantStatus(t, rec, http.StatusNoContent)
	if rec.Body.Len() != 0 {
		t.Fatalf("204 with body %q", rec.Body.String())
	}
	if n := len(e.listShifts(t, "")); n != 0 {
		t.Fatalf("%d shifts after delete", n)
	}
	wantProblem(t, e.do(t, "DELETE", "/api/shifts/"+sh["id"].(string), nil, e.adminToken), http.StatusNotFound, store.ENotFound)
	wantProblem(t, e.do(t, "DELETE", "/api/shifts/my-status", nil, e.adminToken), http.StatusNotFound, store.ENotFound)
	// The slot is free again.
	e.createShift(t, shiftBody(sam, "2026-12-01", "10:00", "12:00"))
}

func TestShiftEvents(t *testing.T) {
	e := newTestEnv(t)
	e.notifyOn(t, store.EventShiftChange) // so the events are stored
	sam, _ := e.staff(t, "Sam Staff")
	sh := e.createShift(t, shiftBody(sam, "2026-11-23", "18:00", "02:00"))
	id := sh["id"].(string)
	wantStatus(t, e.do(t, "PUT", "/api/shifts/"+id, map[string]any{"end_time": "01:00", "role": "bar"}, e.adminToken), http.StatusOK)
	wantStatus(t, e.do(t, "PATCH", "/api/shifts/"+id+"/status", map[string]any{"status": "confirmed"}, e.adminToken), http.StatusOK)
	wantStatus(t, e.do(t, "DELETE", "/api/shifts/"+id, nil, e.adminToken), http.StatusNoContent)

	evs := e.events(t, store.EventShiftChange)
	var actions []string
	for _, ev := range evs {
		actions = append(actions, ev["action"].(string))
		by := ev["by"].(map[string]any)
		shift := ev["shift"].(map[string]any)
		if by["name"] != "Ada Admin" || by["user_id"] != e.admin.ID || ev["timezone"] != "Europe/Berlin" ||
			shift["id"] != id || shift["user_name"] != "Sam Staff" || shift["shift_date"] != "2026-11-23" ||
			shift["starts_at"] != "2026-11-23T17:00:00.000Z" {
			t.Errorf("event %v is not self-describing", ev)
		}
	}
	if want := []string{"created", "updated", "status_changed", "deleted"}; !reflect.DeepEqual(actions, want) {
		t.Fatalf("actions %v, want %v", actions, want)
	}
	upd := evs[1]
	if !reflect.DeepEqual(upd["changed"], []any{"end_time", "role"}) || upd["previous"].(map[string]any)["end_time"] != "02:00" ||
		upd["shift"].(map[string]any)["end_time"] != "01:00" || upd["shift"].(map[string]any)["ends_at"] != "2026-11-24T00:00:00.000Z" {
		t.Fatalf("update event %v", upd)
	}
	if st := evs[2]; st["previous"].(map[string]any)["status"] != "pending" || st["shift"].(map[string]any)["status"] != "confirmed" {
		t.Fatalf("status event %v", st)
	}
	if del := evs[3]; del["shift"].(map[string]any)["status"] != "confirmed" {
		t.Fatalf("delete event does not keep the shift: %v", del)
	}
	// A refused change publishes nothing.
	wantProblem(t, e.do(t, "PATCH", "/api/shifts/"+id+"/status", map[string]any{"status": "pending"}, e.adminToken), http.StatusNotFound, store.ENotFound)
	if n := len(e.events(t, store.EventShiftChange)); n != 4 {
		t.Fatalf("%d events after a refused change", n)
	}
}

func TestShiftAccess(t *testing.T) {
	e := newTestEnv(t)
	sam, samTok := e.staff(t, "Sam Staff")
	sh := e.createShift(t, shiftBody(sam, "2026-12-01", "10:00", "12:00"))
	id := sh["id"].(string)
	routes := []struct{ method, path string }{
		{"GET", "/api/shifts"},
		{"POST", "/api/shifts"},
		{"PUT", "/api/shifts/" + id},
		{"PATCH", "/api/shifts/" + id + "/status"},
		{"DELETE", "/api/shifts/" + id},
		{"GET", "/api/time-entries"},
	}
	for _, rt := range routes {
		t.Run("StaffForbidden"+rt.method+rt.path, func(t *testing.T) {
			wantProblem(t, e.do(t, rt.method, rt.path, nil, samTok), http.StatusForbidden, eForbidden)
		})
	}
	for _, rt := range append(routes, struct{ method, path string }{"POST", "/api/shifts/clock-in"},
		struct{ method, path string }{"POST", "/api/shifts/clock-out"}, struct{ method, path string }{"GET", "/api/shifts/my-status"}) {
		t.Run("NoToken"+rt.method+rt.path, func(t *testing.T) {
			rec := e.do(t, rt.method, rt.path, nil, "")
			wantProblem(t, rec, http.StatusUnauthorized, eUnauthenticated)
			if !strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), "Bearer") {
				t.Fatal("401 without WWW-Authenticate: Bearer")
			}
		})
	}
	t.Run("MethodNotAllowed", func(t *testing.T) {
		rec := e.do(t, "GET", "/api/shifts/"+id, nil, e.adminToken)
		wantProblem(t, rec, http.StatusMethodNotAllowed, eMethodNotAllowed)
		if allow := rec.Header().Get("Allow"); !strings.Contains(allow, "PUT") || !strings.Contains(allow, "DELETE") {
			t.Fatalf("Allow %q", allow)
		}
		wantProblem(t, e.do(t, "GET", "/api/shifts/clock-in", nil, samTok), http.StatusMethodNotAllowed, eMethodNotAllowed)
	})
	if n := len(e.listShifts(t, "")); n != 1 {
		t.Fatalf("refused requests changed the shifts: %d", n)
	}
}

// TestShiftDST checks shift lengths and overlap across Berlin's clock
// changes: 2026-03-29 (02:00 → 03:00) and 2026-10-25 (03:00 → 02:00).
func TestShiftDST(t *testing.T) {
	e := newTestEnv(t)
	at := func(id string) (time.Time, time.Time) {
		sh, err := e.st.Shift(context.Background(), e.restaurant.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		return sh.StartsAt, sh.EndsAt
	}
	utc := func(mo time.Month, d, h, m int) time.Time { return time.Date(2026, mo, d, h, m, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name               string
		date, start, end   string
		wantStart, wantEnd time.Time
		maxBreak           int // longest allowed break: length - 1 minute
	}{
		{"SpringNight7h", "2026-03-28", "22:00", "06:00", utc(3, 28, 21, 0), utc(3, 29, 4, 0), 419},
		{"AutumnNight9h", "2026-10-24", "22:00", "06:00", utc(10, 24, 20, 0), utc(10, 25, 5, 0), 539},
		// 02:30 does not exist on 2026-03-29: read with the offset before the gap (03:30 CEST).
		{"SpringGapStart", "2026-03-29", "02:30", "04:00", utc(3, 29, 1, 30), utc(3, 29, 2, 0), 29},
		// 02:30 happens twice on 2026-10-25: the first one (CEST) counts.
		{"AutumnRepeatedStart", "2026-10-25", "02:30", "03:00", utc(10, 25, 0, 30), utc(10, 25, 2, 0), 89},
		{"DayAfterSpring", "2026-03-30", "10:00", "18:00", utc(3, 30, 8, 0), utc(3, 30, 16, 0), 479},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, _ := e.staff(t, tc.name)
			b := shiftBody(u, tc.date, tc.start, tc.end)
			b["break_minutes"] = tc.maxBreak + 1
			wantFieldError(t, e.do(t, "POST", "/api/shifts", b, e.adminToken), "break_minutes")
			b["break_minutes"] = tc.maxBreak
			sh := e.createShift(t, b)
			if s, en := at(sh["id"].(string)); !s.Equal(tc.wantStart) || !en.Equal(tc.wantEnd) {
				t.Fatalf("spans %v - %v, want %v - %v", s, en, tc.wantStart, tc.wantEnd)
			}
		})
	}
	sam, _ := e.staff(t, "Sam Staff")
	e.createShift(t, shiftBody(sam, "2026-03-28", "22:00", "06:00"))
	t.Run("ErrNoLengthInGap", func(t *testing.T) {
		// 02:30 → 03:30 CEST is after 03:00 CEST.
		wantFieldError(t, e.do(t, "POST", "/api/shifts", shiftBody(sam, "2026-03-29", "02:30", "03:00"), e.adminToken), "end_time")
	})
	t.Run("OverlapAcrossSpringChange", func(t *testing.T) {
		// The spring night shift ends at 06:00 CEST = 04:00Z.
		wantProblem(t, e.do(t, "POST", "/api/shifts", shiftBody(sam, "2026-03-29", "05:59", "08:00"), e.adminToken), http.StatusConflict, store.EShiftOverlap)
		e.createShift(t, shiftBody(sam, "2026-03-29", "06:00", "08:00"))
	})
}
