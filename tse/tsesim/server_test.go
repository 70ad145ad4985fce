package tsesim_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// simHTTP is the served simulator with raw HTTP exchanges of its own.
type simHTTP struct{ *simtest.HTTP }

func newSimHTTP(t testing.TB, mod ...func(*tsesim.Config)) *simHTTP {
	return &simHTTP{simtest.NewHTTP(t, mod...)}
}

// exchange is one raw HTTP exchange with the simulator's fiskaly face.
type exchange struct {
	status int
	header http.Header
	body   []byte
	obj    map[string]any // the body as a JSON object; nil if it is none
}

// do sends method path with an optional bearer token, a body (nil, a
// string sent as it is, or a value sent as JSON) and header pairs.
func (h *simHTTP) do(t testing.TB, method, path, token string, body any, header ...string) exchange {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, h.TS.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	ex := exchange{status: resp.StatusCode, header: resp.Header}
	if ex.body, err = io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(ex.body, &ex.obj)
	return ex
}

// accessToken signs in with the test credentials.
func (h *simHTTP) accessToken(t testing.TB) string {
	t.Helper()
	ex := h.do(t, "POST", "/api/v2/auth", "", map[string]string{"api_key": "test_key", "api_secret": "test_secret"})
	tok, _ := ex.obj["access_token"].(string)
	if tok == "" {
		t.Fatalf("auth: %d %s", ex.status, ex.body)
	}
	return tok
}

// wantFiskalyError checks fiskaly's error body: {status_code, error, code,
// message} as JSON with the HTTP status.
func wantFiskalyError(t testing.TB, what string, ex exchange, status int, code string) {
	t.Helper()
	if ex.status != status || ex.obj["status_code"] != float64(status) || ex.obj["error"] != http.StatusText(status) ||
		ex.obj["code"] != code || ex.obj["message"] == "" || !strings.HasPrefix(ex.header.Get("Content-Type"), "application/json") {
		t.Fatalf("%s: %d %s, want %d %s in fiskaly's error body", what, ex.status, ex.body, status, code)
	}
}

// txPath is a transaction's path on the default TSS.
func (h *simHTTP) txPath(idOrNumber, query string) string {
	p := "/api/v2/tss/" + h.Sim.TSSID() + "/tx/" + idOrNumber
	if query != "" {
		p += "?" + query
	}
	return p
}

// Finding: the admin operations answered an empty body; fiskaly's OpenAPI
// declares a JSON object for changeAdminPin, authenticateAdmin and
// logoutAdmin (a client that parses the body failed on it).
func TestSimServerAdminCallsAnswerJSONObjects(t *testing.T) {
	h := newSimHTTP(t, func(c *tsesim.Config) { c.Empty = true })
	f := h.Client(t)
	ctx := context.Background()
	id := tse.NewUUID4()
	_, puk, err := f.CreateTSS(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.SetTSSState(ctx, id, tse.TSSUninitialized); err != nil {
		t.Fatal(err)
	}
	tok := h.accessToken(t)
	base := "/api/v2/tss/" + id + "/admin"
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"PATCH", base, map[string]string{"admin_puk": puk, "new_admin_pin": "12345678"}},
		{"POST", base + "/auth", map[string]string{"admin_pin": "12345678"}},
		{"POST", base + "/logout", map[string]string{}},
		{"POST", base + "/logout", nil}, // logging out twice is fine too
	} {
		ex := h.do(t, c.method, c.path, tok, c.body)
		var obj map[string]any
		if ex.status != 200 || !strings.HasPrefix(ex.header.Get("Content-Type"), "application/json") ||
			json.Unmarshal(ex.body, &obj) != nil || obj == nil {
			t.Fatalf("%s %s: %d %q (%s), want 200 and a JSON object", c.method, c.path, ex.status, ex.body, ex.header.Get("Content-Type"))
		}
	}
}

