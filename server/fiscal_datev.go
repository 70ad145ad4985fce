package server

import (
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/fiscal/datev"
	"posbox/store"
)

// datevJSON is the DATEV settings (GET and PUT /api/fiscal/datev/accounts).
type datevJSON struct {
	ConsultantNumber *int               `json:"consultant_number"`
	ClientNumber     *int               `json:"client_number"`
	Chart            string             `json:"chart"`
	AccountLength    int                `json:"account_length"`
	Accounts         []datevAccountJSON `json:"accounts"`
	UpdatedAt        *string            `json:"updated_at"`
}

type datevAccountJSON struct {
	Key      string `json:"key"`
	Label    string `json:"label"`
	Account  string `json:"account"`
	SKR03    string `json:"skr03"`
	SKR04    string `json:"skr04"`
	Required bool   `json:"required"`
}

func datevView(d store.DATEVSettings, saved bool) datevJSON {
	num := func(v int) *int {
		if v == 0 {
			return nil
		}
		return &v
	}
	out := datevJSON{ConsultantNumber: num(d.Consultant), ClientNumber: num(d.Client), Chart: d.Chart, AccountLength: d.AccountLength,
		Accounts: []datevAccountJSON{}}
	for _, a := range datev.Accounts {
		out.Accounts = append(out.Accounts, datevAccountJSON{Key: a.Key, Label: a.Label, Account: d.Accounts[a.Key],
			SKR03: a.SKR03, SKR04: a.SKR04, Required: a.Required})
	}
	if saved {
		v := ts(d.UpdatedAt)
		out.UpdatedAt = &v
	}
	return out
}

// datevSettings is the restaurant's saved settings, or the defaults; an
// account added since they were saved takes the chart's default.
func (s *Server) datevSettings(r *http.Request) (store.DATEVSettings, bool, error) {
	d, ok, err := s.store.DATEVSettings(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return d, ok, err
	}
	if ok {
		d.Accounts = datev.WithDefaults(d.Chart, d.Accounts)
		return d, ok, nil
	}
	def := datev.DefaultSettings()
	return store.DATEVSettings{Chart: def.Chart, AccountLength: def.AccountLength, Accounts: def.Accounts}, false, nil
}

// getDATEVAccounts is GET /api/fiscal/datev/accounts.
func (s *Server) getDATEVAccounts(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	d, saved, err := s.datevSettings(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"datev": datevView(d, saved)})
}

// datevRequest is PUT /api/fiscal/datev/accounts: the numbers (null when
// not yet known), the chart, the account length (4 when left out) and
// the accounts that differ from the chart's defaults (a key left out
// takes the chart's default).
type datevRequest struct {
	ConsultantNumber *int              `json:"consultant_number"`
	ClientNumber     *int              `json:"client_number"`
	Chart            string            `json:"chart"`
	AccountLength    *int              `json:"account_length"`
	Accounts         map[string]string `json:"accounts"`
}

// putDATEVAccounts is PUT /api/fiscal/datev/accounts.
func (s *Server) putDATEVAccounts(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req datevRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	set := datev.Settings{Chart: req.Chart, AccountLength: 4, Accounts: datev.Defaults(req.Chart)}
	if req.ConsultantNumber != nil {
		set.Consultant = *req.ConsultantNumber
	}
	if req.ClientNumber != nil {
		set.Client = *req.ClientNumber
	}
	if req.AccountLength != nil {
		set.AccountLength = *req.AccountLength
	}
	for k, v := range req.Accounts {
		set.Accounts[k] = v
	}
	if err := datev.Validate(set); err != nil {
		return err
	}
	who := caller(r.Context())
	d, err := s.store.PutDATEVSettings(r.Context(), who.restaurant.ID, who.user.ID, store.DATEVSettings{Consultant: set.Consultant,
		Client: set.Client, Chart: set.Chart, AccountLength: set.AccountLength, Accounts: set.Accounts})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"datev": datevView(d, true)})
}

// exportDATEV is GET /api/fiscal/datev?month=YYYY-MM: the month's
// closings as DATEV's booking batch (docs/FISCAL.md, "The DATEV batch").
func (s *Server) exportDATEV(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	first, err := time.Parse("2006-01", r.URL.Query().Get("month"))
	if err != nil {
		return store.Invalid("month", store.FBadFormat, "must be a month YYYY-MM")
	}
	d, _, err := s.datevSettings(r)
	if err != nil {
		return err
	}
	b := datev.Batch{Settings: datev.Settings{Consultant: d.Consultant, Client: d.Client, Chart: d.Chart, AccountLength: d.AccountLength,
		Accounts: d.Accounts}, From: first.Format(store.DateFormat), To: first.AddDate(0, 1, -1).Format(store.DateFormat), CreatedAt: s.now()}
	if d.Consultant == 0 || d.Client == 0 {
		_, err := b.File() // the numbers' refusal, before reading the month
		return err
	}
	rid := caller(r.Context()).restaurant.ID
	closings, err := s.store.TSEClosings(r.Context(), rid, store.ClosingFilter{DateFrom: b.From, DateTo: b.To})
	if err != nil {
		return err
	}
	for _, c := range closings {
		sales, err := s.store.ClosingSales(r.Context(), c.ID)
		if err != nil {
			return err
		}
		b.Closings = append(b.Closings, datev.ClosingOf(c, sales))
	}
	file, err := b.File()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=windows-1252")
	w.Header().Set("Content-Disposition", `attachment; filename="`+b.FileName()+`"`)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(file)
	return err
}
