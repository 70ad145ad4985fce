package tse

import "testing"

// TestClassifyFollowsTheTable is tse-provider.md 5.3's table.
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
	}
	for _, c := range cases {
		if got := classify(c.status, c.code); got != c.want {
			t.Errorf("%d %s: %s, want %s", c.status, c.code, got, c.want)
		}
	}
}
