//go:build loadbench

package main

// The year benchmark's data dirs: the seeder (`go build -tags seed`, the
// command `posbox-seed seed --data-dir DIR --years N [--days D]`) fills
// one once per history into BENCH_SEED_DIR, and every run works on a
// copy. A tree without the seeder gives an empty data dir (day one as
// TestLoadBench has it) and year ten is not measured.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"posbox/internal/seed"
)

type seeder struct {
	t     *testing.T
	bin   string // "" when this tree has no seed command
	cache string
}

// newSeeder builds the seeder binary; bin stays "" when its build has
// no seed command.
func newSeeder(t *testing.T) *seeder {
	s := &seeder{t: t, cache: os.Getenv("BENCH_SEED_DIR")}
	if s.cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		s.cache = filepath.Join(dir, "posbox-bench-seed")
	}
	if err := os.MkdirAll(s.cache, 0o700); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "posbox-seed")
	cmd := exec.Command(goTool(), "build", "-tags", "seed", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -tags seed: %v\n%s", err, out)
	}
	out, _ := exec.Command(bin, "seed", "-h").CombinedOutput()
	if strings.Contains(string(out), "unknown command") {
		t.Log("this tree has no seed command: day one on an empty data dir, year ten not measured")
		return s
	}
	s.bin = bin
	return s
}

// goTool is the go command of the running toolchain when it can be found.
func goTool() string {
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		if p := filepath.Join(strings.TrimSpace(string(out)), "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

// seedArgs are the seeder's arguments for a history of years (0: days).
func seedArgs(dir string, years, days int) []string {
	args := []string{"seed", "--data-dir", dir, "--years", strconv.Itoa(years)}
	if years == 0 {
		args = append(args, "--days", strconv.Itoa(days))
	}
	return args
}

// dataDir puts a copy of the seeded history at dst (which must not
// exist), seeding it first when the cache has none; false without a
// seeder.
func (s *seeder) dataDir(dst string, years, days int) bool {
	t := s.t
	if s.bin == "" {
		return false
	}
	// The seeder's version in the key: a history of another version
	// (histories before versions were keyed "years-N") is not used.
	key := fmt.Sprintf("seed%d-years-%d", seed.Version, years)
	if years == 0 {
		key = fmt.Sprintf("seed%d-days-%d", seed.Version, days)
	}
	cached := filepath.Join(s.cache, key)
	if !fileExists(cached) {
		tmp := cached + ".tmp"
		os.RemoveAll(tmp)
		began := time.Now()
		out, err := exec.Command(s.bin, seedArgs(tmp, years, days)...).CombinedOutput()
		if err != nil {
			t.Fatalf("posbox-seed %v: %v\n%s", seedArgs(tmp, years, days), err, out)
		}
		if err := os.Rename(tmp, cached); err != nil {
			t.Fatal(err)
		}
		t.Logf("seeded %s in %s", cached, time.Since(began).Round(time.Second))
	}
	if out, err := exec.Command("cp", "-a", cached, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp -a %s %s: %v\n%s", cached, dst, err, out)
	}
	return true
}
