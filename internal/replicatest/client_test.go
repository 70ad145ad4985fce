package replicatest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"
)

// ltxFile is a valid LTX file of TXIDs min..max: one page of fill, the
// header Litestream's clients peek at before an upload.
func ltxFile(tb testing.TB, minTXID, maxTXID ltx.TXID, fill byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	enc, err := ltx.NewEncoder(&buf)
	if err != nil {
		tb.Fatal(err)
	}
	hdr := ltx.Header{Version: ltx.Version, Flags: ltx.HeaderFlagNoChecksum, PageSize: 4096, Commit: 1,
		MinTXID: minTXID, MaxTXID: maxTXID, Timestamp: time.Date(2026, 3, 14, 11, 30, 0, 0, time.UTC).UnixMilli()}
	if err := enc.EncodeHeader(hdr); err != nil {
		tb.Fatal(err)
	}
	if err := enc.EncodePage(ltx.PageHeader{Pgno: 1}, bytes.Repeat([]byte{fill}, 4096)); err != nil {
		tb.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// roundTrip does what replication does to a target, through Litestream's
// own client: write two LTX files, list them, read one whole and from an
// offset, delete one, list again.
func roundTrip(t *testing.T, c litestream.ReplicaClient) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.Init(ctx); err != nil {
		t.Fatal(err)
	}
	first, second := ltxFile(t, 1, 1, 'a'), ltxFile(t, 2, 5, 'b')
	for _, f := range []struct {
		min, max ltx.TXID
		data     []byte
	}{{1, 1, first}, {2, 5, second}} {
		info, err := c.WriteLTXFile(ctx, 0, f.min, f.max, bytes.NewReader(f.data))
		if err != nil {
			t.Fatalf("write %d-%d: %v", f.min, f.max, err)
		}
		if info.Size != int64(len(f.data)) {
			t.Fatalf("write %d-%d: size %d, wrote %d bytes", f.min, f.max, info.Size, len(f.data))
		}
	}
	if got := list(ctx, t, c, 0); len(got) != 2 || got[0].MaxTXID != 1 || got[1].MinTXID != 2 || got[1].MaxTXID != 5 ||
		got[1].Size != int64(len(second)) {
		t.Fatalf("level 0 lists %v, want 1-1 and 2-5 of %d bytes", got, len(second))
	}
	if got := list(ctx, t, c, 1); len(got) != 0 {
		t.Fatalf("level 1 lists %v, want nothing", got)
	}
	if got := read(ctx, t, c, 2, 5, 0, 0); !bytes.Equal(got, second) {
		t.Fatalf("read back %d bytes, differs from the %d written", len(got), len(second))
	}
	if got := read(ctx, t, c, 2, 5, 100, 50); !bytes.Equal(got, second[100:150]) {
		t.Fatalf("read at offset 100 gives %q, want %q", got, second[100:150])
	}
	if err := c.DeleteLTXFiles(ctx, []*ltx.FileInfo{{Level: 0, MinTXID: 1, MaxTXID: 1}}); err != nil {
		t.Fatal(err)
	}
	if got := list(ctx, t, c, 0); len(got) != 1 || got[0].MinTXID != 2 {
		t.Fatalf("after the delete level 0 lists %v, want 2-5 only", got)
	}
	if _, err := c.OpenLTXFile(ctx, 0, 1, 1, 0, 0); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("opening the deleted file: %v, want not found", err)
	}
	// Litestream's clients read the LTX header of what they upload (its
	// timestamp): an object that is not LTX, an age file, is refused.
	// Encryption in front of these clients has to keep a header readable.
	age := append([]byte("age-encryption.org/v1\n-> X25519 "), bytes.Repeat([]byte{0x5a}, 200)...)
	if _, err := c.WriteLTXFile(ctx, 0, 6, 6, bytes.NewReader(age)); err == nil || !strings.Contains(err.Error(), "LTX header") {
		t.Fatalf("uploading an object that is not LTX: %v, want the header refused", err)
	}
}

func list(ctx context.Context, t *testing.T, c litestream.ReplicaClient, level int) []*ltx.FileInfo {
	t.Helper()
	itr, err := c.LTXFiles(ctx, level, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	infos, err := ltx.SliceFileIterator(itr)
	if err != nil {
		t.Fatal(err)
	}
	return infos
}

func read(ctx context.Context, t *testing.T, c litestream.ReplicaClient, minTXID, maxTXID ltx.TXID, offset, size int64) []byte {
	t.Helper()
	rc, err := c.OpenLTXFile(ctx, 0, minTXID, maxTXID, offset, size)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
