package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"posbox/store"
)

// evalAnswer is the answer of POST /api/discounts/evaluate as a till reads
// it; amounts stay the literals the API wrote.
type evalAnswer struct {
	evalPricing
	Code *struct {
		Code       string  `json:"code"`
		Valid      bool    `json:"valid"`
		Reason     *string `json:"reason"`
		DiscountID *string `json:"discount_id"`
	} `json:"code"`
	WithCode *evalPricing `json:"with_code"`
}

type evalPricing struct {
	OrderTotal    json.Number    `json:"order_total"`
	DiscountTotal json.Number    `json:"discount_total"`
	Total         json.Number    `json:"total"`
	Applied       []discountPart `json:"applied"`
	Skipped       []struct {
		DiscountID string `json:"discount_id"`
		Name       string `json:"name"`
		Reason     string `json:"reason"`
	} `json:"skipped"`
	Lines []struct {
		Line          int         `json:"line"`
		Total         json.Number `json:"total"`
		Discount      json.Number `json:"discount"`
		AfterDiscount json.Number `json:"after_discount"`
	} `json:"lines"`
	VATRates []struct {
		VATRate       string      `json:"vat_rate"`
		Total         json.Number `json:"total"`
		Discount      json.Number `json:"discount"`
		AfterDiscount json.Number `json:"after_discount"`
	} `json:"vat_rates"`
}

// discountPart is what a discount takes off a basket, as an evaluation's
// applied entry and a redemption with the basket show it.
type discountPart struct {
	DiscountID string      `json:"discount_id"`
	Name       string      `json:"name"`
	Amount     json.Number `json:"amount"`
	Lines      []struct {
		Line   int         `json:"line"`
		Amount json.Number `json:"amount"`
	} `json:"lines"`
	VATRates []struct {
		VATRate string      `json:"vat_rate"`
		Amount  json.Number `json:"amount"`
	} `json:"vat_rates"`
}

// render is "amount | line=amount ... | rate=amount ...".
func (p discountPart) render() string {
	var ls, rs []string
	for _, l := range p.Lines {
		ls = append(ls, fmt.Sprintf("%d=%s", l.Line, l.Amount))
	}
	for _, r := range p.VATRates {
		rs = append(rs, r.VATRate+"="+r.Amount.String())
	}
	return p.Amount.String() + " | " + strings.Join(ls, " ") + " | " + strings.Join(rs, " ")
}

