package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var manDay = time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)

// TestManPageListsEveryCommand: every command of the table that "posbox
// help" shows is in posbox(1), in the synopsis and with its description
// under COMMANDS; hidden ones are in neither.
func TestManPageListsEveryCommand(t *testing.T) {
	page := manPage("1.2.3", manDay)
	help := usage()
	commandsSection := section(t, page, "COMMANDS")
	synopsisSection := section(t, page, "SYNOPSIS")
	shown := 0
	for _, c := range commandTable() {
		if !strings.HasPrefix(c.synopsis, c.name) {
			t.Errorf("command %s: synopsis %q does not start with its name", c.name, c.synopsis)
		}
		syn := synopsisRoff(c)
		if c.hidden {
			if strings.Contains(page, `\fBposbox `+roffText(c.name)+`\fR`) || strings.Contains(page, `\fBposbox `+roffText(c.name)+` `) {
				t.Errorf("hidden command %s is in the manual page", c.name)
			}
			if strings.Contains(help, "  posbox "+c.name) {
				t.Errorf("hidden command %s is in posbox help", c.name)
			}
			continue
		}
		shown++
		if !strings.Contains(synopsisSection, syn+"\n") {
			t.Errorf("SYNOPSIS lacks %s: want line %q", c.name, syn)
		}
		if !strings.Contains(commandsSection, ".TP\n"+syn+"\n"+roffText(c.summary)+"\n") {
			t.Errorf("COMMANDS lacks %s with its summary", c.name)
		}
		if c.summary == "" {
			t.Errorf("command %s has no summary for the manual page", c.name)
		}
		if !strings.Contains(help, "  posbox "+c.synopsis) {
			t.Errorf("posbox help lacks %s", c.name)
		}
	}
	if shown < 9 {
		t.Errorf("only %d commands shown", shown)
	}
}

// TestManPageListsEverySetting: every key of the config, with its
// environment variable, is under CONFIGURATION.
func TestManPageListsEverySetting(t *testing.T) {
	conf := section(t, manPage("1.2.3", manDay), "CONFIGURATION")
	var c Config
	for _, s := range c.settings() {
		want := `\fB` + roffText(s.key) + `\fR (\fBPOSBOX_` + roffText(strings.ToUpper(s.key)) + `\fR; default: `
		if !strings.Contains(conf, want) {
			t.Errorf("CONFIGURATION lacks %s", s.key)
		}
	}
}

// TestManPageHeaderAndEscapes: the title line carries the version and
// date; every line starting with a period is a request posbox means
// (text that starts with one is escaped), and no hyphen is left bare.
func TestManPageHeaderAndEscapes(t *testing.T) {
	page := manPage("1.2.3-rc.1", manDay)
	if !strings.Contains(page, "\n.TH POSBOX 1 2026-11-23 \"posbox 1.2.3\\-rc.1\" \"posbox manual\"\n") {
		t.Errorf("title line wrong:\n%s", page[:300])
	}
	if !strings.Contains(page, ".SH NAME\nposbox \\- ") {
		t.Error("NAME is not \"posbox \\- description\" (whatis)")
	}
	request := regexp.MustCompile(`^\.(\\"|TH |SH |TP$|PP$|nf$|fi$|nh$|ad l$)`)
	for i, l := range strings.Split(page, "\n") {
		if (strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'")) && !request.MatchString(l) {
			t.Errorf("line %d: unexpected request %q", i+1, l)
		}
		if !strings.HasPrefix(l, `.\"`) && !strings.HasPrefix(l, ".TH ") && regexp.MustCompile(`(^|[^\\])-`).MatchString(l) {
			t.Errorf("line %d: bare hyphen in %q", i+1, l)
		}
	}
	for _, tc := range [][2]string{{".hidden", `\&.hidden`}, {`a\b`, `a\eb`}, {"--x", `\-\-x`}, {"'q", `\&'q`}} {
		if got := roffText(tc[0]); got != tc[1] {
			t.Errorf("roffText(%q) = %q, want %q", tc[0], got, tc[1])
		}
	}
}

// TestManPageRendersWithoutWarnings formats the page the way lintian
// does (man --warnings) where man is installed: no groff warnings.
func TestManPageRendersWithoutWarnings(t *testing.T) {
	man, err := exec.LookPath("man")
	if err != nil {
		t.Skip("man not installed")
	}
	path := filepath.Join(t.TempDir(), "posbox.1")
	if err := os.WriteFile(path, []byte(manPage("1.2.3", manDay)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(man, "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", path)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8", "MANROFFSEQ=", "MANWIDTH=120"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("man --warnings: %v\n%s", err, stderr.String())
	}
}

// TestManCommand: the hidden "posbox man" writes the page, dated
// SOURCE_DATE_EPOCH, and is in neither the help nor the page.
func TestManCommand(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1795430000") // 2026-11-23
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"man"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("posbox man: exit %d: %s", code, errOut.String())
	}
	if !strings.HasPrefix(out.String(), `.\" posbox(1)`) || !strings.Contains(out.String(), "\n.TH POSBOX 1 2026-11-23 ") {
		t.Errorf("posbox man wrote:\n%.300s", out.String())
	}
	if _, err := manDate("yesterday", time.Now()); err == nil {
		t.Error("SOURCE_DATE_EPOCH=yesterday accepted")
	}
	if d, _ := manDate("", manDay.Add(2*time.Hour)); !d.Equal(manDay.Add(2 * time.Hour)) {
		t.Errorf("no SOURCE_DATE_EPOCH: %v, want now", d)
	}
}

// TestManTableDrivesHelpAndDispatch: run dispatches through the table
// the page comes from. "posbox help" and its spellings print the usage,
// exit 0; no command or an unknown one print it to stderr, exit 2;
// aliases reach their command; no name is taken twice.
func TestManTableDrivesHelpAndDispatch(t *testing.T) {
	for _, arg := range []string{"help", "-h", "--help"} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{arg}, nil, &out, &errOut); code != 0 || out.String() != usage() {
			t.Errorf("posbox %s: exit %d, output %q", arg, code, out.String())
		}
	}
	for _, args := range [][]string{nil, {"bogus"}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, nil, &out, &errOut); code != 2 || !strings.HasSuffix(errOut.String(), usage()) || out.Len() > 0 {
			t.Errorf("posbox %q: exit %d, stderr %q", args, code, errOut.String())
		}
	}
	for _, arg := range []string{"version", "--version", "-v"} {
		var out bytes.Buffer
		if code := run(context.Background(), []string{arg}, nil, &out, &out); code != 0 || out.String() != versionString()+"\n" {
			t.Errorf("posbox %s: exit %d, %q", arg, code, out.String())
		}
	}
	seen := map[string]bool{}
	for _, c := range commandTable() {
		for _, n := range append([]string{c.name}, c.aliases...) {
			if seen[n] {
				t.Errorf("%q names two commands", n)
			}
			seen[n] = true
		}
		if c.run == nil {
			t.Errorf("command %s has no run", c.name)
		}
	}
}

// section is the text of the man page's section NAME, up to the next.
func section(t *testing.T, page, name string) string {
	t.Helper()
	_, after, ok := strings.Cut(page, "\n.SH "+name+"\n")
	if !ok {
		t.Fatalf("no section %s", name)
	}
	if i := strings.Index(after, "\n.SH "); i >= 0 {
		after = after[:i+1]
	}
	return after
}
