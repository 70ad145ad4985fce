package discount

// Discount codes: the code's alphabet, its generation and the
// normalisation of what a guest types.

import (
	"crypto/rand"
	"strings"
)

// Alphabet is the characters of a code: digits and capitals without the
// ones read or typed as each other (0/O, 1/I/L), so a code read aloud or
// off a crumpled voucher is typed right.
const Alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// CodeLen is a code's characters without the hyphen: 31⁸ ≈ 8.5 × 10¹¹
// codes, so guessing one is hopeless and collisions are rare (the
// unique index refuses them; the store then draws again).
const CodeLen = 8

// group is where the hyphen goes: "K7QP-MX3D".
const group = CodeLen / 2

// NewCode draws a code from crypto/rand, uniformly over the alphabet.
func NewCode() string {
	var b strings.Builder
	b.Grow(CodeLen + 1)
	// Bytes at or above limit are thrown away, so every character is
	// equally likely (256 is not a multiple of 31).
	const limit = 256 - 256%len(Alphabet)
	buf := make([]byte, 2*CodeLen)
	n := 0
	for n < CodeLen {
		_, _ = rand.Read(buf) // never fails (crypto/rand documents it)
		for _, c := range buf {
			if int(c) >= limit || n == CodeLen {
				continue
			}
			if n == group {
				b.WriteByte('-')
			}
			b.WriteByte(Alphabet[int(c)%len(Alphabet)])
			n++
		}
	}
	return b.String()
}

// Normalize turns what was typed into the stored form "XXXX-XXXX":
// case does not matter, and spaces and hyphens anywhere are ignored.
// ok is false when the rest is not eight characters of the alphabet
// (such a text is no code of any discount).
func Normalize(typed string) (code string, ok bool) {
	var raw []byte
	for _, r := range strings.ToUpper(typed) {
		switch {
		case r == ' ' || r == '-' || r == '\t':
			continue
		case r > 'Z' || !strings.ContainsRune(Alphabet, r):
			return "", false
		}
		if len(raw) == CodeLen {
			return "", false
		}
		raw = append(raw, byte(r))
	}
	if len(raw) != CodeLen {
		return "", false
	}
	return string(raw[:group]) + "-" + string(raw[group:]), true
}
