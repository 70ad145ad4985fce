package server

import "posbox/store"

// tseArchiveJSON is one export of the fiscal archive (GET
// /api/tse/archives): what it covers, where it stands, what the
// verification found and, once archived, the file.
type tseArchiveJSON struct {
	ID                    string  `json:"id"`
	Kind                  string  `json:"kind"`
	State                 string  `json:"state"`
	FirstSignatureCounter *int64  `json:"first_signature_counter"`
	LastSignatureCounter  *int64  `json:"last_signature_counter"`
	PeriodStart           *string `json:"period_start"`
	PeriodEnd             *string `json:"period_end"`
	Verification          *string `json:"verification"`
	ReasonCode            *string `json:"reason_code"`
	Reason                *string `json:"reason"`
	LogMessages           *int64  `json:"log_messages"`
	FirstLogTime          *string `json:"first_log_time"`
	LastLogTime           *string `json:"last_log_time"`
	FileName              *string `json:"file_name"`
	SizeBytes             *int64  `json:"size_bytes"`
	SHA256                *string `json:"sha256"`
	TSSSerialNumber       string  `json:"tss_serial_number"`
	ExportID              string  `json:"export_id"`
	Attempts              int     `json:"attempts"`
	NextAttemptAt         *string `json:"next_attempt_at"`
	CreatedAt             string  `json:"created_at"`
	UpdatedAt             string  `json:"updated_at"`
	ArchivedAt            *string `json:"archived_at"`
}

func tseArchiveView(a *store.TSEArchive) tseArchiveJSON {
	v := tseArchiveJSON{ID: a.ID, Kind: a.Kind, State: a.State, FirstSignatureCounter: a.FirstCounter, LastSignatureCounter: a.LastCounter,
		PeriodStart: tsPtr(a.StartDate), PeriodEnd: tsPtr(a.EndDate), Verification: strPtr(a.Verification),
		ReasonCode: strPtr(a.ReasonCode), Reason: strPtr(a.Reason), LogMessages: a.LogMessages,
		FirstLogTime: tsPtr(a.FirstLogTime), LastLogTime: tsPtr(a.LastLogTime), FileName: strPtr(a.FileName),
		SizeBytes: a.SizeBytes, SHA256: strPtr(a.SHA256), TSSSerialNumber: a.TSSSerial, ExportID: a.ExportID,
		Attempts: a.Attempts, CreatedAt: ts(a.CreatedAt), UpdatedAt: ts(a.UpdatedAt), ArchivedAt: tsPtr(a.ArchivedAt)}
	if a.Open() {
		v.NextAttemptAt = tsPtr(&a.NextAttemptAt)
	}
	return v
}

// tseArchiveStatusJSON is the archive's part of GET /api/tse/status.
type tseArchiveStatusJSON struct {
	LastArchivedCounter  int64   `json:"last_archived_counter"`
	LastArchivedAt       *string `json:"last_archived_at"`
	OldestUnarchivedAt   *string `json:"oldest_unarchived_at"`
	OldestUnarchivedDays *int    `json:"oldest_unarchived_days"`
	OpenExports          int     `json:"open_exports"`
	RejectedRanges       int     `json:"rejected_ranges"`
	Warning              *string `json:"warning"`
	// Start is the declared first counter to archive from (null: 1).
	Start *tseArchiveStartJSON `json:"start"`
}

func tseArchiveStatusView(s *store.TSEArchiveState) *tseArchiveStatusJSON {
	if s == nil {
		return nil
	}
	return &tseArchiveStatusJSON{LastArchivedCounter: s.LastArchivedCounter, LastArchivedAt: tsPtr(s.LastArchivedAt),
		OldestUnarchivedAt: tsPtr(s.OldestUnarchived), OldestUnarchivedDays: s.OldestUnarchivedDays, OpenExports: s.Open,
		RejectedRanges: s.Rejected, Warning: strPtr(s.Warning), Start: tseArchiveStartView(s.Start)}
}
