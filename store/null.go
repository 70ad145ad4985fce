package store

import "database/sql"

// The nullable columns' Go forms: a pointer for NULL-or-value on the way
// out, "" stored as NULL on the way in. Instants have theirs in time.go.

func nullString(ns sql.NullString) *string {
	if !ns.Valid {
		return nil
	}
	return &ns.String
}

func nullInt(n sql.NullInt64) *int64 {
	if !n.Valid {
		return nil
	}
	return &n.Int64
}

// emptyToNull stores "" as NULL.
func emptyToNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}
