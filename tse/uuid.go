package tse

import (
	"crypto/rand"
	"encoding/hex"
	"regexp"
)

// uuidRe is the form fiskaly checks ids in: any UUID, either case.
var uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// ValidUUID says whether s is a UUID as fiskaly accepts one for a TSS,
// client, transaction or export id.
func ValidUUID(s string) bool { return uuidRe.MatchString(s) }

// NewUUID4 is a random (version 4) UUID, the id form fiskaly wants for
// TSSs, clients and transactions.
func NewUUID4() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