// Finding: schema.raw, standard_v1.order and standard_v1.other were
// refused. Each is signed with the processType and processData fiskaly
// maps it to, and the answer shows standard_v1 as sent next to raw.
func TestSimSignsRawOrderAndOtherSchemas(t *testing.T) {
	h := newSimHTTP(t)
	f := h.Client(t)
	ctx := context.Background()
	if _, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	tok := h.accessToken(t)
	pub := h.Sim.PublicKey()
	belegData := "Beleg^1.00_0.00_0.00_0.00_0.00^1.00:Bar"
	cases := []struct {
		name              string
		schema            string
		processType, data string
		stdV1             string // schema.standard_v1 of the answer, "" for none
	}{
		{"raw", `{"raw":{"process_type":"Kassenbeleg-V1","process_data":"` + base64.StdEncoding.EncodeToString([]byte(belegData)) + `"}}`,
			"Kassenbeleg-V1", belegData, ""},
		{"order", `{"standard_v1":{"order":{"line_items":[{"quantity":"2","text":"Eisbecher \"Himbeere\"","price_per_unit":"3.50"},{"quantity":"0.5","text":"Wein","price_per_unit":"12.00"}]}}}`,
			"Bestellung-V1", "2;\"Eisbecher \"\"Himbeere\"\"\";3.50\r0.5;\"Wein\";12.00",
			`{"order":{"line_items":[{"quantity":"2","text":"Eisbecher \"Himbeere\"","price_per_unit":"3.50"},{"quantity":"0.5","text":"Wein","price_per_unit":"12.00"}]}}`},
		{"other", `{"standard_v1":{"other":{ "note": "Z-Bon 17", "n": 3 }}}`,
			"SonstigerVorgang", `{"note":"Z-Bon 17","n":3}`, `{"other":{"note":"Z-Bon 17","n":3}}`},
	}
	for _, c := range cases {
		id := tse.NewUUID4()
		if _, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)}); err != nil {
			t.Fatal(err)
		}
		fin := `{"state":"FINISHED","client_id":"` + simtest.ClientID + `","schema":` + c.schema + `}`
		ex := h.do(t, "PUT", h.txPath(id, "tx_revision=2"), tok, fin)
		if ex.status != 200 {
			t.Fatalf("%s: %d %s", c.name, ex.status, ex.body)
		}
		// Read back (from the journal) through posbox's client and raw.
		tx, err := f.Tx(ctx, id, 0)
		if err != nil || tx.State != tse.TxFinished || tx.ProcessType != c.processType || tx.ProcessData != c.data {
			t.Fatalf("%s: %+v %v, want %s %q", c.name, tx, err, c.processType, c.data)
		}
		if err := tse.VerifyTx(pub, tx); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		forged := tx
		forged.ProcessData += " "
		if tse.VerifyTx(pub, forged) == nil {
			t.Fatalf("%s: the signature does not cover the process data", c.name)
		}
		if !strings.Contains(tx.QRCodeData, ";"+c.processType+";"+c.data+";") {
			t.Fatalf("%s: qr_code_data %q", c.name, tx.QRCodeData)
		}
		got := h.do(t, "GET", h.txPath(id, ""), tok, nil)
		var w struct {
			Schema struct {
				StandardV1 json.RawMessage `json:"standard_v1"`
				Raw        struct {
					ProcessType string `json:"process_type"`
					ProcessData string `json:"process_data"`
				} `json:"raw"`
			} `json:"schema"`
		}
		json.Unmarshal(got.body, &w)
		if w.Schema.Raw.ProcessType != c.processType || w.Schema.Raw.ProcessData != base64.StdEncoding.EncodeToString([]byte(c.data)) ||
			string(w.Schema.StandardV1) != c.stdV1 {
			t.Fatalf("%s: schema in the answer %s", c.name, got.body)
		}
	}

	// The schema is checked as fiskaly's OpenAPI declares it.
	for name, schema := range map[string]string{
		"empty schema":            `{}`,
		"two schemas":             `{"raw":{"process_type":"X","process_data":""},"standard_v1":{"other":{}}}`,
		"unknown schema":          `{"standard_v2":{}}`,
		"two standard_v1 forms":   `{"standard_v1":{"order":{"line_items":[]},"other":{}}}`,
		"raw without data":        `{"raw":{"process_type":"Kassenbeleg-V1"}}`,
		"raw data not base64":     `{"raw":{"process_type":"Kassenbeleg-V1","process_data":"no base64!"}}`,
		"raw data not UTF-8":      `{"raw":{"process_type":"Kassenbeleg-V1","process_data":"/w=="}}`,
		"order without lines":     `{"standard_v1":{"order":{}}}`,
		"order line without text": `{"standard_v1":{"order":{"line_items":[{"quantity":"1","price_per_unit":"1.00"}]}}}`,
		"order price one decimal": `{"standard_v1":{"order":{"line_items":[{"quantity":"1","text":"A","price_per_unit":"1.0"}]}}}`,
		"order text too long":     `{"standard_v1":{"order":{"line_items":[{"quantity":"1","text":"` + strings.Repeat("x", 256) + `","price_per_unit":"1.00"}]}}}`,
		"other not an object":     `{"standard_v1":{"other":"text"}}`,
		"taximeter schema":        `{"dsfinvtw_v1":{"other":"x"}}`,
	} {
		id := tse.NewUUID4()
		f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)})
		ex := h.do(t, "PUT", h.txPath(id, "tx_revision=2"), tok, `{"state":"ACTIVE","client_id":"`+simtest.ClientID+`","schema":`+schema+`}`)
		wantFiskalyError(t, name, ex, 400, "E_FAILED_SCHEMA_VALIDATION")
	}

	// An order that becomes a receipt changes its processType: fiskaly's
	// 409 E_TX_ILLEGAL_TYPE_CHANGE. The same type again is an update.
	id := tse.NewUUID4()
	f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)})
	order := `{"state":"ACTIVE","client_id":"` + simtest.ClientID + `","schema":{"standard_v1":{"order":{"line_items":[{"quantity":"1","text":"Kaffee","price_per_unit":"2.50"}]}}}}`
	if ex := h.do(t, "PUT", h.txPath(id, "tx_revision=2"), tok, order); ex.status != 200 {
		t.Fatalf("order update: %d %s", ex.status, ex.body)
	}
	_, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 3, Body: simtest.Body(t, tse.TxFinished, simtest.SampleReceipt())})
	simtest.WantErr(t, err, tse.TxPermanent, 409, "E_TX_ILLEGAL_TYPE_CHANGE")
	fin, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 3, Body: []byte(`{"state":"FINISHED","client_id":"` + simtest.ClientID + `"}`)})
	if err != nil || fin.ProcessType != "Bestellung-V1" || fin.ProcessData != `1;"Kaffee";2.50` {
		t.Fatalf("finishing the order without a schema keeps it: %+v %v", fin, err)
	}
}

