package backup

import (
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"posbox/store"
	"posbox/tse"
)

const (
	// Ext ends the name of a complete backup.
	Ext = ".posbox-backup"
	// format and formatVersion identify the manifest; a restore refuses
	// a version it does not know.
	format        = "posbox-backup"
	formatVersion = 1
	manifestName  = "MANIFEST.json"
	// archiveDir is the fiscal archive in the data dir.
	archiveDir = "archive"
	// tlsDir holds the HTTPS certificate and key posbox generates
	// (tls_cert_file empty): the tills trust that certificate
	// (boxtls.Dir).
	tlsDir = "tls"
	// simJournal is the simulator's journal in tse-sim/, its keys beside it.
	simJournal = tse.SimDir + "/journal.jsonl"
	// jwtKeyFile and adminPasswordFile are the files main's first start
	// writes into the data dir (bootstrap.go; a test there checks Holds).
	jwtKeyFile        = "jwt.key"
	adminPasswordFile = "initial-admin-password"
)

// topFiles are the single files of the data dir a complete backup holds
// besides the database, and trees its folders, when present.
var (
	topFiles = []string{jwtKeyFile, adminPasswordFile, tse.SettingsFile, tse.SetupFile}
	trees    = []string{tse.SimDir, archiveDir, tlsDir}
)

// Manifest is MANIFEST.json, the last entry of a complete backup.
type Manifest struct {
	Format        string    `json:"format"`
	FormatVersion int       `json:"format_version"`
	PosboxVersion string    `json:"posbox_version"`
	PosboxBuild   string    `json:"posbox_build,omitempty"`
	CreatedAt     time.Time `json:"created_at"`
	Files         []File    `json:"files"`
}

// File is one file in the manifest.
type File struct {
	Path   string `json:"path"` // slash-separated, relative to the data dir
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"` // hex
}

// Holds reports whether a complete backup takes the data dir's file rel
// (slash-separated) when it is present.
func Holds(rel string) bool { return checkPath(rel) == nil }

// checkPath accepts the paths a complete backup may hold: the known
// files of the data dir and files under its known folders (trees),
// nothing that could land outside the data dir.
func checkPath(p string) error {
	bad := func(why string) error { return fmt.Errorf("the backup holds %q, %s", p, why) }
	if p == "" || path.Clean(p) != p || strings.Contains(p, `\`) || !filepath.IsLocal(filepath.FromSlash(p)) {
		return bad("which is not a plain relative path")
	}
	top, rest, nested := strings.Cut(p, "/")
	switch {
	case !nested && (top == store.FileName || slices.Contains(topFiles, top)):
		return nil
	case nested && rest != "" && slices.Contains(trees, top):
		return nil
	}
	return bad("which is not a file of a posbox data dir")
}

// topLevel is the set of the data dir's entries that paths live in
// (files and folders), the database last.
func topLevel(paths []string) []string {
	var out []string
	for _, p := range paths {
		top, _, _ := strings.Cut(p, "/")
		if top != store.FileName && !slices.Contains(out, top) {
			out = append(out, top)
		}
	}
	slices.Sort(out)
	return append(out, store.FileName)
}

// DescribeFiles sums up a manifest's files: "posbox.db, jwt.key,
// tse-sim/ (2 files)".
func DescribeFiles(files []File) string {
	var paths []string
	counts := map[string]int{}
	for _, f := range files {
		paths = append(paths, f.Path)
		top, _, _ := strings.Cut(f.Path, "/")
		counts[top]++
	}
	parts := []string{store.FileName}
	for _, top := range topLevel(paths) {
		switch {
		case top == store.FileName:
		case slices.Contains(trees, top):
			plural := "s"
			if counts[top] == 1 {
				plural = ""
			}
			parts = append(parts, fmt.Sprintf("%s/ (%d file%s)", top, counts[top], plural))
		default:
			parts = append(parts, top)
		}
	}
	return strings.Join(parts, ", ")
}

// ctxReader stops a long copy when ctx ends (the service stops).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// damaged says a backup cannot be read to its end intact.
func damaged(err error) error {
	return fmt.Errorf("the backup is damaged or cut off: %w", err)
}
