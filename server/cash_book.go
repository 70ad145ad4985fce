package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/fiscal"
	"posbox/fiscal/cashbook"
	"posbox/store"
)

// The cash book's routes (docs/CASHDESK.md): the expected cash per
// register, booking and reversing movements, counting the drawer.

// desk is the cash book over the configured TSE.
func (s *Server) desk() (*cashbook.Desk, error) {
	t, err := s.signer()
	if err != nil {
		return nil, err
	}
	return &cashbook.Desk{St: s.store, Seller: t}, nil
}

// deskCall is what a booking route reads first: the cash book, the
// request's Idempotency-Key and its body.
func (s *Server) deskCall(r *http.Request, body any) (*cashbook.Desk, string, error) {
	d, err := s.desk()
	if err != nil {
		return nil, "", err
	}
	key, err := idempotencyKey(r)
	if err != nil {
		return nil, "", err
	}
	return d, key, decode(r, body, false)
}

type cashRegisterJSON struct {
	ClientSerial string         `json:"client_serial"`
	BookStarted  bool           `json:"book_started"`
	Expected     *json.Number   `json:"expected"`
	AsOf         *string        `json:"as_of"`
	LastCount    *cashCountJSON `json:"last_count"`
}

// cashRegisters is GET /api/cash/registers: the expected cash of each
// register now (null before its cash book begins) and its last count.
func (s *Server) cashRegisters(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	c := caller(r.Context())
	bs, err := s.store.CashBalances(r.Context(), c.restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]cashRegisterJSON, 0, len(bs))
	for _, b := range bs {
		v := cashRegisterJSON{ClientSerial: b.ClientSerial, BookStarted: b.Started}
		if b.Started {
			m, at := money(b.Cents), ts(b.At)
			v.Expected, v.AsOf = &m, &at
			last, err := s.store.LastCashCount(r.Context(), c.restaurant.ID, b.ClientSerial)
			if err != nil && !store.IsNotFound(err) {
				return err
			}
			if last != nil {
				lv := cashCountView(last)
				v.LastCount = &lv
			}
		}
		out = append(out, v)
	}
	return writeJSON(w, http.StatusOK, envelope{"registers": out})
}

type cashMovementRequest struct {
	ClientSerial *string         `json:"client_serial"`
	Kind         *string         `json:"kind"`
	Amount       *fiscal.Decimal `json:"amount"`
	Reason       *string         `json:"reason"`
	VoucherNo    *string         `json:"voucher_no"`
	ForUserID    *string         `json:"for_user_id"`
}

// createCashMovement is POST /api/cash/movements. Staff book only the
// kinds a shift needs (cashbook.Kind.StaffMay); 201 with the signed
// receipt, 202 when it went out without TSE data, as a sale.
func (s *Server) createCashMovement(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req cashMovementRequest
	d, key, err := s.deskCall(r, &req)
	if err != nil {
		return err
	}
	var f store.Fields
	b := cashbook.Booking{ClientSerial: deref(req.ClientSerial, ""), Kind: deref(req.Kind, ""), Reason: deref(req.Reason, ""), VoucherNo: deref(req.VoucherNo, ""), IdemKey: key}
	if req.Amount == nil {
		f.Add("amount", store.FRequired, "is required")
	} else {
		b.Cents = req.Amount.Cents(&f, "amount")
	}
	if req.ClientSerial == nil {
		f.Add("client_serial", store.FRequired, "is required")
	}
	if err := f.Err(); err != nil {
		return err
	}
	k, err := b.Validate()
	if err != nil {
		return err
	}
	who := caller(r.Context())
	if who.user.Role != store.RoleAdmin && !k.StaffMay {
		return errHTTP(eForbidden, "only an admin may book this kind of cash movement; staff book the opening float and tip payouts")
	}
	if err := s.notWhileReplacing(r.Context(), who.restaurant.ID, "the movement is not booked; book it again in a moment"); err != nil {
		return err
	}
	b.By = cashbook.Who{ID: who.user.ID, Name: who.user.Name}
	if req.ForUserID != nil {
		if b.For, err = s.movementFor(r, *req.ForUserID); err != nil {
			return err
		}
		if _, err := b.Validate(); err != nil {
			return err
		}
	}
	t, m, err := d.Book(r.Context(), who.restaurant.ID, b)
	if err != nil {
		return err
	}
	return writeMovement(w, t, m)
}

// movementFor is the person a float or tip payout is for (for_user_id):
// an active user of the restaurant; staff name only themselves (a float
// or payout for someone else is the admin's, docs/CASHDESK.md).
func (s *Server) movementFor(r *http.Request, id string) (cashbook.Who, error) {
	who := caller(r.Context())
	u, err := s.activeUser(r.Context(), who.restaurant.ID, id, "for_user_id")
	if err != nil {
		return cashbook.Who{}, err
	}
	if who.user.Role != store.RoleAdmin && u.ID != who.user.ID {
		return cashbook.Who{}, errHTTP(eForbidden, "staff book a float or a tip payout for themselves only; an admin books one for someone else")
	}
	return cashbook.Who{ID: u.ID, Name: u.Name}, nil
}

type reverseRequest struct {
	Reason *string `json:"reason"`
}