// Finding: the deprecated vat_rate decimals and a lowercase currency_code
// were refused. They sign as their named rate and the capital code, and
// the answer keeps what the client sent.
func TestSimAcceptsDeprecatedVATRatesAndLowercaseCurrency(t *testing.T) {
	h := newSimHTTP(t)
	f := h.Client(t)
	ctx := context.Background()
	if _, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	r := &tse.Receipt{
		ReceiptType: "RECEIPT",
		AmountsPerVATRate: []tse.AmountPerVATRate{
			{VATRate: "19", Amount: "10.00"}, {VATRate: "7", Amount: "5.00"}, {VATRate: "10.7", Amount: "1.07"},
			{VATRate: "5.5", Amount: "0.55"}, {VATRate: "0", Amount: "1.00"}, {VATRate: "NORMAL", Amount: "1.00"},
		},
		AmountsPerPaymentType: []tse.AmountPerPayment{
			{PaymentType: "NON_CASH", Amount: "2.00", CurrencyCode: "usd"},
			{PaymentType: "CASH", Amount: "16.62", CurrencyCode: "eur"},
			{PaymentType: "NON_CASH", Amount: "1.00"},
		},
	}
	id := tse.NewUUID4()
	if _, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)}); err != nil {
		t.Fatal(err)
	}
	fin, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: simtest.Body(t, tse.TxFinished, r)})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Beleg^11.00_5.00_1.07_0.55_1.00^16.62:Bar_1.00:Unbar_2.00:Unbar:USD"; fin.ProcessData != want {
		t.Fatalf("processData %q, want %q", fin.ProcessData, want)
	}
	if err := tse.VerifyTx(h.Sim.PublicKey(), fin); err != nil {
		t.Fatal(err)
	}
	ex := h.do(t, "GET", h.txPath(id, ""), h.accessToken(t), nil)
	var w struct {
		Schema struct {
			StandardV1 struct {
				Receipt tse.Receipt `json:"receipt"`
			} `json:"standard_v1"`
		} `json:"schema"`
	}
	json.Unmarshal(ex.body, &w)
	got := w.Schema.StandardV1.Receipt
	if len(got.AmountsPerVATRate) != 6 || got.AmountsPerVATRate[0].VATRate != "19" || got.AmountsPerVATRate[3].VATRate != "5.5" ||
		len(got.AmountsPerPaymentType) != 3 || got.AmountsPerPaymentType[0].CurrencyCode != "usd" ||
		got.AmountsPerPaymentType[1].CurrencyCode != "eur" || got.AmountsPerPaymentType[2].CurrencyCode != "EUR" {
		t.Fatalf("standard_v1 in the answer: %s", ex.body)
	}
	// Still refused: what the schema does not allow.
	for _, bad := range []func(*tse.Receipt){
		func(r *tse.Receipt) { r.AmountsPerVATRate[0].VATRate = "16" },
		func(r *tse.Receipt) { r.AmountsPerVATRate[0].VATRate = "19.0" },
		func(r *tse.Receipt) { r.AmountsPerPaymentType[0].CurrencyCode = "US" },
		func(r *tse.Receipt) { r.AmountsPerPaymentType[0].CurrencyCode = "EU1" },
	} {
		b := simtest.SampleReceipt()
		b.AmountsPerPaymentType[0].CurrencyCode = "EUR"
		bad(b)
		if err := tse.ValidateReceipt(b); err == nil {
			t.Fatalf("accepted %+v", b)
		}
	}
}

