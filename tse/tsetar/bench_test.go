package tsetar

import (
	"bytes"
	"testing"
)

// BenchmarkVerify measures reading and verifying a TAR of 1,000 log
// messages; msg/s says how long a million-record export takes to check.
func BenchmarkVerify(b *testing.B) {
	f := newFixture(b)
	const n = 1000
	tarball := f.tar(b, f.messages(b, 1, n), nil)
	b.SetBytes(int64(len(tarball)))
	b.ResetTimer()
	for b.Loop() {
		rep, err := Verify(bytes.NewReader(tarball), Options{FirstCounter: 1, LastCounter: n})
		if err != nil || rep.Count != n {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "msg/s")
}