// reverseCashMovement is POST /api/cash/movements/:id/reverse: the
// counter-entry (a movement is never edited).
func (s *Server) reverseCashMovement(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	var req reverseRequest
	d, key, err := s.deskCall(r, &req)
	if err != nil {
		return err
	}
	who := caller(r.Context())
	if !store.ValidID(ps.ByName("id")) {
		return store.NotFound("cash movement")
	}
	if err := s.notWhileReplacing(r.Context(), who.restaurant.ID, "the counter-entry is not booked; book it again in a moment"); err != nil {
		return err
	}
	t, m, err := d.Reverse(r.Context(), who.restaurant.ID, ps.ByName("id"), deref(req.Reason, ""), cashbook.Who{ID: who.user.ID, Name: who.user.Name}, key)
	if err != nil {
		return err
	}
	return writeMovement(w, t, m)
}

func writeMovement(w http.ResponseWriter, t *store.TSETransaction, m *store.CashMovement) error {
	status := http.StatusAccepted
	if t.Signed() {
		status = http.StatusCreated
	}
	return writeJSON(w, status, envelope{"movement": cashMovementView(m), "transaction": tseTxView(t)})
}

// cashRange reads a list's date range (from, to: local dates, default
// today) and register.
func (s *Server) cashRange(r *http.Request) (store.CashMovementsFilter, error) {
	var f store.Fields
	qs := r.URL.Query()
	loc := caller(r.Context()).restaurant.Location()
	today := s.now().In(loc).Format(store.DateFormat)
	from, to := today, today
	if v := qs.Get("from"); v != "" {
		from = parseDate(&f, "from", v)
	}
	if v := qs.Get("to"); v != "" {
		to = parseDate(&f, "to", v)
	}
	if err := f.Err(); err != nil {
		return store.CashMovementsFilter{}, err
	}
	fd, _ := time.Parse(store.DateFormat, from)
	td, _ := time.Parse(store.DateFormat, to)
	switch {
	case td.Before(fd):
		return store.CashMovementsFilter{}, store.Invalid("to", store.FBeforeField, "must not be before from", "field", "from")
	case td.Sub(fd) >= maxExportDays*24*time.Hour:
		return store.CashMovementsFilter{}, store.Invalid("to", store.FRangeTooLong, "at most 366 days after from", "days", 366)
	}
	start, _ := store.LocalDayBounds(fd, loc)
	_, end := store.LocalDayBounds(td, loc)
	return store.CashMovementsFilter{ClientSerial: qs.Get("client_serial"), From: start, To: end}, nil
}

// listCashMovements is GET /api/cash/movements.
func (s *Server) listCashMovements(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	filter, err := s.cashRange(r)
	if err != nil {
		return err
	}
	ms, err := s.store.CashMovements(r.Context(), caller(r.Context()).restaurant.ID, filter)
	if err != nil {
		return err
	}
	out := make([]cashMovementJSON, 0, len(ms))
	for _, m := range ms {
		out = append(out, cashMovementView(m))
	}
	return writeJSON(w, http.StatusOK, envelope{"movements": out})
}

type cashCountRequest struct {
	ClientSerial  *string          `json:"client_serial"`
	Counted       *fiscal.Decimal  `json:"counted"`
	Denominations map[string]int64 `json:"denominations"`
}

// createCashCount is POST /api/cash/counts: a count by anyone who stands
// at the drawer; the difference is booked with it (201).
func (s *Server) createCashCount(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	d, err := s.desk()
	if err != nil {
		return err
	}
	var req cashCountRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	if req.ClientSerial == nil {
		f.Add("client_serial", store.FRequired, "is required")
	}
	who := caller(r.Context())
	c := cashbook.Counting{ClientSerial: deref(req.ClientSerial, ""), By: cashbook.Who{ID: who.user.ID, Name: who.user.Name}}
	if req.Counted != nil {
		v := req.Counted.Cents(&f, "counted")
		c.Counted = &v
	}
	if req.Denominations != nil {
		c.Pieces = map[int64]int64{}
		keys := make([]string, 0, len(req.Denominations))
		for k := range req.Denominations {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			cents := fiscal.Decimal(k).Cents(&f, "denominations."+k)
			if strings.HasPrefix(k, "-") || cents <= 0 && len(f) == 0 {
				f.Add("denominations."+k, store.FOneOf, "is no euro note or coin", "values", cashbook.DenominationNames())
			}
			c.Pieces[cents] += req.Denominations[k]
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	if err := s.notWhileReplacing(r.Context(), who.restaurant.ID, "the count is not booked; count again in a moment"); err != nil {
		return err
	}
	cc, err := d.Count(r.Context(), who.restaurant.ID, c)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, envelope{"count": cashCountView(cc)})
}

// listCashCounts is GET /api/cash/counts.
func (s *Server) listCashCounts(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	filter, err := s.cashRange(r)
	if err != nil {
		return err
	}
	cs, err := s.store.CashCounts(r.Context(), caller(r.Context()).restaurant.ID, filter)
	if err != nil {
		return err
	}
	out := make([]cashCountJSON, 0, len(cs))
	for _, c := range cs {
		out = append(out, cashCountView(c))
	}
	return writeJSON(w, http.StatusOK, envelope{"counts": out})
}
