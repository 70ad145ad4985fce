package tse

import "testing"

func TestExportRanges(t *testing.T) {
	got := ExportRanges(0, 2_500_000, 0)
	want := []ExportFilter{{StartSignatureCounter: 1, EndSignatureCounter: 1_000_000},
		{StartSignatureCounter: 1_000_001, EndSignatureCounter: 2_000_000},
		{StartSignatureCounter: 2_000_001, EndSignatureCounter: 2_500_000}}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("range %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if r := ExportRanges(7, 9, 2); len(r) != 2 || r[1].StartSignatureCounter != 9 || r[1].EndSignatureCounter != 9 {
		t.Fatalf("%+v", r)
	}
	if r := ExportRanges(10, 9, 0); len(r) != 0 {
		t.Fatalf("%+v", r)
	}
}
