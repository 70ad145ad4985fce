package tsetar

import (
	"os"
	"testing"
)

// TestVerifyCertifiedTSESample verifies a TAR exported by a certified TSE
// when one is named in TSETAR_SAMPLE (none ships with posbox: the public
// samples are not licensed for redistribution). It is how the data to be
// signed was checked against real signatures; see docs/TSE.md.
func TestVerifyCertifiedTSESample(t *testing.T) {
	p := os.Getenv("TSETAR_SAMPLE")
	if p == "" {
		t.Skip("TSETAR_SAMPLE not set: no certified TSE export to check against")
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := Verify(f, Options{})
	if err != nil {
		t.Fatalf("verify %s: %v", p, err)
	}
	if rep.Count == 0 {
		t.Fatal("no log messages")
	}
	t.Logf("%s: %d messages (%d transaction), counters %d-%d, serial %s, certificates %v",
		p, rep.Count, rep.Transactions, rep.FirstCounter, rep.LastCounter, rep.SerialNumber, rep.Certificates)
}
