package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/discount"
	"posbox/store"
)

// codeJSON is one discount code as the API shows it.
type codeJSON struct {
	ID             string  `json:"id"`
	Code           string  `json:"code"`
	BatchID        string  `json:"batch_id"`
	Uses           int64   `json:"uses"`
	MaxUses        int64   `json:"max_uses"`
	OncePerGuest   bool    `json:"once_per_guest"`
	LastUsedAt     *string `json:"last_used_at"`
	BatchCreatedAt string  `json:"batch_created_at"`
}

func toCodeJSON(c *store.DiscountCode) codeJSON {
	return codeJSON{ID: c.ID, Code: c.Code, BatchID: c.BatchID, Uses: c.Uses, MaxUses: c.MaxUses,
		OncePerGuest: c.OncePerGuest, LastUsedAt: tsPtr(c.LastUsedAt), BatchCreatedAt: ts(c.BatchCreatedAt)}
}

func codesJSON(cs []*store.DiscountCode) []codeJSON {
	out := make([]codeJSON, 0, len(cs))
	for _, c := range cs {
		out = append(out, toCodeJSON(c))
	}
	return out
}

// batchJSON is a new batch with every code it made.
type batchJSON struct {
	ID           string     `json:"id"`
	DiscountID   string     `json:"discount_id"`
	CreatedAt    string     `json:"created_at"`
	CreatedBy    string     `json:"created_by"`
	Count        int64      `json:"count"`
	UsesPerCode  int64      `json:"uses_per_code"`
	OncePerGuest bool       `json:"once_per_guest"`
	Codes        []codeJSON `json:"codes"`
}

type codeBatchRequest struct {
	Count        *int64 `json:"count"`
	UsesPerCode  *int64 `json:"uses_per_code"`
	OncePerGuest *bool  `json:"once_per_guest"`
}

// createCodeBatch is POST /api/discounts/:id/code-batches: count codes
// of the discount, each usable uses_per_code times (default 1), once per
// guest reference when once_per_guest.
func (s *Server) createCodeBatch(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "discount")
	if err != nil {
		return err
	}
	var req codeBatchRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "count", req.Count)
	if err := f.Err(); err != nil {
		return err
	}
	in := store.CodeBatchInput{Count: *req.Count, UsesPerCode: 1, CreatedBy: caller(r.Context()).user.ID}
	if req.UsesPerCode != nil {
		in.UsesPerCode = *req.UsesPerCode
	}
	if req.OncePerGuest != nil {
		in.OncePerGuest = *req.OncePerGuest
	}
	b, err := s.store.CreateCodeBatch(r.Context(), caller(r.Context()).restaurant.ID, id, in, discount.NewCode)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, envelope{"batch": batchJSON{ID: b.ID, DiscountID: b.DiscountID,
		CreatedAt: ts(b.CreatedAt), CreatedBy: b.CreatedBy, Count: b.Count, UsesPerCode: b.UsesPerCode,
		OncePerGuest: b.OncePerGuest, Codes: codesJSON(b.Codes)}})
}

// discountCodes reads the discount and its codes, of batch ?batch= when
// given.
func (s *Server) discountCodes(r *http.Request, p httprouter.Params) (*store.Discount, []*store.DiscountCode, error) {
	id, err := pathID(p, "discount")
	if err != nil {
		return nil, nil, err
	}
	batch := r.URL.Query().Get("batch")
	if batch != "" && !store.ValidID(batch) {
		return nil, nil, store.Invalid("batch", store.FNotUUID, "must be a UUID")
	}
	return s.store.DiscountCodes(r.Context(), caller(r.Context()).restaurant.ID, id, batch)
}

// listDiscountCodes is GET /api/discounts/:id/codes.
func (s *Server) listDiscountCodes(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	_, codes, err := s.discountCodes(r, p)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"codes": codesJSON(codes)})
}

// redeemCode is the code as the store looks it up: normalised when it
// can be a code; otherwise what was typed, cut short for the message (no
// code matches it, so the answer is discount_code_invalid).
func redeemCode(typed *string) *string {
	if typed == nil {
		return nil
	}
	if c, ok := discount.Normalize(*typed); ok {
		return &c
	}
	c := []rune(*typed)
	if len(c) > 20 {
		c = append(c[:20], '…')
	}
	s := string(c)
	return &s
}
