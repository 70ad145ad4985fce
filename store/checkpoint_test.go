package store

import (
	"context"
	"database/sql"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// TestCloseLeavesTheWALToReplication: with replication on, another
// holder of the database (Litestream) owns checkpoints, so Close leaves
// the WAL's frames for it; without, Close truncates the WAL.
func TestCloseLeavesTheWALToReplication(t *testing.T) {
	for _, ext := range []bool{false, true} {
		dir := t.TempDir()
		st, err := Open(context.Background(), dir, Options{Logger: slog.New(slog.DiscardHandler), BcryptCost: bcrypt.MinCost, ExternalCheckpoints: ext})
		if err != nil {
			t.Fatal(err)
		}
		other, err := sql.Open("sqlite", "file:"+filepath.Join(dir, FileName)+"?_pragma=busy_timeout(10000)")
		if err != nil {
			t.Fatal(err)
		}
		if err := other.Ping(); err != nil { // holds the database open, as Litestream does
			t.Fatal(err)
		}
		mustRestaurant(t, st, "Zur Post")
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(filepath.Join(dir, FileName+"-wal"))
		if err != nil {
			t.Fatal(err)
		}
		if kept := fi.Size() > 0; kept != ext {
			t.Errorf("ExternalCheckpoints %v: WAL of %d bytes after Close", ext, fi.Size())
		}
		other.Close()
	}
}
