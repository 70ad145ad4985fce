package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"posbox/store"
)

// pinLogin posts a till's login by staff number and PIN.
func (e *testEnv) pinLogin(tb testing.TB, staffNumber, pin string) *http.Response {
	tb.Helper()
	return e.do(tb, "POST", "/api/auth/login", map[string]string{"staff_number": staffNumber, "pin": pin}, "").Result()
}

// A kitchen helper without an email: created with staff number and PIN,
// logs in at the till with them, clocks in; a wrong PIN, an admin and a
// changed PIN are refused.
func TestLoginByStaffNumberAndPIN(t *testing.T) {
	e := newTestEnv(t)
	rec := e.do(t, "POST", "/api/users", map[string]any{"name": "Kim Küche", "role": "staff", "staff_number": "K-7", "pin": "4711"}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	u := decodeJSON(t, rec)["user"].(map[string]any)
	if u["email"] != nil || u["has_pin"] != true || u["staff_number"] != "K-7" || u["must_change_password"] != false {
		t.Fatalf("created %v", u)
	}
	id := u["id"].(string)

	res := e.pinLogin(t, "K-7", "4711")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("PIN login: %d", res.StatusCode)
	}
	var login struct {
		AccessToken string         `json:"access_token"`
		User        map[string]any `json:"user"`
	}
	decodeFromResponse(t, res, &login)
	if login.User["role"] != "staff" || login.User["id"] != id {
		t.Fatalf("logged in as %v", login.User)
	}
	wantStatus(t, e.do(t, "POST", "/api/shifts/clock-in", nil, login.AccessToken), http.StatusCreated)

	// A wrong PIN and an unknown staff number: the same 401.
	e.clock.Add(time.Minute)
	for _, c := range [][2]string{{"K-7", "4712"}, {"K-8", "4711"}} {
		rec := e.do(t, "POST", "/api/auth/login", map[string]string{"staff_number": c[0], "pin": c[1]}, "")
		if p := wantProblem(t, rec, http.StatusUnauthorized, eUnauthenticated); p["detail"] != "wrong staff number or PIN" {
			t.Fatalf("detail %v", p["detail"])
		}
	}
	// Fields are checked before anything is counted.
	wantFieldError(t, e.do(t, "POST", "/api/auth/login", map[string]string{"staff_number": "K-7", "pin": "47"}, ""), "pin")
	wantFieldError(t, e.do(t, "POST", "/api/auth/login", map[string]string{"staff_number": "K-7", "pin": "4711", "password": "x"}, ""), "email")

	// A new PIN from the admin ends the tokens of the old one.
	e.clock.Add(time.Minute)
	wantStatus(t, e.do(t, "PUT", "/api/users/"+id, map[string]any{"pin": "902468"}, e.adminToken), http.StatusOK)
	wantProblem(t, e.do(t, "GET", "/api/auth/me", nil, login.AccessToken), http.StatusUnauthorized, eUnauthenticated)
	if res := e.pinLogin(t, "K-7", "4711"); res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the old PIN: %d", res.StatusCode)
	}
	if res := e.pinLogin(t, "K-7", "902468"); res.StatusCode != http.StatusOK {
		t.Fatalf("the new PIN: %d", res.StatusCode)
	}

	// An admin never logs in by PIN: not settable, and refused even if a
	// row had one.
	wantFieldError(t, e.do(t, "PUT", "/api/users/"+e.admin.ID, map[string]any{"staff_number": "1", "pin": "1234"}, e.adminToken), "pin")
	rec = e.do(t, "POST", "/api/users", map[string]any{"email": "sam@test.local", "password": "password1", "name": "Sam", "role": "staff",
		"staff_number": "S-1", "pin": "2222"}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	samID := decodeJSON(t, rec)["user"].(map[string]any)["id"].(string)
	e.clock.Add(time.Minute)
	if res := e.pinLogin(t, "S-1", "2222"); res.StatusCode != http.StatusOK {
		t.Fatalf("a staff member with email and PIN: %d", res.StatusCode)
	}
	rec = e.do(t, "PUT", "/api/users/"+samID, map[string]any{"role": "admin"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if decodeJSON(t, rec)["user"].(map[string]any)["has_pin"] != false {
		t.Fatalf("an admin kept a PIN: %s", rec.Body)
	}
	if err := e.st.Write(context.Background(), func(tx *store.Tx) error {
		_, err := tx.ExecContext(context.Background(), `UPDATE users SET pin_hash = (SELECT pin_hash FROM users WHERE id = ?) WHERE id = ?`, id, samID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if res := e.pinLogin(t, "S-1", "902468"); res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("an admin logged in by PIN: %d", res.StatusCode)
	}
}

// What a user without an email must have, and what an admin must keep.
func TestUserWithoutEmailRules(t *testing.T) {
	e := newTestEnv(t)
	post := func(body map[string]any) *http.Response {
		return e.do(t, "POST", "/api/users", body, e.adminToken).Result()
	}
	for field, body := range map[string]map[string]any{
		"email":          {"name": "A", "role": "staff", "staff_number": "1"},
		"staff_number":   {"name": "A", "role": "staff", "pin": "1234"},
		"pin":            {"name": "A", "role": "staff", "staff_number": "1", "pin": "12a4"},
		"password":       {"name": "A", "role": "staff", "staff_number": "1", "pin": "1234", "password": "password1"},
		"email ":         {"name": "A", "role": "admin", "staff_number": "1", "pin": "1234"},
		"password (req)": {"name": "A", "role": "staff", "email": "a@test.local"},
	} {
		rec := e.do(t, "POST", "/api/users", body, e.adminToken)
		want := map[string]string{"email ": "email", "password (req)": "password"}[field]
		if want == "" {
			want = field
		}
		wantFieldError(t, rec, want)
	}
	if res := post(map[string]any{"name": "Kim", "role": "staff", "staff_number": "7", "pin": "1234"}); res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", res.StatusCode)
	}
	users, _ := e.st.Users(context.Background(), e.restaurant.ID)
	var kim *store.User
	for _, u := range users {
		if u.Name == "Kim" {
			kim = u
		}
	}
	// Without an email the staff number and the PIN stay, and she stays
	// staff; an email needs a password.
	wantFieldError(t, e.do(t, "PUT", "/api/users/"+kim.ID, map[string]any{"staff_number": nil}, e.adminToken), "staff_number")
	wantFieldError(t, e.do(t, "PUT", "/api/users/"+kim.ID, map[string]any{"pin": nil}, e.adminToken), "email")
	wantFieldError(t, e.do(t, "PUT", "/api/users/"+kim.ID, map[string]any{"role": "admin"}, e.adminToken), "email")
	wantFieldError(t, e.do(t, "PUT", "/api/users/"+kim.ID, map[string]any{"email": "kim@test.local"}, e.adminToken), "password")
	wantFieldError(t, e.do(t, "PUT", "/api/users/"+e.admin.ID, map[string]any{"email": nil}, e.adminToken), "email")
	rec := e.do(t, "PUT", "/api/users/"+kim.ID, map[string]any{"email": "kim@test.local", "password": "kim-password"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if u := decodeJSON(t, rec)["user"].(map[string]any); u["email"] != "kim@test.local" || u["must_change_password"] != true {
		t.Fatalf("email added: %v", u)
	}
	e.login(t, "kim@test.local", "kim-password")
	// And back: the password goes with the email.
	rec = e.do(t, "PUT", "/api/users/"+kim.ID, map[string]any{"email": nil}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if u := decodeJSON(t, rec)["user"].(map[string]any); u["email"] != nil || u["must_change_password"] != false {
		t.Fatalf("email removed: %v", u)
	}
	wantProblem(t, e.do(t, "POST", "/api/auth/login", map[string]string{"email": "kim@test.local", "password": "kim-password"}, ""),
		http.StatusUnauthorized, eUnauthenticated)
	// Name, email and staff number are editable (what the console's edit form sends).
	_, samTok := e.staff(t, "Sam Staff")
	sam, _ := e.st.UserByEmail(context.Background(), "sam.staff@test.local")
	rec = e.do(t, "PUT", "/api/users/"+sam.ID, map[string]any{"name": "Samuel Staff", "email": "samuel@test.local", "staff_number": "1001"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if u := decodeJSON(t, rec)["user"].(map[string]any); u["name"] != "Samuel Staff" || u["email"] != "samuel@test.local" || u["staff_number"] != "1001" {
		t.Fatalf("edited: %v", u)
	}
	wantStatus(t, e.do(t, "GET", "/api/auth/me", nil, samTok), http.StatusOK) // a change of name or email leaves tokens valid
}

// Wrong PINs count against the login limits like wrong passwords.
func TestPINLoginRateLimited(t *testing.T) {
	e := newTestEnv(t)
	wantStatus(t, e.do(t, "POST", "/api/users", map[string]any{"name": "Kim", "role": "staff", "staff_number": "7", "pin": "1234"}, e.adminToken),
		http.StatusCreated)
	var limited bool
	for i := range 10 {
		rec := e.do(t, "POST", "/api/auth/login", map[string]string{"staff_number": "7", "pin": "000" + string(rune('0'+i))}, "")
		if rec.Code == http.StatusTooManyRequests {
			wantProblem(t, rec, http.StatusTooManyRequests, eRateLimited)
			if rec.Header().Get("Retry-After") == "" {
				t.Fatal("no Retry-After")
			}
			limited = true
			break
		}
		wantProblem(t, rec, http.StatusUnauthorized, eUnauthenticated)
	}
	if !limited {
		t.Fatal("10 wrong PINs were never limited")
	}
	// Even the right PIN waits now, from this address.
	if res := e.pinLogin(t, "7", "1234"); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the right PIN during the lockout: %d", res.StatusCode)
	}
}

// With two restaurants on the box a PIN login names its restaurant.
func TestPINLoginNamesTheRestaurantOnASharedBox(t *testing.T) {
	e := newTestEnv(t)
	wantStatus(t, e.do(t, "POST", "/api/users", map[string]any{"name": "Kim", "role": "staff", "staff_number": "7", "pin": "1234"}, e.adminToken),
		http.StatusCreated)
	other := &store.Restaurant{Name: "Other", Timezone: "Europe/Berlin"}
	if err := e.st.CreateRestaurant(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	wantFieldError(t, e.do(t, "POST", "/api/auth/login", map[string]string{"staff_number": "7", "pin": "1234"}, ""), "restaurant_id")
	wantStatus(t, e.do(t, "POST", "/api/auth/login", map[string]string{"staff_number": "7", "pin": "1234", "restaurant_id": e.restaurant.ID}, ""), http.StatusOK)
	wantProblem(t, e.do(t, "POST", "/api/auth/login", map[string]string{"staff_number": "7", "pin": "1234", "restaurant_id": other.ID}, ""),
		http.StatusUnauthorized, eUnauthenticated)
}

// 16 admins' creates of the same staff number at once: one wins, the rest
// are told the number is taken, and one row holds it.
func TestStaffNumberUniqueUnderConcurrency(t *testing.T) {
	e := newTestEnv(t)
	var wg sync.WaitGroup
	recs := make([]*httptest.ResponseRecorder, 16)
	for i := range recs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := map[string]any{"name": "Kim", "role": "staff", "staff_number": "K-1", "pin": "1234"}
			if i%2 == 1 {
				body = map[string]any{"name": "Kim", "role": "staff", "staff_number": "K-1", "email": "kim" + string(rune('a'+i)) + "@test.local", "password": "password1"}
			}
			recs[i] = e.do(t, "POST", "/api/users", body, e.adminToken)
		}()
	}
	wg.Wait()
	var created int
	for _, rec := range recs {
		if rec.Code == http.StatusCreated {
			created++
		} else {
			wantFieldError(t, rec, "staff_number")
		}
	}
	var rows int
	if err := e.st.ReadDB().QueryRow(`SELECT count(*) FROM users WHERE staff_number = 'K-1'`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if created != 1 || rows != 1 {
		t.Fatalf("%d created, %d rows", created, rows)
	}
}

// A password an admin set must be replaced by its owner: the login and
// GET /api/auth/me say so until the owner's own change clears it; the
// API itself still answers (a till keeps working).
func TestMustChangePasswordLifecycle(t *testing.T) {
	e := newTestEnv(t)
	flag := func(rec *http.Response) any {
		t.Helper()
		var v struct {
			User map[string]any `json:"user"`
		}
		decodeFromResponse(t, rec, &v)
		return v.User["must_change_password"]
	}
	rec := e.do(t, "POST", "/api/users", map[string]any{"email": "sam@test.local", "password": "set-by-admin", "name": "Sam", "role": "admin"}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	samID := decodeJSON(t, rec)["user"].(map[string]any)["id"].(string)
	res := e.do(t, "POST", "/api/auth/login", map[string]string{"email": "sam@test.local", "password": "set-by-admin"}, "").Result()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("login %d", res.StatusCode)
	}
	var login struct {
		AccessToken string         `json:"access_token"`
		User        map[string]any `json:"user"`
	}
	decodeFromResponse(t, res, &login)
	if login.User["must_change_password"] != true {
		t.Fatalf("login answer %v", login.User)
	}
	if f := flag(e.do(t, "GET", "/api/auth/me", nil, login.AccessToken).Result()); f != true {
		t.Fatalf("me: %v", f)
	}
	wantStatus(t, e.do(t, "GET", "/api/users", nil, login.AccessToken), http.StatusOK)
	rec = e.do(t, "POST", "/api/auth/password", map[string]string{"current_password": "set-by-admin", "new_password": "sams-own-pass"}, login.AccessToken)
	wantStatus(t, rec, http.StatusOK)
	fresh := decodeJSON(t, rec)["access_token"].(string)
	if f := flag(e.do(t, "GET", "/api/auth/me", nil, fresh).Result()); f != false {
		t.Fatalf("after the change: %v", f)
	}
	// A reset by another admin sets it again; one's own through PUT does not.
	if f := flag(e.do(t, "PUT", "/api/users/"+samID, map[string]any{"password": "reset-by-ada"}, e.adminToken).Result()); f != true {
		t.Fatalf("after a reset: %v", f)
	}
	samTok := e.freshToken(t, samID)
	if f := flag(e.do(t, "PUT", "/api/users/"+samID, map[string]any{"password": "sams-own-pass2"}, samTok).Result()); f != false {
		t.Fatalf("after one's own PUT: %v", f)
	}
}

// decodeFromResponse reads a response's JSON body into v.
func decodeFromResponse(tb testing.TB, res *http.Response, v any) {
	tb.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatal(err)
	}
	decodeInto(tb, b, v)
}
