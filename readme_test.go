package main

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestReadmeListsEveryCommand: the README's command list ("## Commands",
// its first code block) is the usage lines "posbox help" prints, in the
// same order, without their notes in parentheses.
func TestReadmeListsEveryCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"help"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("posbox help: exit %d\n%s", code, stderr.String())
	}
	var help []string
	for line := range strings.Lines(stdout.String()) {
		if rest, ok := strings.CutPrefix(line, "  posbox "); ok {
			synopsis, _, _ := strings.Cut(strings.TrimRight(rest, "\n"), "   (")
			help = append(help, "posbox "+synopsis)
		}
	}
	readme := readmeCommands(t)
	if len(help) < 9 {
		t.Fatalf("posbox help lists %d commands:\n%s", len(help), stdout.String())
	}
	if slices.Equal(readme, help) {
		return
	}
	for _, l := range help {
		if !slices.Contains(readme, l) {
			t.Errorf("README.md lacks (or words differently) %q", l)
		}
	}
	for _, l := range readme {
		if !slices.Contains(help, l) {
			t.Errorf("README.md lists %q, which posbox help does not", l)
		}
	}
	t.Errorf("README.md's command list differs from posbox help:\nREADME:\n%s\nposbox help:\n%s",
		strings.Join(readme, "\n"), strings.Join(help, "\n"))
}

// readmeCommands returns the lines of the first code block under
// README.md's "## Commands".
func readmeCommands(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Commands\n")
	if !ok {
		t.Fatal(`README.md has no "## Commands" section`)
	}
	_, block, ok := strings.Cut(section, "```\n")
	if !ok {
		t.Fatal(`README.md's "## Commands" has no code block`)
	}
	block, _, _ = strings.Cut(block, "```")
	var lines []string
	for line := range strings.Lines(block) {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}
