package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// DSFinVK builds the DSFinV-K export (package fiscal/dsfinvk's Exporter,
// built by main): the closings f selects, as a ZIP written to w.
type DSFinVK interface {
	Export(ctx context.Context, r *store.Restaurant, f store.ClosingFilter, tss store.TSEInfo, w io.Writer) error
}

// exportDSFinVK is GET /api/fiscal/dsfinvk: the closings of a range of
// business dates (from, to) or of one register's Z_NR range
// (client_serial, z_from, z_to) as the DSFinV-K ZIP.
func (s *Server) exportDSFinVK(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	if s.cfg.DSFinVK == nil {
		return store.Errorf(store.ETSEUnavailable, "no DSFinV-K exporter is configured")
	}
	qs := r.URL.Query()
	var f store.Fields
	filter := store.ClosingFilter{ClientSerial: qs.Get("client_serial")}
	if v := qs.Get("from"); v != "" {
		filter.DateFrom = parseDate(&f, "from", v)
	}
	if v := qs.Get("to"); v != "" {
		filter.DateTo = parseDate(&f, "to", v)
	}
	zNum := func(key string) int64 {
		v := qs.Get(key)
		if v == "" {
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			f.Add(key, store.FTooSmall, "must be a closing number (Z_NR), 1 or more", "min", 1)
		}
		return n
	}
	filter.ZFrom, filter.ZTo = zNum("z_from"), zNum("z_to")
	byDate := qs.Get("from") != "" || qs.Get("to") != ""
	byZ := qs.Get("z_from") != "" || qs.Get("z_to") != ""
	switch {
	case byDate && (filter.DateFrom == "" && qs.Get("from") == "" || filter.DateTo == "" && qs.Get("to") == ""):
		f.Add("from", store.FRequiresField, "from and to go together (business dates YYYY-MM-DD)", "field", "to")
	case byZ && (qs.Get("z_from") == "" || qs.Get("z_to") == ""):
		f.Add("z_from", store.FRequiresField, "z_from and z_to go together", "field", "z_to")
	case byZ && filter.ClientSerial == "":
		f.Add("client_serial", store.FRequired, "is required with z_from and z_to: closing numbers count per register")
	case !byDate && !byZ:
		f.Add("from", store.FRequired, "give from and to (business dates) or client_serial, z_from and z_to")
	}
	if err := f.Err(); err != nil {
		return err
	}
	if filter.DateFrom > filter.DateTo {
		return store.Invalid("from", store.FAfterField, "must not be after to", "field", "to")
	}
	if filter.ZFrom > filter.ZTo {
		return store.Invalid("z_from", store.FAfterField, "must not be after z_to", "field", "z_to")
	}
	who := caller(r.Context())
	var tss store.TSEInfo
	if t := s.cfg.TSE; t != nil {
		// What is known of the TSS (the cache when the provider is
		// down); an export without it still lists every sale.
		if info, _, err := t.TSS(r.Context(), who.restaurant.ID); err == nil {
			tss = info
		}
	}
	// Built in memory first, so a failure is a problem answer and not a
	// cut-off file.
	var buf bytes.Buffer
	if err := s.cfg.DSFinVK.Export(r.Context(), who.restaurant, filter, tss, &buf); err != nil {
		return err
	}
	name := "dsfinvk"
	if byDate {
		name += "_" + filter.DateFrom + "_" + filter.DateTo
	} else {
		name += "_" + safeName(filter.ClientSerial) + "_Z" + strconv.FormatInt(filter.ZFrom, 10) + "-" + strconv.FormatInt(filter.ZTo, 10)
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.zip"`)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(buf.Bytes())
	return err
}

// safeName keeps a serial's letters, digits, "-" and "." for a file name.
func safeName(s string) string {
	b := []byte{}
	for _, c := range []byte(s) {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' {
			b = append(b, c)
		} else {
			b = append(b, '_')
		}
	}
	return string(b)
}