// Finding: an update addressed by transaction number was refused; fiskaly's
// path parameter is tx_id_or_number for upserts as for reads.
func TestSimUpsertsByTransactionNumber(t *testing.T) {
	h := newSimHTTP(t)
	f := h.Client(t)
	ctx := context.Background()
	if _, err := f.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	simtest.Sell(t, f, tse.NewUUID4()) // number 1
	id := tse.NewUUID4()
	start, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)})
	if err != nil || start.Number != 2 {
		t.Fatalf("start: %+v %v", start, err)
	}
	finish := tse.UpsertRequest{TxID: "2", Revision: 2, Body: simtest.Body(t, tse.TxFinished, simtest.SampleReceipt())}
	fin, err := f.Upsert(ctx, finish)
	if err != nil || fin.ID != id || fin.Number != 2 || fin.State != tse.TxFinished || fin.Revision != 2 {
		t.Fatalf("finish by number: %+v %v", fin, err)
	}
	if err := tse.VerifyTx(h.Sim.PublicKey(), fin); err != nil {
		t.Fatal(err)
	}
	// The same revision by id and the same body is the same answer.
	again, err := f.Upsert(ctx, tse.UpsertRequest{TxID: id, Revision: 2, Body: finish.Body})
	if err != nil || again.Signature != fin.Signature {
		t.Fatalf("resend by id: %+v %v", again, err)
	}
	// A number names an existing transaction; it never starts one.
	_, err = f.Upsert(ctx, tse.UpsertRequest{TxID: "99", Revision: 2, Body: finish.Body})
	simtest.WantErr(t, err, tse.Reconcile, 404, "E_TX_NOT_FOUND")
	_, err = f.Upsert(ctx, tse.UpsertRequest{TxID: "3", Revision: 1, Body: simtest.Body(t, tse.TxActive, nil)})
	simtest.WantErr(t, err, tse.Reconcile, 404, "E_TX_NOT_FOUND")
	if info, _ := h.Sim.TSS(ctx); info.TransactionCounter != 2 {
		t.Fatalf("transaction counter %d, want 2", info.TransactionCounter)
	}
}

