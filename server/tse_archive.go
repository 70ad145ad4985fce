package server

import (
	"context"
	"net/http"
	"os"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// Archive is the fiscal archive of the TSE's TAR exports: package
// fiscal/archive's Archive, built and scheduled by main. Lists and rows come
// from the store; the archive owns the files and the exports.
type Archive interface {
	// Open opens an archived TAR (the caller closes it).
	Open(a *store.TSEArchive) (*os.File, error)
	// ExportDates records an export of [start, end) and starts it now.
	ExportDates(ctx context.Context, restaurantID string, start, end time.Time) (*store.TSEArchive, error)
	// Status is how far the archive has come, with its warning.
	Status(ctx context.Context, restaurantID string) (*store.TSEArchiveState, error)
	// SetStart declares the first signature counter to archive from.
	SetStart(ctx context.Context, restaurantID, userID string, first int64, reason string) (*store.TSEArchiveStart, error)
}

// maxExportDays bounds an admin's export of dates; fiskaly keeps three
// months anyway, and one export holds at most a million log messages.
const maxExportDays = 366

// archiver is the configured archive or the 503 without one.
func (s *Server) archiver() (Archive, error) {
	if s.cfg.Archive == nil {
		return nil, store.Errorf(store.ETSEUnavailable, "the TSE provider cannot export TAR files: there is no archive")
	}
	return s.cfg.Archive, nil
}

// listTSEArchives is GET /api/tse/archives.
func (s *Server) listTSEArchives(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	as, err := s.store.TSEArchives(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]tseArchiveJSON, 0, len(as))
	for _, a := range as {
		out = append(out, tseArchiveView(a))
	}
	return writeJSON(w, http.StatusOK, envelope{"archives": out})
}

// getTSEArchive is GET /api/tse/archives/:id.
func (s *Server) getTSEArchive(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	a, err := s.tseArchive(r, p)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"archive": tseArchiveView(a)})
}

func (s *Server) tseArchive(r *http.Request, p httprouter.Params) (*store.TSEArchive, error) {
	id, err := pathID(p, "archive")
	if err != nil {
		return nil, err
	}
	return s.store.TSEArchive(r.Context(), caller(r.Context()).restaurant.ID, id)
}

// downloadTSEArchive is GET /api/tse/archives/:id/file: the verified TAR
// as archived, with its SHA-256 as the ETag (If-None-Match and Range
// work as http.ServeContent does them).
func (s *Server) downloadTSEArchive(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	a, err := s.tseArchive(r, p)
	if err != nil {
		return err
	}
	if a.State != store.TSEArchiveArchived {
		return store.Errorf(store.EConflict, "the archive is %s: there is no verified file yet", a.State)
	}
	arc, err := s.archiver()
	if err != nil {
		return err
	}
	f, err := arc.Open(a)
	if err != nil {
		return err
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", "application/x-tar")
	h.Set("Content-Disposition", `attachment; filename="`+a.FileName+`"`)
	h.Set("ETag", `"`+a.SHA256+`"`)
	h.Set("X-Checksum-SHA256", a.SHA256)
	http.ServeContent(w, r, "", *a.ArchivedAt, f)
	return nil
}

// tseArchiveRequest is POST /api/tse/archives.
type tseArchiveRequest struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// exportTSEArchive is POST /api/tse/archives: an export of the log
// messages of a range of local dates, started now (202); poll GET
// /api/tse/archives/:id. It is no part of the incremental ranges.
func (s *Server) exportTSEArchive(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req tseArchiveRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	if req.From == "" {
		f.Add("from", store.FRequired, "is required (a local date YYYY-MM-DD)")
	}
	if req.To == "" {
		f.Add("to", store.FRequired, "is required (a local date YYYY-MM-DD)")
	}
	if err := f.Err(); err != nil {
		return err
	}
	from := parseDate(&f, "from", req.From)
	to := parseDate(&f, "to", req.To)
	if err := f.Err(); err != nil {
		return err
	}
	c := caller(r.Context())
	loc := c.restaurant.Location()
	fd, _ := time.Parse(store.DateFormat, from)
	td, _ := time.Parse(store.DateFormat, to)
	today, _ := time.Parse(store.DateFormat, s.now().In(loc).Format(store.DateFormat))
	switch {
	case td.Before(fd):
		return store.Invalid("to", store.FBeforeField, "must not be before from", "field", "from")
	case td.Sub(fd) >= maxExportDays*24*time.Hour:
		return store.Invalid("to", store.FRangeTooLong, "at most 366 days after from", "days", 366)
	case fd.After(today):
		return store.Invalid("from", store.FInFuture, "must not be in the future")
	}
	arc, err := s.archiver()
	if err != nil {
		return err
	}
	start, _ := store.LocalDayBounds(fd, loc)
	_, end := store.LocalDayBounds(td, loc)
	a, err := arc.ExportDates(r.Context(), c.restaurant.ID, start, end)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, envelope{"archive": tseArchiveView(a)})
}
