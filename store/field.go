package store

import (
	"bytes"
	"encoding/json"
)

// Field is one member of a partial update: absent (Set false), an explicit
// JSON null (Set and Null), or a value. A pointer cannot tell the first two
// apart, and PUT must: "valid_until": null clears the expiry.
type Field[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// Of is a set, non-null Field.
func Of[T any](v T) Field[T] { return Field[T]{Set: true, Value: v} }

// UnmarshalJSON is called only for members present in the body.
func (f *Field[T]) UnmarshalJSON(b []byte) error {
	f.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		f.Null = true
		return nil
	}
	return json.Unmarshal(b, &f.Value)
}

// Apply copies a set, non-null value into dst; for fields that cannot be
// null (the caller rejects Null first).
func (f Field[T]) Apply(dst *T) {
	if f.Set && !f.Null {
		*dst = f.Value
	}
}

// ApplyNullable copies a set value into a nullable dst; null clears it.
func (f Field[T]) ApplyNullable(dst **T) {
	switch {
	case !f.Set:
	case f.Null:
		*dst = nil
	default:
		v := f.Value
		*dst = &v
	}
}

// NotNull adds a field error when a non-nullable member was sent as null.
func NotNull[T any](fs *Fields, name string, f Field[T]) {
	if f.Set && f.Null {
		fs.Add(name, FNotNull, "must not be null")
	}
}