// Finding: a missing tx_revision on an upsert. fiskaly's OpenAPI declares
// the parameter optional without a default while upsertTransaction's
// description says the query string must include it: the simulator keeps
// refusing, with the operation's 400 E_TX_UPSERT in fiskaly's error body.
// A tx_revision that breaks the schema (an integer >= 1) stays a schema
// error.
func TestSimUpsertWithoutTxRevision(t *testing.T) {
	h := newSimHTTP(t)
	f := h.Client(t)
	if _, err := f.EnsureClient(context.Background(), simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	tok := h.accessToken(t)
	start := string(simtest.Body(t, tse.TxActive, nil))
	id := tse.NewUUID4()
	wantFiskalyError(t, "no tx_revision", h.do(t, "PUT", h.txPath(id, ""), tok, start), 400, "E_TX_UPSERT")
	for _, q := range []string{"tx_revision=0", "tx_revision=", "tx_revision=one"} {
		wantFiskalyError(t, q, h.do(t, "PUT", h.txPath(id, q), tok, start), 400, "E_FAILED_SCHEMA_VALIDATION")
	}
	if ex := h.do(t, "PUT", h.txPath(id, "tx_revision=1"), tok, start); ex.status != 200 {
		t.Fatalf("with tx_revision=1: %d %s", ex.status, ex.body)
	}
	// Reading without tx_revision is the latest revision.
	if ex := h.do(t, "GET", h.txPath(id, ""), tok, nil); ex.status != 200 || ex.obj["revision"] != float64(1) {
		t.Fatalf("read: %d %s", ex.status, ex.body)
	}
}

// Finding: the simulator did not echo the client's request-id. It answers
// the id the client set (request-id, or X-Request-Id) and makes one when
// there is none, on answers and errors alike.
func TestSimServerEchoesTheRequestID(t *testing.T) {
	h := newSimHTTP(t)
	tok := h.accessToken(t)
	path := "/api/v2/tss/" + h.Sim.TSSID()
	if got := h.do(t, "GET", path, tok, nil, "request-id", "pos-7f3a-0001").header.Get("request-id"); got != "pos-7f3a-0001" {
		t.Fatalf("request-id answered %q", got)
	}
	if got := h.do(t, "GET", path, tok, nil, "X-Request-Id", "pos-7f3a-0002").header.Get("request-id"); got != "pos-7f3a-0002" {
		t.Fatalf("X-Request-Id answered %q", got)
	}
	if got := h.do(t, "GET", path, "", nil, "request-id", "pos-7f3a-0003").header.Get("request-id"); got != "pos-7f3a-0003" {
		t.Fatalf("on a 401: %q", got)
	}
	a := h.do(t, "GET", path, tok, nil).header.Get("request-id")
	b := h.do(t, "GET", path, tok, nil).header.Get("request-id")
	if !tse.ValidUUID(a) || !tse.ValidUUID(b) || a == b {
		t.Fatalf("made-up request ids %q %q", a, b)
	}
	if got := h.do(t, "GET", path, tok, nil, "request-id", strings.Repeat("x", 200)).header.Get("request-id"); !tse.ValidUUID(got) {
		t.Fatalf("an oversized id is replaced, got %q", got)
	}
}

// Finding: a malformed TSS id answered 404 on GET and 400 on PUT. Every
// operation validates its path as fiskaly's OpenAPI declares it (format
// uuid; tx_id_or_number a UUID or a number): 400 E_FAILED_SCHEMA_VALIDATION.
// A well-formed id that does not exist is 404 E_TSS_NOT_FOUND.
func TestSimServerValidatesPathIDsAlike(t *testing.T) {
	h := newSimHTTP(t)
	tok := h.accessToken(t)
	tss := "/api/v2/tss/" + h.Sim.TSSID()
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/v2/tss/not-a-uuid", nil},
		{"PUT", "/api/v2/tss/not-a-uuid", map[string]any{}},
		{"PATCH", "/api/v2/tss/not-a-uuid", map[string]string{"state": "UNINITIALIZED"}},
		{"PATCH", "/api/v2/tss/not-a-uuid/admin", map[string]string{"admin_puk": "x", "new_admin_pin": "12345678"}},
		{"POST", "/api/v2/tss/not-a-uuid/admin/auth", map[string]string{"admin_pin": "12345678"}},
		{"POST", "/api/v2/tss/not-a-uuid/admin/logout", map[string]string{}},
		{"GET", "/api/v2/tss/not-a-uuid/tx", nil},
		{"GET", "/api/v2/tss/not-a-uuid/client/" + simtest.ClientID, nil},
		{"GET", "/api/v2/tss/12345/tx/1", nil},
		{"GET", tss + "/client/KASSE-01", nil},
		{"PUT", tss + "/client/KASSE-01", map[string]string{"serial_number": "KASSE-01"}},
		{"GET", tss + "/tx/not-a-tx", nil},
		{"PUT", tss + "/tx/not-a-tx?tx_revision=1", map[string]string{"state": "ACTIVE", "client_id": simtest.ClientID}},
		{"GET", tss + "/tx/1.5", nil},
	} {
		wantFiskalyError(t, c.method+" "+c.path, h.do(t, c.method, c.path, tok, c.body), 400, "E_FAILED_SCHEMA_VALIDATION")
	}
	unknown := "/api/v2/tss/" + tse.NewUUID4()
	wantFiskalyError(t, "GET unknown TSS", h.do(t, "GET", unknown, tok, nil), 404, "E_TSS_NOT_FOUND")
	wantFiskalyError(t, "PATCH unknown TSS", h.do(t, "PATCH", unknown, tok, map[string]string{"state": "UNINITIALIZED"}), 404, "E_TSS_NOT_FOUND")
	wantFiskalyError(t, "GET unknown number", h.do(t, "GET", tss+"/tx/42", tok, nil), 404, "E_TX_NOT_FOUND")
}

