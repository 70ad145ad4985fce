package main

import (
	"flag"
	"io"
	"testing"
)

// closing_time is checked when the configuration loads: HH:MM or empty
// (no automatic closing); the default is 05:00.
func TestClosingTimeConfig(t *testing.T) {
	load := func(t *testing.T, v string) (Config, error) {
		t.Setenv("POSBOX_CLOSING_TIME", v)
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		return loadConfig(fs, []string{"--data-dir", t.TempDir()})
	}
	if DefaultConfig().ClosingTime != "05:00" {
		t.Fatalf("default %q", DefaultConfig().ClosingTime)
	}
	for _, good := range []string{"", "04:30", "23:59"} {
		if cfg, err := load(t, good); err != nil || cfg.ClosingTime != good {
			t.Errorf("%q: %v (%q)", good, err, cfg.ClosingTime)
		}
	}
	for _, bad := range []string{"5:00", "25:00", "05:00:00", "noon"} {
		if _, err := load(t, bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}
