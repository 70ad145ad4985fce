package retryafter

import (
	"net/http"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	now := time.Date(2026, 3, 14, 11, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		name, v string
		want    time.Duration
	}{
		{"none", "", 0},
		{"seconds", "7", 7 * time.Second},
		{"seconds with spaces", " 60 ", time.Minute},
		{"large seconds, no cap", "86400", 24 * time.Hour},
		{"zero", "0", 0},
		{"negative", "-5", 0},
		{"fraction", "1.5", 0},
		{"garbage", "soon", 0},
		{"HTTP date ahead", now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{"HTTP date now", now.Format(http.TimeFormat), 0},
		{"HTTP date past", now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"RFC 850 date", now.Add(2 * time.Minute).Format(time.RFC850), 2 * time.Minute},
		{"ANSI C date", now.Add(3 * time.Minute).Format(time.ANSIC), 3 * time.Minute},
	} {
		if got := Parse(c.v, now); got != c.want {
			t.Errorf("%s: Parse(%q) = %s, want %s", c.name, c.v, got, c.want)
		}
	}
}
