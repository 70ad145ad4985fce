package tsetar

import (
	"errors"
	"fmt"
)

// Certified TSEs write log messages in BER, not strict DER: a D-Trust TSE
// sends processData as a constructed OCTET STRING of indefinite length.
// encoding/asn1 refuses that, and the signature covers the bytes exactly
// as written, so log messages are split into TLVs here and only the
// values are decoded with encoding/asn1.

// maxDepth bounds nesting of constructed encodings.
const maxDepth = 8

// readTLV reads one TLV from b: the element and what follows it.
func readTLV(b []byte, depth int) (element, []byte, error) {
	var e element
	if depth > maxDepth {
		return e, nil, errors.New("nested too deeply")
	}
	if len(b) < 2 {
		return e, nil, errors.New("truncated TLV")
	}
	e.class = int(b[0] >> 6)
	e.compound = b[0]&0x20 != 0
	e.tag = int(b[0] & 0x1f)
	i := 1
	if e.tag == 0x1f { // high tag number, base 128
		e.tag = 0
		for {
			if i >= len(b) || i > 4 {
				return e, nil, errors.New("bad tag")
			}
			c := b[i]
			i++
			e.tag = e.tag<<7 | int(c&0x7f)
			if c&0x80 == 0 {
				break
			}
		}
	}
	if i >= len(b) {
		return e, nil, errors.New("truncated TLV")
	}
	l := int(b[i])
	i++
	switch {
	case l == 0x80: // indefinite: constructed only, ends with 00 00
		if !e.compound {
			return e, nil, errors.New("indefinite length on a primitive element")
		}
		rest := b[i:]
		for {
			if len(rest) >= 2 && rest[0] == 0 && rest[1] == 0 {
				e.value = b[i : len(b)-len(rest)]
				e.full = b[:len(b)-len(rest)+2]
				return e, rest[2:], nil
			}
			var err error
			if _, rest, err = readTLV(rest, depth+1); err != nil {
				return e, nil, err
			}
		}
	case l > 0x80:
		n := l & 0x7f
		if n > 4 || i+n > len(b) {
			return e, nil, errors.New("bad length")
		}
		l = 0
		for _, c := range b[i : i+n] {
			l = l<<8 | int(c)
		}
		i += n
	}
	if l < 0 || i+l > len(b) {
		return e, nil, fmt.Errorf("length %d beyond the data", l)
	}
	e.value = b[i : i+l]
	e.full = b[:i+l]
	return e, b[i+l:], nil
}

// octets is an OCTET STRING's (or string type's) content, joining the
// segments of a constructed encoding.
func octets(e element, depth int) ([]byte, error) {
	if !e.compound {
		return e.value, nil
	}
	if depth > maxDepth {
		return nil, errors.New("nested too deeply")
	}
	out := []byte{}
	for rest := e.value; len(rest) > 0; {
		var seg element
		var err error
		if seg, rest, err = readTLV(rest, depth+1); err != nil {
			return nil, err
		}
		v, err := octets(seg, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, v...)
	}
	return out, nil
}
