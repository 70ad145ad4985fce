package store

import (
	"math/rand/v2"
	"testing"
	"time"
)

// The fast reader of stored instants agrees with time.Parse, and leaves
// whatever it does not recognise to it.
func TestParseStoredAgreesWithTimeParse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		in := time.UnixMilli(r.Int64N(4102444800000)).UTC() // 1970-2100
		s := FormatTime(in)
		got, ok := parseStored(s)
		want, err := time.Parse(TimeFormat, s)
		if !ok || err != nil || !got.Equal(want) || got.Location() != want.Location() {
			t.Fatalf("%s: parseStored %v %v, time.Parse %v %v", s, got, ok, want, err)
		}
	}
	for _, s := range []string{"", "2026-04-31T10:00:00.000Z", "2026-13-01T10:00:00.000Z", "2026-01-01T24:00:00.000Z",
		"2026-01-01T10:00:00.000+", "2026-01-01 10:00:00.000Z", "2026-0a-01T10:00:00.000Z", "2026-01-01T10:00:60.000Z"} {
		if _, ok := parseStored(s); ok {
			t.Errorf("%q accepted", s)
		}
	}
}

func BenchmarkParseTime(b *testing.B) {
	s := FormatTime(time.Date(2026, 11, 23, 17, 4, 5, 123e6, time.UTC))
	for b.Loop() {
		ParseTime(s)
	}
}
