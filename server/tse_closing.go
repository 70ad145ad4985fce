package server

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/fiscal"
	"posbox/store"
)

// closingRequest is POST /api/tse/closings.
type closingRequest struct {
	ClientSerial *string `json:"client_serial"`
	BusinessDate *string `json:"business_date"`
}

// closingJSON is a daily closing (Kassenabschluss).
type closingJSON struct {
	ID                    string            `json:"id"`
	ZNr                   int64             `json:"z_nr"`
	ClientSerial          string            `json:"client_serial"`
	BusinessDate          string            `json:"business_date"`
	CoveredUntil          string            `json:"covered_until"`
	Transactions          int               `json:"transactions"`
	FirstTransactionID    string            `json:"first_transaction_id"`
	LastTransactionID     string            `json:"last_transaction_id"`
	Total                 json.Number       `json:"total"`
	Cash                  *json.Number      `json:"cash"` // in euro, foreign cash at its euro value; null when one is unknown
	AmountsPerVATRate     []closingVATJSON  `json:"amounts_per_vat_rate"`
	AmountsPerPaymentType []salePaymentJSON `json:"amounts_per_payment_type"`
	Automatic             bool              `json:"automatic"`
	CreatedBy             *string           `json:"created_by"`
	CreatedAt             string            `json:"created_at"`
}

type closingVATJSON struct {
	VATRate string      `json:"vat_rate"`
	Amount  json.Number `json:"amount"`
}

func closingView(c *store.TSEClosing) closingJSON {
	out := closingJSON{ID: c.ID, ZNr: c.ZNr, ClientSerial: c.ClientSerial, BusinessDate: c.BusinessDate, CoveredUntil: ts(c.CoveredUntil),
		Transactions: c.TxCount, FirstTransactionID: c.FirstTxID, LastTransactionID: c.LastTxID, Total: money(c.TotalCents),
		AmountsPerVATRate: []closingVATJSON{}, AmountsPerPaymentType: []salePaymentJSON{},
		Automatic: c.Automatic, CreatedBy: strPtr(c.CreatedBy), CreatedAt: ts(c.CreatedAt)}
	for _, v := range c.VAT {
		out.AmountsPerVATRate = append(out.AmountsPerVATRate, closingVATJSON{v.VATRate, money(v.Cents)})
	}
	if cash, ok := c.CashEUR(); ok {
		out.Cash = moneyPtr(&cash)
	}
	for _, p := range c.Payments {
		out.AmountsPerPaymentType = append(out.AmountsPerPaymentType, paymentView(p))
	}
	return out
}

// createClosing is POST /api/tse/closings: the register's daily closing.
func (s *Server) createClosing(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req closingRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	who := caller(r.Context())
	loc := who.restaurant.Location()
	today := s.store.Now().In(loc).Format(store.DateFormat)
	var f store.Fields
	if req.ClientSerial == nil {
		f.Add("client_serial", store.FRequired, "is required")
	} else if c := *req.ClientSerial; !fiscal.ValidClientSerial(c) {
		f.Add("client_serial", store.FUnknownTill, "must be a terminal's serial as its sales name it")
	}
	date := today
	if req.BusinessDate != nil {
		date = parseDate(&f, "business_date", *req.BusinessDate)
		if date > today {
			f.Add("business_date", store.FInFuture, "must not be after today ("+today+")")
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	day, _ := time.Parse(store.DateFormat, date)
	_, end := store.LocalDayBounds(day, loc)
	c, err := s.store.CreateTSEClosing(r.Context(), store.NewTSEClosing{RestaurantID: who.restaurant.ID, ClientSerial: *req.ClientSerial,
		BusinessDate: date, Until: end, CreatedBy: who.user.ID})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, envelope{"closing": closingView(c)})
}

// getClosing is GET /api/tse/closings/:id.
func (s *Server) getClosing(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "closing")
	if err != nil {
		return err
	}
	c, err := s.store.TSEClosing(r.Context(), caller(r.Context()).restaurant.ID, id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"closing": closingView(c)})
}

// listClosings is GET /api/tse/closings?client_serial=&from=&to=.
func (s *Server) listClosings(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var f store.Fields
	qs := r.URL.Query()
	filter := store.ClosingFilter{ClientSerial: qs.Get("client_serial")}
	if v := qs.Get("from"); v != "" {
		filter.DateFrom = parseDate(&f, "from", v)
	}
	if v := qs.Get("to"); v != "" {
		filter.DateTo = parseDate(&f, "to", v)
	}
	if err := f.Err(); err != nil {
		return err
	}
	if filter.DateFrom != "" && filter.DateTo != "" && filter.DateFrom > filter.DateTo {
		return store.Invalid("from", store.FAfterField, "must not be after to", "field", "to")
	}
	cs, err := s.store.TSEClosings(r.Context(), caller(r.Context()).restaurant.ID, filter)
	if err != nil {
		return err
	}
	out := make([]closingJSON, 0, len(cs))
	for _, c := range cs {
		out = append(out, closingView(c))
	}
	return writeJSON(w, http.StatusOK, envelope{"closings": out})
}
