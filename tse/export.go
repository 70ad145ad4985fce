package tse

import (
	"context"
	"io"
	"time"
)

// Exporter is a provider that can export its TSS's log messages as the
// TAR file of BSI TR-03151 (fiskaly SIGN DE v2 "exports"; docs/TSE.md).
// The fiskaly client and the simulator implement it. An export is
// triggered once with an id the caller chooses (so that a restart can
// find it again), then polled until it is COMPLETED, then downloaded.
type Exporter interface {
	// StartExport triggers an export (PUT /tss/{id}/export/{export_id}).
	// Starting an id that already exists answers that export, unchanged.
	StartExport(ctx context.Context, exportID string, f ExportFilter) (Export, error)
	// Export reads an export's state (GET /tss/{id}/export/{export_id}).
	Export(ctx context.Context, exportID string) (Export, error)
	// DownloadExport writes a COMPLETED export's TAR to w
	// (GET /tss/{id}/export/{export_id}/file) and returns its size.
	DownloadExport(ctx context.Context, exportID string, w io.Writer) (int64, error)
	// CancelExport cancels a PENDING or WORKING export
	// (DELETE /tss/{id}/export/{export_id}).
	CancelExport(ctx context.Context, exportID string) error
}

// ExportFilter narrows an export. Zero fields are open; the archive
// exports by signature-counter range, which is gap-free by construction.
type ExportFilter struct {
	StartSignatureCounter int64
	EndSignatureCounter   int64
	StartDate             time.Time
	EndDate               time.Time
	// MaximumRecords caps the records (fiskaly's default and maximum is
	// MaxExportRecords; 0 means that).
	MaximumRecords int64
}

// MaxExportRecords is the most records one fiskaly export holds; a larger
// range is split by signature counter.
const MaxExportRecords = 1_000_000

// Export states as fiskaly reports them.
const (
	ExportPending   = "PENDING"
	ExportWorking   = "WORKING"
	ExportCompleted = "COMPLETED"
	ExportCancelled = "CANCELLED"
	ExportError     = "ERROR"
)

// Export is one export as the provider describes it.
type Export struct {
	ID    string
	State string
	// Exception is the provider's reason for ERROR (E_NO_DATA_AVAILABLE,
	// E_TOO_MANY_RECORDS, ...), empty otherwise.
	Exception string
	Requested time.Time
	Started   time.Time
	Ended     time.Time
	// Expires is when the provider deletes the file (zero: unknown).
	Expires time.Time
	// EstimatedCompletion is the provider's guess (zero: none given).
	EstimatedCompletion time.Time
	// RetryAfter is how long the provider asked the caller to wait before
	// polling again (zero: not asked); polls stay within fiskaly's 12 a
	// minute per export regardless.
	RetryAfter time.Duration
}
