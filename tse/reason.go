package tse

import (
	"errors"
	"fmt"
)

// Client-level error codes: the TSS refuses one terminal, not the others.
const (
	CodeClientLimitReached = "E_CLIENT_LIMIT_REACHED"
	// CodeUnavailable is posbox's code for "not signing right now" when no
	// provider error is known yet.
	CodeUnavailable = "E_UNAVAILABLE"
)

// reasons are the sentences an owner, an admin and the tax office read in
// the outage record, the queue and the notifications (AEAO zu § 146a,
// 1.14.1: when and why the TSE failed). They name the cause in plain
// words; the provider's raw message, URLs and request ids stay in the log.
var reasons = map[string]string{
	CodeNetwork:                      "TSE provider unreachable (network error)",
	CodeTimeout:                      "TSE provider did not answer in time",
	CodeUnavailable:                  "TSE provider unreachable",
	"E_TSS_LOCKED":                   "TSE temporarily locked by the provider",
	"E_INTERNAL":                     "TSE provider error",
	"E_BAD_ANSWER":                   "TSE provider sent an unreadable answer",
	"E_TOO_MANY_REQUESTS":            "TSE provider rate limit reached",
	"E_UNAUTHORIZED":                 "TSE provider refused the credentials (API key or admin PIN)",
	"E_ACCESS_DENIED":                "TSE provider denied access to the TSS",
	"E_NO_ADMIN_PIN":                 "TSE admin PIN missing: terminals cannot be registered",
	"E_TSS_NOT_FOUND":                "TSS not found at the provider",
	"E_TSS_NOT_INITIALIZED":          "TSS not initialized",
	"E_TSS_DISABLED":                 "TSS disabled",
	"E_TSS_DEFECTIVE":                "TSS defective",
	"E_TSS_DELETED":                  "TSS deleted",
	"E_TSS_EVICTED":                  "TSS evicted by the provider",
	"E_CERTIFICATE_EXPIRED":          "TSE certificate expired",
	"E_TX_LIMIT_REACHED":             "too many open transactions at the TSE",
	CodeClientLimitReached:           "TSS terminal limit reached: this terminal cannot be registered",
	"E_CLIENT_DEREGISTERED":          "terminal deregistered at the TSE",
	"E_CLIENT_NOT_FOUND":             "terminal not registered at the TSE",
	"E_CLIENT_CONFLICT":              "terminal serial number already used at the TSE",
	"E_FAILED_SCHEMA_VALIDATION":     "TSE refused the receipt data",
	"E_TX_ILLEGAL_TYPE_CHANGE":       "TSE refused a change of the receipt type",
	"E_TX_NO_TYPE_DEFINED":           "TSE refused a receipt without type",
	"E_TX_UPSERT":                    "TSE holds this transaction in another state",
	"E_TX_NOT_FOUND":                 "transaction not found at the TSE",
	"E_TX_REVISION_NOT_FOUND":        "transaction revision not found at the TSE",
	"E_PENDING_TX_CONFLICT":          "TSE is still processing this transaction",
	"E_LATEST_TX_REVISION_NOT_FOUND": "transaction revision not found at the TSE",
	"E_PAYLOAD_TOO_LARGE":            "TSE refused the receipt data (too large)",
}

// Reason is the sentence for a provider error code; an unknown code gets a
// generic sentence naming the code and the HTTP status.
func Reason(code string, httpStatus int) string {
	if r, ok := reasons[code]; ok {
		return capitalize(r)
	}
	switch {
	case code == "":
		return "TSE provider error"
	case httpStatus >= 500:
		return fmt.Sprintf("TSE provider error (HTTP %d)", httpStatus)
	case httpStatus != 0:
		return fmt.Sprintf("TSE provider refused the request (%s)", code)
	}
	return fmt.Sprintf("TSE provider error (%s)", code)
}

// Reason is e's sentence (see the package function).
func (e *Error) Reason() string { return Reason(e.Code, e.HTTPStatus) }

// Describe is the stable code and the sentence of any error: a provider
// error's own, or E_NETWORK for anything unclassified.
func Describe(err error) (code, reason string) {
	var e *Error
	if errors.As(err, &e) {
		return e.Code, e.Reason()
	}
	return CodeNetwork, Reason(CodeNetwork, 0)
}

// CodeClass is the class of a provider error code alone (no HTTP status
// known), e.g. to rebuild the queue's state from stored codes.
func CodeClass(code string) Class {
	if code == CodeNetwork || code == CodeTimeout {
		return Transient
	}
	return classify(0, code)
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
