package tse

import (
	"net/http"
)

// classify maps a provider answer to what the caller should do about it
// (docs/DESIGN.md, TSE, "Error classes"). The simulator (through NewError)
// and the fiskaly client share it, so both faces of a failure look alike
// to the queue.
func classify(status int, code string) Class {
	switch code {
	case "E_PENDING_TX_CONFLICT", "E_TX_UPSERT", "E_TX_REVISION_NOT_FOUND",
		"E_TX_NOT_FOUND", "E_LATEST_TX_REVISION_NOT_FOUND":
		return Reconcile
	case "E_FAILED_SCHEMA_VALIDATION", "E_TX_ILLEGAL_TYPE_CHANGE", "E_TX_NO_TYPE_DEFINED":
		return TxPermanent
	case "E_TSS_NOT_INITIALIZED", "E_TSS_DISABLED", "E_CLIENT_DEREGISTERED",
		"E_CLIENT_NOT_FOUND", "E_TX_LIMIT_REACHED", "E_ACCESS_DENIED", "E_TSS_NOT_FOUND":
		return TSSPermanent
	case "E_UNAUTHORIZED":
		return Auth
	case CodeClientLimitReached:
		return ClientPermanent
	case CodeExportNotCompleted, CodeTooManyExports, CodeExportDuplicate, "E_EXPORT_IN_PROGRESS", CodeExportPollLimit:
		// Exports: the same request succeeds later (export_errors.go).
		return RateLimited
	}
	switch {
	case status == http.StatusTooManyRequests:
		return RateLimited
	case status == 499 || status >= 500:
		return Transient
	case status == http.StatusLocked || status == 432:
		return TSSPermanent
	case status == http.StatusUnauthorized:
		return Auth
	}
	// Any other 4xx: the same request will fail the same way. It is about
	// this request, not the whole TSS.
	return TxPermanent
}

// NewError builds a classified error as the provider would answer it;
// the simulator answers its refusals with it too.
func NewError(status int, code, msg string) *Error {
	return &Error{Class: classify(status, code), HTTPStatus: status, Code: code, Message: msg}
}

// Transport-level error codes (no HTTP answer).
const (
	CodeNetwork = "E_NETWORK"
	CodeTimeout = "E_TIMEOUT"
)

// NewTransportError is a failure without an HTTP answer (CodeNetwork,
// CodeTimeout): always Transient.
func NewTransportError(code, msg string) *Error {
	return &Error{Class: Transient, Code: code, Message: msg}
}
