package tsesim

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// A request body of the wrong JSON shape is answered as fiskaly's schema
// validation words a violation (fiskaly runs Fastify, whose validator is
// ajv): "<where> must be <JSON type>", where is "body" and the JSON path
// of the offending value ("body/schema/raw/process_type", array elements
// by index). Go's decoder text ("cannot unmarshal array into Go value of
// type struct ...") names Go types and is never shown.

// decodeJSON decodes b, the JSON value at at ("body" for a request
// body), into v; strict refuses keys v has no field for.
func decodeJSON(b []byte, v any, at string, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return &errSchema{jsonMessage(b, at, err)}
	}
	if isNull(b) && reflect.TypeOf(v).Elem().Kind() == reflect.Struct {
		return &errSchema{at + " must be object"}
	}
	return nil
}

// jsonMessage words a decoding error of b (found at at).
func jsonMessage(b []byte, at string, err error) string {
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te):
		return jsonPath(b, te.Offset, at) + " must be " + jsonType(te.Type)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return at + " must NOT have additional properties"
	}
	return at + " is not valid JSON"
}

// jsonType is the JSON type a Go type decodes from, as a schema names it.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonType(t.Elem())
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	return "of another type"
}

// jsonPath is the path (at, then "/key" or "/index" per level) of the
// value of b that the decoder was reading when it had read offset bytes:
// Go reports the offending value's end, or for an object or array the end
// of its opening bracket.
func jsonPath(b []byte, offset int64, at string) string {
	type level struct {
		object  bool
		key     string
		index   int
		wantKey bool
	}
	var stack []*level
	path := func() string {
		p := at
		for _, l := range stack {
			if l.object {
				p += "/" + l.key
			} else {
				p += "/" + strconv.Itoa(l.index)
			}
		}
		return p
	}
	next := func() { // a value ended: the enclosing level moves on
		if n := len(stack); n > 0 {
			stack[n-1].wantKey = stack[n-1].object
			stack[n-1].index++
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			return at
		}
		if n := len(stack); n > 0 && stack[n-1].wantKey {
			if k, ok := tok.(string); ok {
				stack[n-1].key, stack[n-1].wantKey = k, false
				continue
			}
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			next()
			continue
		}
		if dec.InputOffset() >= offset {
			return path()
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, &level{object: d == '{', wantKey: d == '{'})
			continue
		}
		next()
	}
}
