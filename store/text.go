package store

import "strings"

// hasControl reports a control character other than tab, newline and
// carriage return (NUL among them): names go into logs, emails, SMS and
// CSV files, where such a character breaks or hides what follows.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f
	})
}

// checkName adds a field error for a one-line name with a control
// character (a line break included).
func checkName(f *Fields, field, s string) {
	if hasControl(s) || strings.ContainsAny(s, "\r\n") {
		f.Add(field, FControlChars, "must not contain control characters or line breaks")
	}
}
