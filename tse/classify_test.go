package tse

import "testing"

// TestClassifyFollowsTheTable pins classify to the error classes of
// docs/DESIGN.md (TSE, "Error classes"): one row per provider answer.
func TestClassifyFollowsTheTable(t *testing.T) {
	cases := []struct {
		status int
		code   string
		want   Class
	}{
		{499, "", Transient},
		{500, "E_INTERNAL", Transient},
		{502, "SMAERS_GATEWAY_ERROR_PRECONDITION_UNEXPORTED_LOGS", Transient},
		{503, "E_TSS_LOCKED", Transient},
		{429, "E_TOO_MANY_REQUESTS", RateLimited},
		{401, "E_UNAUTHORIZED", Auth},
		{409, "E_PENDING_TX_CONFLICT", Reconcile},
		{400, "E_TX_UPSERT", Reconcile},
		{400, "E_TX_REVISION_NOT_FOUND", Reconcile},
		{404, "E_TX_NOT_FOUND", Reconcile},
		{400, "E_FAILED_SCHEMA_VALIDATION", TxPermanent},
		{409, "E_TX_ILLEGAL_TYPE_CHANGE", TxPermanent},
		{409, "E_TX_NO_TYPE_DEFINED", TxPermanent},
		{400, "E_TSS_NOT_INITIALIZED", TSSPermanent},
		{400, "E_TSS_DISABLED", TSSPermanent},
		{400, "E_CLIENT_DEREGISTERED", TSSPermanent},
		{400, "E_CLIENT_NOT_FOUND", TSSPermanent},
		{400, "E_TX_LIMIT_REACHED", TSSPermanent},
		{403, "E_ACCESS_DENIED", TSSPermanent},
		{404, "E_TSS_NOT_FOUND", TSSPermanent},
		{423, "E_CERTIFICATE_EXPIRED", TSSPermanent},
		{423, "E_TSS_DEFECTIVE", TSSPermanent},
		{432, "E_USE_MIDDLEWARE", TSSPermanent},
		{403, "E_CLIENT_LIMIT_REACHED", ClientPermanent},
	}
	for _, c := range cases {
		if got := classify(c.status, c.code); got != c.want {
			t.Errorf("%d %s: %s, want %s", c.status, c.code, got, c.want)
		}
	}
}

// A reason is a short sentence without URLs or Go error text, and every
// code the simulator and the fiskaly client produce has its own.
func TestReasonIsAShortSentence(t *testing.T) {
	cases := []struct {
		code   string
		status int
		want   string
	}{
		{CodeNetwork, 0, "TSE provider unreachable (network error)"},
		{CodeTimeout, 0, "TSE provider did not answer in time"},
		{"E_TSS_DISABLED", 400, "TSS disabled"},
		{"E_CERTIFICATE_EXPIRED", 423, "TSE certificate expired"},
		{CodeClientLimitReached, 403, "TSS terminal limit reached: this terminal cannot be registered"},
		{"E_HTTP_502", 502, "TSE provider error (HTTP 502)"},
		{"E_SOMETHING_NEW", 400, "TSE provider refused the request (E_SOMETHING_NEW)"},
	}
	for _, c := range cases {
		if got := Reason(c.code, c.status); got != c.want {
			t.Errorf("%s: %q, want %q", c.code, got, c.want)
		}
	}
	raw := NewTransportError(CodeNetwork, `Put "http://127.0.0.1:8091/api/v2/tss/x/tx/y?tx_revision=1": EOF`)
	if code, reason := Describe(raw); code != CodeNetwork || reason != "TSE provider unreachable (network error)" {
		t.Errorf("Describe: %s %q", code, reason)
	}
}
