package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// ProcedureDocuments makes the procedure document (package
// fiscal/procdoc's Builder, wired by main): Current gathers it from the
// box and returns its version, a new one when the content changed.
type ProcedureDocuments interface {
	Current(ctx context.Context, restaurantID string) (*store.ProcDocVersion, error)
}

// procDocJSON is one version of the document: content is the JSON as it
// was generated and stored, byte for byte.
type procDocJSON struct {
	Version     int64           `json:"version"`
	SHA256      string          `json:"sha256"`
	GeneratedAt string          `json:"generated_at"`
	Content     json.RawMessage `json:"content,omitempty"`
}

func procDocView(v *store.ProcDocVersion) procDocJSON {
	out := procDocJSON{Version: v.Version, SHA256: v.SHA256, GeneratedAt: ts(v.GeneratedAt)}
	if v.Content != "" {
		out.Content = json.RawMessage(v.Content)
	}
	return out
}

type ownerTextJSON struct {
	Version int64 `json:"version"`
	store.OwnerSections
	SavedAt     string `json:"saved_at"`
	SavedByName string `json:"saved_by_name"`
}

func ownerTextView(o store.OwnerText) ownerTextJSON {
	return ownerTextJSON{Version: o.Version, OwnerSections: o.OwnerSections, SavedAt: ts(o.SavedAt), SavedByName: o.SavedByName}
}

// currentProcDoc is the caller's restaurant's document as of now.
func (s *Server) currentProcDoc(ctx context.Context) (*store.ProcDocVersion, error) {
	if s.cfg.ProcDoc == nil {
		return nil, store.Errorf(store.ETSEUnavailable, "this box makes no procedure document")
	}
	return s.cfg.ProcDoc.Current(ctx, caller(ctx).restaurant.ID)
}

// procDocAt is version :id of the caller's restaurant; anything but a
// stored version number is not found.
func (s *Server) procDocAt(ctx context.Context, p httprouter.Params) (*store.ProcDocVersion, error) {
	// One spelling per version, as ids have one: 1, never 01 or +1.
	raw := p.ByName("id")
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < 1 || strconv.FormatInt(n, 10) != raw {
		return nil, store.NotFound("procedure document version")
	}
	return s.store.ProcDocVersionAt(ctx, caller(ctx).restaurant.ID, n)
}

// getProcDoc is GET /api/fiscal/procedure-document.
func (s *Server) getProcDoc(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	v, err := s.currentProcDoc(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"procedure_document": procDocView(v)})
}

// printProcDoc is GET /api/fiscal/procedure-document/print.
func (s *Server) printProcDoc(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	v, err := s.currentProcDoc(r.Context())
	if err != nil {
		return err
	}
	return s.writeProcDocPage(w, r, v)
}

// listProcDocVersions is GET /api/fiscal/procedure-document/versions.
func (s *Server) listProcDocVersions(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	vs, err := s.store.ProcDocVersions(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]procDocJSON, 0, len(vs))
	for i := range vs {
		out = append(out, procDocView(&vs[i]))
	}
	return writeJSON(w, http.StatusOK, envelope{"versions": out})
}

// getProcDocVersion is GET /api/fiscal/procedure-document/versions/:id.
func (s *Server) getProcDocVersion(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	v, err := s.procDocAt(r.Context(), p)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"procedure_document": procDocView(v)})
}

// printProcDocVersion is GET /api/fiscal/procedure-document/versions/:id/print.
func (s *Server) printProcDocVersion(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	v, err := s.procDocAt(r.Context(), p)
	if err != nil {
		return err
	}
	return s.writeProcDocPage(w, r, v)
}

// listOwnerTexts is GET /api/fiscal/procedure-document/owner-texts:
// every saved version of the owner's sections, newest first.
func (s *Server) listOwnerTexts(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	os, err := s.store.OwnerTexts(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]ownerTextJSON, 0, len(os))
	for _, o := range os {
		out = append(out, ownerTextView(o))
	}
	return writeJSON(w, http.StatusOK, envelope{"owner_texts": out})
}

// ownerTextRequest is the owner's four sections; PUT replaces them all,
// an absent section is empty.
type ownerTextRequest struct {
	Organisation    string `json:"organisation"`
	TillOperation   string `json:"till_operation"`
	CashCounting    string `json:"cash_counting"`
	InternalControl string `json:"internal_control"`
}

// putOwnerText is PUT /api/fiscal/procedure-document/owner-text: the
// sections as a new version (the old ones stay), and the document made
// anew with them.
func (s *Server) putOwnerText(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req ownerTextRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	who := caller(r.Context())
	o, err := s.store.SaveOwnerText(r.Context(), who.restaurant.ID, who.user.ID, store.OwnerSections(req))
	if err != nil {
		return err
	}
	out := struct {
		OwnerText         ownerTextJSON `json:"owner_text"`
		ProcedureDocument *procDocJSON  `json:"procedure_document"`
	}{OwnerText: ownerTextView(*o)}
	// The text is saved whatever follows; a document that cannot be made
	// now (no TSE known yet) is made at the next look.
	if v, err := s.currentProcDoc(r.Context()); err == nil {
		pv := procDocView(v)
		pv.Content = nil
		out.ProcedureDocument = &pv
	}
	return writeJSON(w, http.StatusOK, out)
}
