package discount

import (
	"strings"
	"testing"
)

func TestNewCodeIsTwoGroupsOfTheAlphabet(t *testing.T) {
	seen := map[string]bool{}
	counts := map[rune]int{}
	for range 2000 {
		c := NewCode()
		if len(c) != CodeLen+1 || c[group] != '-' {
			t.Fatalf("code %q: want XXXX-XXXX", c)
		}
		for i, r := range c {
			if i != group && !strings.ContainsRune(Alphabet, r) {
				t.Fatalf("code %q has %q, not in the alphabet", c, r)
			}
			counts[r]++
		}
		if n, ok := Normalize(c); !ok || n != c {
			t.Fatalf("Normalize(%q) = %q, %v; want the code itself", c, n, ok)
		}
		if seen[c] {
			t.Fatalf("code %q drawn twice in 2000", c)
		}
		seen[c] = true
	}
	// 16 000 characters over 31: every one comes up.
	for _, r := range Alphabet {
		if counts[r] == 0 {
			t.Errorf("%q never drawn", r)
		}
	}
}

func TestAlphabetHasNoLookAlikes(t *testing.T) {
	for _, r := range "0O1IL" {
		if strings.ContainsRune(Alphabet, r) {
			t.Errorf("the alphabet holds %q", r)
		}
	}
}

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"K7QP-MX3D", "K7QP-MX3D"},
		{"k7qp-mx3d", "K7QP-MX3D"},
		{" k7qp mx3d ", "K7QP-MX3D"},
		{"K7QPMX3D", "K7QP-MX3D"},
		{"k7-qp-mx-3d", "K7QP-MX3D"},
	} {
		if got, ok := Normalize(c.in); !ok || got != c.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, in := range []string{"", "K7QP-MX3", "K7QP-MX3DD", "K0QP-MX3D", "KOQP-MX3D", "K1QP-MX3D", "KIQP-MX3D", "KLQP-MX3D", "K7QP_MX3D", "K7QP-MX3Ä", "ｋ7QP-MX3D"} {
		if got, ok := Normalize(in); ok {
			t.Errorf("Normalize(%q) = %q, want refused", in, got)
		}
	}
}
