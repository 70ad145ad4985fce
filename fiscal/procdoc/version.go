package procdoc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"posbox/store"
)

// Current gathers the restaurant's document and returns its version:
// the newest stored one when the content is unchanged, else a new one,
// stored with its content before it is returned. main calls it at start
// and every night too, so a version's date is at most a day after the
// change it records even when nobody opens the document.
func (b *Builder) Current(ctx context.Context, restaurantID string) (*store.ProcDocVersion, error) {
	d, err := b.Gather(ctx, restaurantID)
	if err != nil {
		return nil, err
	}
	// The struct's field order makes the encoding the same for the same
	// content, and its SHA-256 the version's identity.
	content, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(content)
	return b.St.RecordProcDocVersion(ctx, restaurantID, hex.EncodeToString(sum[:]), string(content))
}
