package store

import (
	"context"
	"encoding/json"
	"time"
)

// TSEInfo is the TSS as last seen, cached in kv (as this JSON) by the TSE
// queue so the TSS info, the TSE status and the DSFinV-K export can
// answer while the provider is unreachable.
type TSEInfo struct {
	ID           string    `json:"id"`
	Description  string    `json:"description"`
	State        string    `json:"state"` // raw provider state
	SerialNumber string    `json:"serial_number"`
	PublicKey    string    `json:"public_key"`
	CertNotAfter time.Time `json:"cert_not_after"`
	// The TSS certificate (base64 DER) and its BSI certification id, for
	// the DSFinV-K tse.csv and the §146a (4) AO registration.
	Certificate        string    `json:"certificate,omitempty"`
	BSICertificationID string    `json:"bsi_certification_id,omitempty"`
	ActiveTransactions int       `json:"active_transactions"`
	MaxActiveTx        int       `json:"max_active_transactions"`
	FetchedAt          time.Time `json:"fetched_at"`
}

func tseInfoKey(tssID string) string { return "tse.info." + tssID }

// CacheTSEInfo remembers info as the last known state of the TSS.
func (s *Store) CacheTSEInfo(ctx context.Context, tssID string, info TSEInfo) error {
	raw, err := json.Marshal(info)
	if err != nil {
		return err
	}
	return s.SetKV(ctx, tseInfoKey(tssID), string(raw))
}

// CachedTSEInfo is the last known state of the TSS; ok is false when none
// is known (or the cached value cannot be read).
func (s *Store) CachedTSEInfo(ctx context.Context, tssID string) (info TSEInfo, ok bool, err error) {
	v, ok, err := s.KV(ctx, tseInfoKey(tssID))
	if err != nil || !ok {
		return info, false, err
	}
	return info, json.Unmarshal([]byte(v), &info) == nil, nil
}
