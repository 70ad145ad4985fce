package logging

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eventLog records what reaches the Windows Event Log.
type eventLog struct{ lines []string }

func (l *eventLog) Error(v ...any) error {
	l.lines = append(l.lines, "E "+fmt.Sprint(v...))
	return nil
}
func (l *eventLog) Warning(v ...any) error {
	l.lines = append(l.lines, "W "+fmt.Sprint(v...))
	return nil
}
func (l *eventLog) Info(v ...any) error { l.lines = append(l.lines, "I "+fmt.Sprint(v...)); return nil }
func (l *eventLog) Errorf(f string, a ...any) error {
	return l.Error(fmt.Sprintf(f, a...))
}
func (l *eventLog) Warningf(f string, a ...any) error {
	return l.Warning(fmt.Sprintf(f, a...))
}
func (l *eventLog) Infof(f string, a ...any) error { return l.Info(fmt.Sprintf(f, a...)) }

// The Windows service logs everything to its file and only warnings and
// errors, without the Event Log's own time and level, to the Event Log.
func TestServiceLogsToFileAndEventLog(t *testing.T) {
	dir := t.TempDir()
	sys := &eventLog{}
	log, closer, err := Service(Options{Format: "text", Level: "debug"}, dir, &bytes.Buffer{}, sys)
	if err != nil {
		t.Fatal(err)
	}
	log = log.With("restaurant", "Zum Löwen")
	log.Info("request", "path", "/api/health")
	log.WithGroup("tse").Warn("outage", "since", "12:00")
	log.Error("backup failed", "err", "disk full")
	closer.Close()

	want := []string{`W msg=outage restaurant="Zum Löwen" tse.since=12:00`, `E msg="backup failed" restaurant="Zum Löwen" err="disk full"`}
	if strings.Join(sys.lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("event log got\n%s\nwant\n%s", strings.Join(sys.lines, "\n"), strings.Join(want, "\n"))
	}
	b, err := os.ReadFile(filepath.Join(dir, "logs", FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"msg=request", "msg=outage", `msg="backup failed"`} {
		if !strings.Contains(string(b), w) {
			t.Errorf("log file lacks %s:\n%s", w, b)
		}
	}
}

// Without a service manager's log the service logs to stderr too, at the
// configured level and format.
func TestServiceLogsToStderr(t *testing.T) {
	var stderr bytes.Buffer
	log, closer, err := Service(Options{Format: "json", Level: "warn"}, t.TempDir(), &stderr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	log.Info("quiet")
	log.Warn("loud")
	if s := stderr.String(); strings.Contains(s, "quiet") || !strings.Contains(s, `"msg":"loud"`) {
		t.Fatalf("stderr: %s", s)
	}
}
