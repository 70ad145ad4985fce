package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// bigJSON is a JSON body of n bytes.
func bigJSON(n int) []byte {
	return []byte(`{"notes":"` + strings.Repeat("x", n-12) + `"}`)
}

// A body of unknown length (chunked) over 1 MiB is refused with 413 on
// every route, also on routes that read no body: the DELETE deletes
// nothing and the clock-in clocks nobody in.
func TestChunkedBodyOverLimit(t *testing.T) {
	e := newTestEnv(t)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	sam, samTok := e.staff(t, "Sam Staff")
	sh := e.createShift(t, shiftBody(sam, "2026-11-23", "10:00", "14:00"))

	send := func(method, path, token string) *http.Response {
		t.Helper()
		// A reader of unknown length: Go's client sends it chunked.
		body := io.MultiReader(bytes.NewReader(bigJSON(maxBody + 4096)))
		req, _ := http.NewRequest(method, srv.URL+path, body)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	if res := send("DELETE", "/api/shifts/"+sh["id"].(string), e.adminToken); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("DELETE with 1 MiB + 4 KiB chunked: %d, want 413", res.StatusCode)
	}
	if _, err := e.st.Shift(t.Context(), e.restaurant.ID, sh["id"].(string)); err != nil {
		t.Fatalf("the shift is gone after a refused DELETE: %v", err)
	}
	if res := send("POST", "/api/shifts/clock-in", samTok); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("clock-in with 1 MiB + 4 KiB chunked: %d, want 413", res.StatusCode)
	}
	status := decodeJSON(t, e.do(t, "GET", "/api/shifts/my-status", nil, samTok))
	if status["clocked_in"] != false {
		t.Fatalf("clocked in by a refused request: %v", status)
	}
}

// A client that sends its whole body before it reads the answer (as
// Python's urllib and requests do) reads the 413, the 401, the 404 or
// the 405 instead of a broken pipe: the server reads the rest of the
// body before it closes.
func TestOversizeBodyAnswerIsRead(t *testing.T) {
	e := newTestEnv(t)
	srv := httptest.NewServer(e.h)
	defer srv.Close()
	for _, c := range []struct {
		name, method, path, token string
		want                      int
	}{
		{"TooLarge", "POST", "/api/users", e.adminToken, http.StatusRequestEntityTooLarge},
		{"NotSignedIn", "POST", "/api/users", "", http.StatusUnauthorized},
		{"NoSuchRoute", "POST", "/api/no-such-route", e.adminToken, http.StatusNotFound},
		{"MethodNotAllowed", "PATCH", "/api/users", e.adminToken, http.StatusMethodNotAllowed},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(30 * time.Second))
			body := bigJSON(12 << 20) // more than loopback's socket buffers hold
			head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: posbox\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", c.method, c.path, len(body))
			if c.token != "" {
				head += "Authorization: Bearer " + c.token + "\r\n"
			}
			if _, err := conn.Write(append([]byte(head+"\r\n"), body...)); err != nil {
				t.Fatalf("sending the body: %v (the server closed before reading it)", err)
			}
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("reading the answer: %v", err)
			}
			res.Body.Close()
			if res.StatusCode != c.want {
				t.Fatalf("status %d, want %d", res.StatusCode, c.want)
			}
		})
	}
}
