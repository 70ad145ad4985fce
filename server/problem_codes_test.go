package server

import (
	"os"
	"strings"
	"testing"
)

// TestConsoleTranslatesEveryProblemCode: the console has a German and an
// English sentence for every top-level code (statusOf), so it never has
// to show the English detail.
func TestConsoleTranslatesEveryProblemCode(t *testing.T) {
	src, err := os.ReadFile("../console/assets/js/errors.js")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i, j := strings.Index(s, "\n  de: {"), strings.Index(s, "\n  en: {")
	if i < 0 || j < i {
		t.Fatal("errors.js has no de and en blocks")
	}
	de, en := s[i:j], s[j:]
	for code := range statusOf {
		key := "'perr." + code + "'"
		if !strings.Contains(de, key) {
			t.Errorf("no German text %s in console/assets/js/errors.js", key)
		}
		if !strings.Contains(en, key) {
			t.Errorf("no English text %s in console/assets/js/errors.js", key)
		}
	}
}