// Finding: routes the simulator does not serve answered a made-up
// E_NOT_FOUND. fiskaly's error codes name no unknown route: the answer is
// the generic 404 body, status_code, error and message without a code.
func TestSimServerAnswersUnknownRoutesWithTheGeneric404(t *testing.T) {
	h := newSimHTTP(t)
	tok := h.accessToken(t)
	tss := "/api/v2/tss/" + h.Sim.TSSID()
	for _, c := range []struct{ method, path, token string }{
		{"GET", tss + "/export", tok},                                   // listExports: not simulated
		{"GET", tss + "/export/" + tse.NewUUID4() + "/metadata", tok},   // export metadata
		{"GET", tss + "/client/" + simtest.ClientID + "/metadata", tok}, // client metadata
		{"PATCH", tss + "/client/" + simtest.ClientID, tok},             // updateClient
		{"GET", tss + "/tx/1/metadata", tok},                            // transaction metadata
		{"DELETE", tss, tok},
		{"GET", "/api/v2/nothing-here", ""},
		{"GET", "/api/v1/tss", ""},
	} {
		ex := h.do(t, c.method, c.path, c.token, nil)
		_, hasCode := ex.obj["code"]
		if ex.status != 404 || ex.obj["status_code"] != float64(404) || ex.obj["error"] != "Not Found" ||
			ex.obj["message"] == "" || hasCode || ex.header.Get("request-id") == "" ||
			!strings.HasPrefix(ex.header.Get("Content-Type"), "application/json") {
			t.Fatalf("%s %s: %d %s", c.method, c.path, ex.status, ex.body)
		}
	}
}
