package store

import "github.com/google/uuid"

// NewID returns a time-sortable UUIDv7 string.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

// ValidID reports whether s is a UUID in its canonical lowercase form;
// uuid.Parse alone also accepts braces, urn: and missing hyphens.
func ValidID(s string) bool {
	u, err := uuid.Parse(s)
	return err == nil && u.String() == s
}
