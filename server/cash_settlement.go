package server

import (
	"bytes"
	_ "embed" // the settlement's print template
	"encoding/json"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/fiscal/cashbook"
	"posbox/store"
)

// The waiter settlement (Bedienerabrechnung, docs/CASHDESK.md "Waiter
// settlement"): one person's sales, tips, float and tip payouts of a
// business day, and the cash they hand over; as JSON and as a page to
// print. An admin reads anyone's, staff their own only.

// settlementQuery is a settlement request read and checked: the person
// and the range (the local day, narrowed by from/to).
type settlementQuery struct {
	user     *store.User
	date     string
	from, to time.Time
}

// readSettlementQuery reads user_id, date (default today) and the
// optional from/to instants, which narrow the day: the range is their
// intersection with it.
func (s *Server) readSettlementQuery(r *http.Request) (settlementQuery, error) {
	var f store.Fields
	qs := r.URL.Query()
	c := caller(r.Context())
	loc := c.restaurant.Location()
	q := settlementQuery{date: s.now().In(loc).Format(store.DateFormat)}
	id := qs.Get("user_id")
	switch {
	case id == "":
		f.Add("user_id", store.FRequired, "is required")
	case !store.ValidID(id):
		f.Add("user_id", store.FUnknownUser, "must be a user of this restaurant")
	}
	if v := qs.Get("date"); v != "" {
		q.date = parseDate(&f, "date", v)
	}
	var from, to time.Time
	// A "+" the client did not percent-encode arrives as a space.
	if v := qs.Get("from"); v != "" {
		from = parseTimestamp(&f, "from", strings.ReplaceAll(v, " ", "+"))
	}
	if v := qs.Get("to"); v != "" {
		to = parseTimestamp(&f, "to", strings.ReplaceAll(v, " ", "+"))
	}
	if err := f.Err(); err != nil {
		return q, err
	}
	if !from.IsZero() && !to.IsZero() && from.After(to) {
		return q, store.Invalid("from", store.FAfterField, "must not be after to", "field", "to")
	}
	// Staff read their own settlement only; the check comes before the
	// look-up, so staff learn nothing of other ids.
	if c.user.Role != store.RoleAdmin && id != c.user.ID {
		return q, errHTTP(eForbidden, "staff read their own settlement only")
	}
	u, err := s.store.User(r.Context(), c.restaurant.ID, id)
	if store.IsNotFound(err) {
		return q, store.Invalid("user_id", store.FUnknownUser, "must be a user of this restaurant")
	} else if err != nil {
		return q, err
	}
	q.user = u
	day, _ := time.Parse(store.DateFormat, q.date)
	q.from, q.to = store.LocalDayBounds(day, loc)
	if from.After(q.from) {
		q.from = from
	}
	if !to.IsZero() && to.Before(q.to) {
		q.to = to
	}
	if q.to.Before(q.from) {
		q.to = q.from // from/to outside the day: an empty range
	}
	return q, nil
}

type settlementJSON struct {
	User     personJSON  `json:"user"`
	Date     string      `json:"date"`
	From     string      `json:"from"`
	To       string      `json:"to"`
	Receipts int         `json:"receipts"`
	Cash     json.Number `json:"cash"`
	Card     json.Number `json:"card"`
	Total    json.Number `json:"total"`
	Stornos  struct {
		Count  int         `json:"count"`
		Amount json.Number `json:"amount"`
	} `json:"stornos"`
	Tips struct {
		Cash    json.Number `json:"cash"`
		Card    json.Number `json:"card"`
		PaidOut json.Number `json:"paid_out"`
		Open    json.Number `json:"open"`
	} `json:"tips"`
	Float    json.Number `json:"float"`
	HandOver json.Number `json:"hand_over"`
}

func settlementView(q settlementQuery, st *cashbook.Settlement) settlementJSON {
	v := settlementJSON{User: person(q.user.ID, q.user.Name), Date: q.date, From: ts(st.From), To: ts(st.To), Receipts: st.Receipts,
		Cash: money(st.CashCents), Card: money(st.CardCents), Total: money(st.SalesCents), Float: money(st.FloatCents),
		HandOver: money(st.HandOverCents)}
	v.Stornos.Count, v.Stornos.Amount = st.Stornos, money(st.StornoCents)
	v.Tips.Cash, v.Tips.Card, v.Tips.PaidOut, v.Tips.Open = money(st.CashTipCents), money(st.CardTipCents), money(st.PaidOutCents),
		money(st.TipsOpenCents)
	return v
}

// cashSettlement is GET /api/cash/settlement.
func (s *Server) cashSettlement(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	q, err := s.readSettlementQuery(r)
	if err != nil {
		return err
	}
	st, err := cashbook.Settle(r.Context(), s.store, caller(r.Context()).restaurant.ID, q.user.ID, q.from, q.to)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"settlement": settlementView(q, st)})
}

// cashSettlementPrint is GET /api/cash/settlement/print: the settlement
// as a page to print, in German, like the Z-report (layout a4 or
// receipt; no script, the console's CSP, print.css or receipt.css).
func (s *Server) cashSettlementPrint(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	layout, err := printLayout(r)
	if err != nil {
		return err
	}
	q, err := s.readSettlementQuery(r)
	if err != nil {
		return err
	}
	c := caller(r.Context())
	st, err := cashbook.Settle(r.Context(), s.store, c.restaurant.ID, q.user.ID, q.from, q.to)
	if err != nil {
		return err
	}
	loc := c.restaurant.Location()
	page := settlementPage{Settlement: st, Name: q.user.Name, Date: q.date, Restaurant: c.restaurant.Name, Receipt: layout == "receipt",
		Printed: s.store.Now().In(loc).Format("02.01.2006, 15:04") + " Uhr", loc: loc}
	tpl, err := settlementTemplate.Clone()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := tpl.Funcs(zReportFuncs(loc)).Execute(&buf, page); err != nil {
		return err
	}
	return writePrintPage(w, buf.Bytes())
}

// printLayout reads ?layout: a4 (the default) or receipt (80 mm).
func printLayout(r *http.Request) (string, error) {
	switch l := r.URL.Query().Get("layout"); l {
	case "", "a4":
		return "a4", nil
	case "receipt":
		return l, nil
	}
	return "", store.Invalid("layout", store.FOneOf, "must be a4 or receipt", "values", []string{"a4", "receipt"})
}

// settlementPage is what the template reads.
type settlementPage struct {
	*cashbook.Settlement
	Name, Date, Restaurant string
	Receipt                bool // the 80 mm layout
	Printed                string
	loc                    *time.Location
}

//go:embed templates/cash_settlement.html
var settlementHTML string

var settlementTemplate = template.Must(template.New("settlement").Funcs(zReportFuncs(time.UTC)).Parse(settlementHTML))

// Span is the range in words: the whole day, or its part from/to chose.
func (p settlementPage) Span() string {
	loc := p.loc
	day, _ := time.Parse(store.DateFormat, p.Date)
	start, end := store.LocalDayBounds(day, loc)
	if p.From.Equal(start) && p.To.Equal(end) {
		return "ganzer Tag"
	}
	return p.From.In(loc).Format("15:04") + " bis " + p.To.In(loc).Format("15:04") + " Uhr"
}
