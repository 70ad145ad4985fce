package tse

// ExportRanges splits the signature counters first..last (inclusive) into
// filters of at most max counters each (max <= 0 or above
// MaxExportRecords: MaxExportRecords), as fiskaly asks for exports of
// more than a million records. Every counter is one record, so a range
// never exceeds the limit. first < 1 counts from 1; last < first gives
// none.
func ExportRanges(first, last, max int64) []ExportFilter {
	if max <= 0 || max > MaxExportRecords {
		max = MaxExportRecords
	}
	first = max64(first, 1)
	var out []ExportFilter
	for lo := first; lo <= last; lo += max {
		hi := min(lo+max-1, last)
		out = append(out, ExportFilter{StartSignatureCounter: lo, EndSignatureCounter: hi})
	}
	return out
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
