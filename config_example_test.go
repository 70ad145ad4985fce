package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var settingLine = regexp.MustCompile(`^#[a-z_]+ =`)

var updateExample = flag.Bool("update-config-example", false, "rewrite packaging/posbox.conf.example")

const examplePath = "packaging/posbox.conf.example"

// TestConfigExampleIsCurrent keeps the shipped example in step with the
// settings: regenerate with go test -run TestConfigExampleIsCurrent -update-config-example.
func TestConfigExampleIsCurrent(t *testing.T) {
	want := exampleConfig()
	if *updateExample {
		if err := os.WriteFile(examplePath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is out of date: run go test -run TestConfigExampleIsCurrent -update-config-example", examplePath)
	}
	var c Config
	for _, s := range c.settings() {
		if !strings.Contains(want, "\n#"+s.key+" =") {
			t.Errorf("example lacks key %s", s.key)
		}
	}
}

// TestConfigExampleUncommentedLoads: an admin who uncomments every line
// gets a valid configuration equal to the defaults.
func TestConfigExampleUncommentedLoads(t *testing.T) {
	var lines []string
	for _, l := range strings.Split(exampleConfig(), "\n") {
		if settingLine.MatchString(l) {
			l = strings.TrimPrefix(l, "#")
		}
		lines = append(lines, l)
	}
	file := filepath.Join(t.TempDir(), "posbox.conf")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(flag.NewFlagSet("t", flag.ContinueOnError), []string{"--config", file})
	if err != nil {
		t.Fatal(err)
	}
	def := DefaultConfig()
	if cfg.Addr != def.Addr || cfg.TokenTTL != def.TokenTTL || cfg.BackupKeep != def.BackupKeep || cfg.TSEBudget != def.TSEBudget {
		t.Errorf("uncommented example differs from defaults: %+v", cfg)
	}
	if cfg.DataDir != "/var/lib/posbox" || cfg.File != file {
		t.Errorf("data_dir %q, file %q", cfg.DataDir, cfg.File)
	}
}
