package poll

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestWaitReturnsOnceTheConditionHolds(t *testing.T) {
	n := 0
	if !Wait(10*time.Second, func() bool { n++; return n == 5 }) {
		t.Fatal("Wait gave up on a condition that held")
	}
	if n != 5 {
		t.Fatalf("cond ran %d times, want 5", n)
	}
}

func TestWaitGivesUpAfterTheTimeout(t *testing.T) {
	began, n := time.Now(), 0
	if Wait(30*time.Millisecond, func() bool { n++; return false }) {
		t.Fatal("Wait says a condition that never held did")
	}
	if took := time.Since(began); took < 30*time.Millisecond || took > 5*time.Second {
		t.Fatalf("Wait took %s for a 30ms timeout", took)
	}
	if n < 3 {
		t.Fatalf("cond ran %d times in 30ms", n)
	}
}

// fatalTB records Fatalf instead of ending the test.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
}

func TestUntilNamesWhatItWaitedFor(t *testing.T) {
	tb := &fatalTB{TB: t}
	Until(tb, 10*time.Millisecond, "the receiver's request", func() bool { return false })
	if !strings.Contains(tb.msg, "the receiver's request") {
		t.Fatalf("failure %q does not name what was awaited", tb.msg)
	}
	tb.msg = ""
	Until(tb, 10*time.Millisecond, "nothing", func() bool { return true })
	if tb.msg != "" {
		t.Fatalf("Until failed on a condition that held: %q", tb.msg)
	}
}
