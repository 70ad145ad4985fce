package replica

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// An object on the replica is a 100-byte stub in the form of an LTX
// header, then an age file holding the whole LTX file. The stub exists
// because Litestream's clients read the LTX header from the stream they
// upload (the timestamp becomes the file's mtime or the S3 object's
// metadata); it carries only the magic, the transaction IDs (already in
// the object's name) and the timestamp (already its mtime), every other
// field is zero: no page count, no checksum, no salts.
const (
	stubSize = 100 // ltx.HeaderSize
	ltxMagic = "LTX1"
	ageMagic = "age-encryption.org/v1\n"

	ageChunk    = 64 << 10 // age's STREAM chunk of plaintext
	ageTag      = 16       // Poly1305 tag per chunk
	ageNonce    = 16       // the payload's nonce
	maxAgeHdr   = 8 << 10  // more header than this (some 80 recipients) is not ours
	stubTXIDMin = 16
	stubTXIDMax = 24
	stubTime    = 32
)

var errNotOurs = errors.New("replica: object is not an encrypted posbox LTX file")

// stubFrom copies the transaction IDs and the timestamp out of a plaintext
// LTX header into a stub.
func stubFrom(hdr []byte) []byte {
	stub := make([]byte, stubSize)
	copy(stub, ltxMagic)
	copy(stub[stubTXIDMin:stubTime+8], hdr[stubTXIDMin:stubTime+8])
	return stub
}

// ageHeaderLen reads an age header from r (positioned at its start) and
// returns its length in bytes, through the "---" MAC line.
func ageHeaderLen(r io.Reader) (int64, error) {
	br := bufio.NewReader(io.LimitReader(r, maxAgeHdr))
	var n int64
	for first := true; ; first = false {
		line, err := br.ReadBytes('\n')
		n += int64(len(line))
		if err != nil {
			return 0, fmt.Errorf("%w: age header: %v", errNotOurs, err)
		}
		if first && string(line) != ageMagic {
			return 0, errNotOurs
		}
		if bytes.HasPrefix(line, []byte("--- ")) {
			return n, nil
		}
	}
}

// plainSize is the size of the plaintext of an age payload (after the
// header) of payload bytes: the nonce, then chunks of up to 64 KiB each
// followed by its tag; an empty plaintext is one empty chunk.
func plainSize(payload int64) (int64, error) {
	body := payload - ageNonce
	if body < ageTag {
		return 0, fmt.Errorf("%w: payload of %d bytes", errNotOurs, payload)
	}
	chunks := (body + ageChunk + ageTag - 1) / (ageChunk + ageTag)
	p := body - chunks*ageTag
	if p < 0 || (p == 0 && chunks != 1) || p <= (chunks-1)*ageChunk && chunks > 1 {
		return 0, fmt.Errorf("%w: payload of %d bytes", errNotOurs, payload)
	}
	return p, nil
}
