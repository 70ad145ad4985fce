package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// The POS catalogue (docs/API.md, "The POS catalogue"): the till sends
// its categories and items whole, so the console offers a discount's
// target by name. Staff may send it: the till syncs with a staff token.

type catalogueCategoryJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type catalogueItemJSON struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	CategoryID *string `json:"category_id"`
	VATRate    string  `json:"vat_rate"`
}

// catalogueJSON is the catalogue as the API shows it; updated_at is the
// last time the till sent it (null while it never did, or sent it empty).
type catalogueJSON struct {
	Categories []catalogueCategoryJSON `json:"categories"`
	Items      []catalogueItemJSON     `json:"items"`
	UpdatedAt  *string                 `json:"updated_at"`
}

func toCatalogueJSON(c *store.Catalogue) catalogueJSON {
	out := catalogueJSON{Categories: make([]catalogueCategoryJSON, 0, len(c.Categories)), Items: make([]catalogueItemJSON, 0, len(c.Items))}
	var newest string
	for _, cat := range c.Categories {
		out.Categories = append(out.Categories, catalogueCategoryJSON{ID: cat.ID, Name: cat.Name})
		newest = max(newest, ts(cat.UpdatedAt))
	}
	for _, it := range c.Items {
		out.Items = append(out.Items, catalogueItemJSON{ID: it.ID, Name: it.Name, CategoryID: it.CategoryID, VATRate: it.VATRate})
		newest = max(newest, ts(it.UpdatedAt))
	}
	if newest != "" {
		out.UpdatedAt = &newest
	}
	return out
}

// catalogueRequest is PUT's body: both lists are required ([] empties).
type catalogueRequest struct {
	Categories *[]catalogueCategoryJSON `json:"categories"`
	Items      *[]catalogueItemJSON     `json:"items"`
}

func (s *Server) getCatalogue(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	c, err := s.store.Catalogue(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"catalogue": toCatalogueJSON(c)})
}

func (s *Server) putCatalogue(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req catalogueRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	if req.Categories == nil {
		f.Add("categories", store.FRequired, "is required ([] for none)")
	}
	if req.Items == nil {
		f.Add("items", store.FRequired, "is required ([] for none)")
	}
	if err := f.Err(); err != nil {
		return err
	}
	in := store.Catalogue{Categories: make([]store.CatalogueCategory, 0, len(*req.Categories)), Items: make([]store.CatalogueItem, 0, len(*req.Items))}
	for _, c := range *req.Categories {
		in.Categories = append(in.Categories, store.CatalogueCategory{ID: c.ID, Name: c.Name})
	}
	for _, it := range *req.Items {
		in.Items = append(in.Items, store.CatalogueItem{ID: it.ID, Name: it.Name, CategoryID: it.CategoryID, VATRate: it.VATRate})
	}
	c, err := s.store.ReplaceCatalogue(r.Context(), caller(r.Context()).restaurant.ID, in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"catalogue": toCatalogueJSON(c)})
}
