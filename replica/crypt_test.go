package replica

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"testing"

	"filippo.io/age"
	"github.com/benbjohnson/litestream/file"
	"github.com/superfly/ltx"
)

// fakeLTX is an LTX-shaped plaintext of n bytes: a header Litestream's
// clients accept (magic, TXIDs, timestamp), then counting bytes.
func fakeLTX(n int, minTXID, maxTXID ltx.TXID) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i * 7)
	}
	copy(b, ltxMagic)
	binary.BigEndian.PutUint64(b[16:], uint64(minTXID))
	binary.BigEndian.PutUint64(b[24:], uint64(maxTXID))
	binary.BigEndian.PutUint64(b[32:], 1_700_000_000_000)
	binary.BigEndian.PutUint32(b[12:], 0xC0FFEE) // a commit count that must not show
	return b
}

func newKey(t testing.TB) *age.X25519Identity {
	t.Helper()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestPlainSizeMatchesAge(t *testing.T) {
	id := newKey(t)
	for _, n := range []int{0, 1, 100, 65535, 65536, 65537, 2*65536 + 5, 3 * 65536} {
		var buf bytes.Buffer
		w, _ := age.Encrypt(&buf, id.Recipient(), newKey(t).Recipient())
		w.Write(make([]byte, n))
		w.Close()
		hl, err := ageHeaderLen(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		got, err := plainSize(int64(buf.Len()) - hl)
		if err != nil || got != int64(n) {
			t.Errorf("plaintext of %d bytes: plainSize says %d, %v", n, got, err)
		}
	}
}

// TestCryptClientRoundTrip writes through the encrypting client onto
// Litestream's file client and reads back as Litestream does: whole
// files, ranges at offsets, and listings whose sizes are the plaintext's,
// also for a client that did not write them (a restoring box).
func TestCryptClientRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	id := newKey(t)
	c := newCryptClient(file.NewReplicaClient(dir), []age.Recipient{id.Recipient()}, []age.Identity{id}, nil)
	sizes := map[ltx.TXID]int{1: 150, 2: 70_000, 3: 200_000}
	plain := map[ltx.TXID][]byte{}
	for tx, n := range sizes {
		plain[tx] = fakeLTX(n, tx, tx)
		info, err := c.WriteLTXFile(ctx, 0, tx, tx, bytes.NewReader(plain[tx]))
		if err != nil {
			t.Fatal(err)
		}
		if info.Size != int64(n) {
			t.Errorf("WriteLTXFile says size %d, want %d", info.Size, n)
		}
	}
	fresh := newCryptClient(file.NewReplicaClient(dir), nil, []age.Identity{id}, nil)
	for _, cl := range []*cryptClient{c, fresh} {
		itr, err := cl.LTXFiles(ctx, 0, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for itr.Next() {
			fi := itr.Item()
			n++
			if fi.Size != int64(sizes[fi.MinTXID]) {
				t.Errorf("listing: file %d size %d, want %d", fi.MinTXID, fi.Size, sizes[fi.MinTXID])
			}
		}
		if err := itr.Close(); err != nil || n != len(sizes) {
			t.Fatalf("listing: %d files, %v", n, err)
		}
	}
	for tx, want := range plain {
		for _, r := range [][2]int64{{0, 0}, {0, 100}, {1, 99}, {65536, 0}, {int64(len(want)) - 48, 48}, {int64(len(want)) - 10, 100}} {
			rc, err := fresh.OpenLTXFile(ctx, 0, tx, tx, r[0], r[1])
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(rc)
			rc.Close()
			end := int64(len(want))
			if r[1] > 0 {
				end = min(end, r[0]+r[1])
			}
			start := min(r[0], int64(len(want)))
			if err != nil || !bytes.Equal(got, want[start:end]) {
				t.Errorf("file %d offset %d size %d: %d bytes, %v; want %d", tx, r[0], r[1], len(got), err, end-start)
			}
		}
	}
	obj, err := os.ReadFile(filepath.Join(dir, "ltx", "0", ltx.FormatFilename(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(obj[stubSize:], []byte(ageMagic)) || bytes.Contains(obj[:stubSize], []byte{0xC0, 0xFF, 0xEE}) {
		t.Errorf("object is not stub + age file, or the stub shows more than TXIDs and time: % x", obj[:stubSize])
	}
}

func TestCryptClientRefusesTheWrongKey(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	id := newKey(t)
	c := newCryptClient(file.NewReplicaClient(dir), []age.Recipient{id.Recipient()}, []age.Identity{id}, nil)
	if _, err := c.WriteLTXFile(ctx, 0, 1, 1, bytes.NewReader(fakeLTX(300, 1, 1))); err != nil {
		t.Fatal(err)
	}
	other := newCryptClient(file.NewReplicaClient(dir), nil, []age.Identity{newKey(t)}, nil)
	if _, err := other.OpenLTXFile(ctx, 0, 1, 1, 0, 0); err == nil || !bytes.Contains([]byte(err.Error()), []byte("the key does not open")) {
		t.Errorf("read with another key: %v", err)
	}
}