// applied renders the applied discounts as "name amount [rate amount ...]".
func (p evalPricing) applied() string {
	var out []string
	for _, a := range p.Applied {
		s := a.Name + " " + a.Amount.String()
		for _, r := range a.VATRates {
			s += " " + r.VATRate + "=" + r.Amount.String()
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// skipped renders the skipped discounts as "name:reason", sorted.
func (p evalPricing) skipped() string {
	var out []string
	for _, s := range p.Skipped {
		out = append(out, s.Name+":"+s.Reason)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// evaluate posts body to the pricing route with token, wants 200 and
// returns the evaluation.
func (e *testEnv) evaluate(tb testing.TB, body, token string) evalAnswer {
	tb.Helper()
	rec := e.do(tb, "POST", "/api/discounts/evaluate", body, token)
	wantStatus(tb, rec, http.StatusOK)
	var out struct {
		Evaluation evalAnswer `json:"evaluation"`
	}
	decodeInto(tb, rec.Body.Bytes(), &out)
	return out.Evaluation
}

// lunch is docs/API.md's worked example: 2 beers at 3.90 (19 %), a
// schnitzel at 12.90 (7 %), the schnitzel in category catID.
const lunch = `"lines":[{"quantity":2,"unit_price":3.90,"vat_rate":"NORMAL"},
	{"category_id":"` + catID + `","quantity":1,"unit_price":12.90,"vat_rate":"REDUCED_1"}]`

// TestEvaluateWorkedExample: docs/API.md's 10 % on the 20.70 lunch is
// 0.78 at 19 % and 1.29 at 7 %, for staff too, and nothing is counted.
func TestEvaluateWorkedExample(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	id := e.createDiscount(t, `{"name":"Stammgast","discount_type":"percentage","value":10,"usage_limit":5}`)["id"].(string)
	before := e.getDiscount(t, id)

	got := e.evaluate(t, `{`+lunch+`}`, staff)
	if got.OrderTotal != "20.7" || got.DiscountTotal != "2.07" || got.Total != "18.63" {
		t.Fatalf("totals %s - %s = %s", got.OrderTotal, got.DiscountTotal, got.Total)
	}
	if a := got.applied(); a != "Stammgast 2.07 NORMAL=0.78 REDUCED_1=1.29" {
		t.Fatalf("applied %q", a)
	}
	if l := got.Applied[0].Lines; len(l) != 2 || l[0].Line != 0 || l[0].Amount != "0.78" || l[1].Line != 1 || l[1].Amount != "1.29" {
		t.Fatalf("per line %+v", l)
	}
	if r := got.VATRates; len(r) != 2 || r[0].VATRate != "NORMAL" || r[0].Total != "7.8" || r[0].Discount != "0.78" || r[0].AfterDiscount != "7.02" ||
		r[1].VATRate != "REDUCED_1" || r[1].AfterDiscount != "11.61" {
		t.Fatalf("per rate %+v", r)
	}
	if l := got.Lines; len(l) != 2 || l[1].Total != "12.9" || l[1].Discount != "1.29" || l[1].AfterDiscount != "11.61" {
		t.Fatalf("lines %+v", l)
	}
	if got.Skipped == nil || len(got.Skipped) != 0 || got.Code != nil || got.WithCode != nil {
		t.Fatalf("skipped %v, code %v, with_code %v", got.Skipped, got.Code, got.WithCode)
	}
	after := e.getDiscount(t, id)
	if after["usage_count"] != before["usage_count"] || after["updated_at"] != before["updated_at"] || e.redemptions(t, id) != 0 {
		t.Fatalf("pricing counted: %v -> %v", before, after)
	}

	// The fixed 5.00 over three lines: the missing cent goes to the beer.
	e2 := newTestEnv(t)
	e2.createDiscount(t, `{"name":"Fünf","discount_type":"fixed","value":5}`)
	got = e2.evaluate(t, `{"lines":[{"quantity":1,"unit_price":3.90,"vat_rate":"NORMAL"},
		{"quantity":1,"unit_price":12.90,"vat_rate":"REDUCED_1"},{"quantity":1,"unit_price":2.80,"vat_rate":"NORMAL"}]}`, e2.adminToken)
	if a := got.applied(); a != "Fünf 5 NORMAL=1.71 REDUCED_1=3.29" {
		t.Fatalf("applied %q", a)
	}
	if l := got.Applied[0].Lines; len(l) != 3 || l[0].Amount != "1" || l[1].Amount != "3.29" || l[2].Amount != "0.71" {
		t.Fatalf("per line %+v", l)
	}
}

// TestEvaluateScopeAndReasons: a category discount takes only its lines;
// one outside its schedule, one inactive, one above the order and one
// for an item not in the basket are skipped with their reasons.
func TestEvaluateScopeAndReasons(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	e.createDiscount(t, `{"name":"Schnitzeltag","discount_type":"percentage","value":20,"applicable_to":"category","category_id":"`+catID+`"}`)
	// The clock is Sunday 10:00 in Berlin: a weekday evening is closed.
	e.createDiscount(t, `{"name":"Feierabend","discount_type":"percentage","value":50,
		"schedule":[{"days":[1,2,3,4,5],"from":"17:00","to":"19:00"}]}`)
	e.createDiscount(t, `{"name":"Aus","discount_type":"percentage","value":50,"is_active":false}`)
	e.createDiscount(t, `{"name":"Ab 50","discount_type":"fixed","value":10,"min_order_amount":50}`)
	e.createDiscount(t, `{"name":"Dessert","discount_type":"fixed","value":1,"applicable_to":"item","item_id":"`+itemID+`"}`)
	e.createDiscount(t, `{"name":"Später","discount_type":"fixed","value":1,"valid_from":"2026-12-01T00:00:00+01:00"}`)

	got := e.evaluate(t, `{`+lunch+`}`, e.adminToken)
	// 20 % of 12.90 is 2.58, all of it at 7 %.
	if a := got.applied(); a != "Schnitzeltag 2.58 REDUCED_1=2.58" {
		t.Fatalf("applied %q", a)
	}
	if l := got.Applied[0].Lines; len(l) != 1 || l[0].Line != 1 {
		t.Fatalf("per line %+v: only the schnitzel", l)
	}
	want := "Ab 50:min_order_not_met Aus:discount_inactive Dessert:no_eligible_lines Feierabend:outside_schedule Später:discount_not_started"
	if s := got.skipped(); s != want {
		t.Fatalf("skipped\n got %s\nwant %s", s, want)
	}
	if r := got.VATRates; len(r) != 2 || r[0].Discount != "0" || r[0].AfterDiscount != "7.8" || r[1].Discount != "2.58" {
		t.Fatalf("per rate %+v", r)
	}
}

// TestEvaluateStacking: docs/API.md's table on the 20.70 lunch with P
// (10 %) and F (3.00), set through the new members combinable and
// priority.
func TestEvaluateStacking(t *testing.T) {
	t.Parallel()
	cases := []struct {
		// The stacking members of P and F; other is an exclusive fixed
		// X's value, "" for none.
		p, f, other string
		applied     string
		skipped     string
	}{
		{`"combinable":false`, `"combinable":false`, "", "F 3", "P:not_combined"},
		{`"combinable":true,"priority":2`, `"combinable":true,"priority":1`, "", "P 2.07; F 3", ""},
		{`"combinable":true`, `"combinable":true`, "", "F 3; P 1.77", ""},
		{`"combinable":true`, `"combinable":true`, `"value":4.78`, "X 4.78", "F:not_combined P:not_combined"},
		{`"combinable":true`, `"combinable":true`, `"value":4.77`, "F 3; P 1.77", "X:not_combined"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			e := newTestEnv(t)
			e.createDiscount(t, `{"name":"P","discount_type":"percentage","value":10,`+c.p+`}`)
			e.createDiscount(t, `{"name":"F","discount_type":"fixed","value":3,`+c.f+`}`)
			if c.other != "" {
				e.createDiscount(t, `{"name":"X","discount_type":"fixed",`+c.other+`}`)
			}
			got := e.evaluate(t, `{`+lunch+`}`, e.adminToken)
			var names []string
			for _, a := range got.Applied {
				names = append(names, a.Name+" "+a.Amount.String())
			}
			applied := strings.Join(names, "; ")
			if s := got.skipped(); s != c.skipped {
				t.Fatalf("skipped %q, want %q", s, c.skipped)
			}
			if applied != c.applied {
				t.Fatalf("applied %q, want %q", applied, c.applied)
			}
		})
	}
}

// TestEvaluateCode: a code discount is priced only with an unused code
// of it, in with_code; an unknown, foreign or used-up code says why;
// nothing is used.
func TestEvaluateCode(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	flyer := e.createDiscount(t, `{"name":"Flyer","discount_type":"fixed","value":5,"requires_code":true}`)["id"].(string)
	e.createDiscount(t, `{"name":"Stammgast","discount_type":"percentage","value":10,"combinable":true}`)
	code := e.makeCodes(t, flyer, `{"count":2,"uses_per_code":1}`)

	got := e.evaluate(t, `{`+lunch+`}`, staff)
	if a, s := got.applied(), got.skipped(); a != "Stammgast 2.07 NORMAL=0.78 REDUCED_1=1.29" || s != "Flyer:discount_code_required" || got.Code != nil || got.WithCode != nil {
		t.Fatalf("without a code: applied %q, skipped %q", a, s)
	}
	// Typed in lower case with a space: the exclusive 5.00 beats the
	// combinable 2.07.
	typed := strings.ToLower(strings.Replace(code[0], "-", " ", 1))
	got = e.evaluate(t, `{`+lunch+`,"code":"`+typed+`"}`, staff)
	if got.applied() != "Stammgast 2.07 NORMAL=0.78 REDUCED_1=1.29" {
		t.Fatalf("with a code the top level changed: %q", got.applied())
	}
	if c := got.Code; c == nil || !c.Valid || c.Code != code[0] || c.Reason != nil || c.DiscountID == nil || *c.DiscountID != flyer {
		t.Fatalf("code %+v", c)
	}
	if w := got.WithCode; w == nil || w.applied() != "Flyer 5 NORMAL=1.88 REDUCED_1=3.12" || w.skipped() != "Stammgast:not_combined" || w.DiscountTotal != "5" {
		t.Fatalf("with_code %+v", w)
	}
	if n := e.countRows(t, `SELECT sum(uses) FROM discount_codes WHERE discount_id = ?`, flyer); n != 0 || e.redemptions(t, flyer) != 0 {
		t.Fatalf("pricing used the code: %d uses", n)
	}

	// Used up: redeemed once, the code is reported but prices nothing.
	wantStatus(t, e.redeem(t, flyer, `{"order_total":20.7,"code":"`+code[0]+`"}`, staff), http.StatusOK)
	for body, reason := range map[string]string{
		code[0]: store.EDiscountCodeUsedUp, "ABCD-EFGH": store.EDiscountCodeInvalid, "not a code": store.EDiscountCodeInvalid,
	} {
		got = e.evaluate(t, `{`+lunch+`,"code":"`+body+`"}`, staff)
		if c := got.Code; c == nil || c.Valid || c.Reason == nil || *c.Reason != reason || got.WithCode != nil {
			t.Fatalf("%s: code %+v, with_code %v", body, c, got.WithCode)
		}
	}
}

// TestEvaluateRefusesABadBasket: each bad member is named by its line.
func TestEvaluateRefusesABadBasket(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	_, staff := e.staff(t, "Till One")
	cases := []struct {
		body   string
		fields []string
	}{
		{`{"lines":[]}`, []string{"lines"}},
		{`{}`, []string{"lines"}},
		{`{"lines":[{}]}`, []string{"lines[0].quantity", "lines[0].unit_price", "lines[0].vat_rate"}},
		{`{"lines":[{"quantity":1,"unit_price":1,"vat_rate":"NORMAL"},{"quantity":1.0005,"unit_price":1.005,"vat_rate":"NORMAL"}]}`,
			[]string{"lines[1].quantity", "lines[1].unit_price"}},
		{`{"lines":[{"quantity":-1,"unit_price":-1,"vat_rate":"HALF","item_id":"x","category_id":"Y"}]}`,
			[]string{"lines[0].item_id", "lines[0].category_id", "lines[0].quantity", "lines[0].unit_price", "lines[0].vat_rate"}},
		{`{"lines":[{"quantity":0,"unit_price":1,"vat_rate":"NORMAL"}]}`, []string{"lines[0].quantity"}},
	}
	for _, c := range cases {
		p := wantProblem(t, e.do(t, "POST", "/api/discounts/evaluate", c.body, staff), http.StatusUnprocessableEntity, store.EValidation)
		var got []string
		for _, f := range p["errors"].([]any) {
			got = append(got, f.(map[string]any)["field"].(string))
		}
		if !slices.Equal(got, c.fields) {
			t.Errorf("%s: fields %v, want %v", c.body, got, c.fields)
		}
	}
	wantProblem(t, e.do(t, "POST", "/api/discounts/evaluate", `{"lines":[],"guest_ref":"x"}`, staff), http.StatusBadRequest, eUnknownField)
	wantStatus(t, e.do(t, "POST", "/api/discounts/evaluate", `{"lines":[]}`, ""), http.StatusUnauthorized)
	wantStatus(t, e.do(t, "GET", "/api/discounts/evaluate", nil, staff), http.StatusMethodNotAllowed)
}

// TestDiscountStackingMembers: combinable and priority default to
// exclusive 0, are changed by PUT, refuse null and a priority out of
// range.
func TestDiscountStackingMembers(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	d := e.createDiscount(t, `{"name":"A","discount_type":"fixed","value":1}`)
	if d["combinable"] != false || d["priority"] != json.Number("0") {
		t.Fatalf("defaults %v %v", d["combinable"], d["priority"])
	}
	id := d["id"].(string)
	rec := e.do(t, "PUT", "/api/discounts/"+id, `{"combinable":true,"priority":-7}`, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if d := e.getDiscount(t, id); d["combinable"] != true || d["priority"] != json.Number("-7") {
		t.Fatalf("after PUT %v %v", d["combinable"], d["priority"])
	}
	for body, fields := range map[string][]string{
		`{"priority":1001}`:                   {"priority"},
		`{"priority":-1001}`:                  {"priority"},
		`{"combinable":null,"priority":null}`: {"combinable", "priority"},
		`{"priority":1.5}`:                    {"priority"},
	} {
		p := wantProblem(t, e.do(t, "PUT", "/api/discounts/"+id, body, e.adminToken), http.StatusUnprocessableEntity, store.EValidation)
		var got []string
		for _, f := range p["errors"].([]any) {
			got = append(got, f.(map[string]any)["field"].(string))
		}
		if !slices.Equal(got, fields) {
			t.Errorf("%s: fields %v, want %v", body, got, fields)
		}
	}
	d = e.createDiscount(t, `{"name":"B","discount_type":"fixed","value":1,"combinable":true,"priority":1000}`)
	if d["combinable"] != true || d["priority"] != json.Number("1000") {
		t.Fatalf("created %v %v", d["combinable"], d["priority"])
	}
}
