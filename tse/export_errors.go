package tse

import (
	"errors"
	"time"
)

// Export error codes: fiskaly's (docs/TSE.md, "TAR exports") and the one
// the client itself answers when a caller polls too often.
const (
	// CodeExportNotCompleted: the file was asked for before the export
	// was COMPLETED (404, Retry-After: 60).
	CodeExportNotCompleted = "E_EXPORT_NOT_COMPLETED"
	// CodeTooManyExports: ten exports of this TSS are already PENDING or
	// WORKING (409).
	CodeTooManyExports = "E_TOO_MANY_EXPORTS"
	// CodeExportDuplicate: the same export is already running (409).
	CodeExportDuplicate = "E_EXPORT_DUPLICATE_RATE_LIMITED"
	// CodeExportNotFound: no export with this id (404); it expired or was
	// never started.
	CodeExportNotFound = "E_EXPORT_NOT_FOUND"
	// CodeExportPollLimit: posbox refused to send a 13th state or file
	// request for one export within a minute (fiskaly's limit); nothing
	// was sent. RetryAfter says when the next one may go.
	CodeExportPollLimit = "E_EXPORT_POLL_LIMIT"
	// CodeTooManyRequests is the code a 429 gets when fiskaly's answer
	// names none.
	CodeTooManyRequests = "E_HTTP_429"
)

// CodeOf is err's provider code ("" when err is not an *Error).
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// RetryAfterOf says whether err means "the same request may succeed
// later" and how long to wait first: a 429, a 503 with Retry-After, an
// export not completed yet, too many running exports, a duplicate still
// running, or the client's own poll limit. The wait is the provider's
// Retry-After, or a default of one minute where none came. ok is false
// for every other error.
func RetryAfterOf(err error) (wait time.Duration, ok bool) {
	var e *Error
	if !errors.As(err, &e) {
		return 0, false
	}
	switch {
	case e.Class == RateLimited, e.HTTPStatus == 503 && e.RetryAfter > 0:
	default:
		return 0, false
	}
	if e.RetryAfter > 0 {
		return e.RetryAfter, true
	}
	return time.Minute, true
}
