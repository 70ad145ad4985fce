package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// consoleCSP lets the console load its own files and talk to its own API
// and nothing else: no inline script or style, no eval, no frames.
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// consoleFiles is the admin console (package console's files), kept in
// memory with an ETag per file. Paths that are not files answer the
// console's index.html, so its client-side routes survive a reload.
type consoleFiles struct {
	files map[string]consoleFile
}

type consoleFile struct {
	data        []byte
	etag        string
	contentType string
}

// newConsoleFiles reads every file of fsys once.
func newConsoleFiles(fsys fs.FS) (*consoleFiles, error) {
	c := &consoleFiles{files: map[string]consoleFile{}}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(name, ".go") {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		c.files[name] = consoleFile{data: data, etag: `"` + hex.EncodeToString(sum[:12]) + `"`, contentType: contentTypeOf(name)}
		return nil
	})
	if _, ok := c.files["index.html"]; err == nil && !ok {
		return nil, fs.ErrNotExist
	}
	return c, err
}

func contentTypeOf(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".txt", ".md":
		return "text/plain; charset=utf-8"
	}
	return "application/octet-stream"
}

// serve answers GET and HEAD for a console path. Files revalidate on
// every load (Cache-Control: no-cache with an ETag): a 304 costs nothing
// on the LAN, and a new binary's console is never mixed with an old one.
func (c *consoleFiles) serve(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	f, ok := c.files[name]
	if !ok || name == "" {
		f = c.files["index.html"]
	}
	h := w.Header()
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Type", f.contentType)
	h.Set("ETag", f.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.data))
}

// isAPIPath: /api and everything under it answers problem+json, never
// the console.
func isAPIPath(p string) bool { return p == "/api" || strings.HasPrefix(p, "/api/") }
