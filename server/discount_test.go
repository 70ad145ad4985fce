package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"posbox/store"
)

const (
	catID  = "019a0000-0000-7000-8000-000000000001"
	itemID = "019a0000-0000-7000-8000-000000000002"
)

func TestDiscountCreateDefaults(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	rec := e.do(t, "POST", "/api/discounts", `{"name":"  Happy Hour ","discount_type":"percentage","value":12.5}`, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	var wrapper map[string]json.RawMessage
	decodeInto(t, rec.Body.Bytes(), &wrapper)
	wantKeys := []string{"id", "name", "description", "discount_type", "value", "min_order_amount", "max_discount_amount",
		"applicable_to", "category_id", "item_id", "valid_from", "valid_until", "usage_limit", "usage_count",
		"is_active", "requires_code", "created_at", "updated_at", "schedule", "combinable", "priority", "category_name", "item_name", "approval"}
	if got := jsonKeys(t, wrapper["discount"]); !slices.Equal(got, wantKeys) {
		t.Fatalf("field order\n got %v\nwant %v", got, wantKeys)
	}
	d := discountOf(t, rec)
	want := map[string]any{
		"name": "Happy Hour", "description": nil, "discount_type": "percentage", "value": json.Number("12.5"),
		"min_order_amount": nil, "max_discount_amount": nil, "applicable_to": "order", "category_id": nil, "item_id": nil,
		"valid_from": "2026-11-22T09:00:00.000Z", "valid_until": nil, "usage_limit": nil, "usage_count": json.Number("0"),
		"is_active": true, "created_at": "2026-11-22T09:00:00.000Z", "updated_at": "2026-11-22T09:00:00.000Z",
	}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("%s = %#v, want %#v", k, d[k], v)
		}
	}
	if !store.ValidID(d["id"].(string)) {
		t.Errorf("id %v is not a UUID", d["id"])
	}
	if got := e.listDiscounts(t); len(got) != 1 || got[0].(map[string]any)["id"] != d["id"] {
		t.Fatalf("list %v", got)
	}
}

func TestDiscountCreateEveryField(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	d := e.createDiscount(t, `{"name":"Pasta week","description":"all pasta dishes","discount_type":"fixed","value":4.99,
		"min_order_amount":20,"max_discount_amount":4.5,"applicable_to":"category","category_id":"`+catID+`",
		"valid_from":"2026-12-01T00:00:00+01:00","valid_until":"2026-12-08T00:00:00.123456+01:00",
		"usage_limit":100,"is_active":false}`)
	want := map[string]any{
		"name": "Pasta week", "description": "all pasta dishes", "discount_type": "fixed", "value": json.Number("4.99"),
		"min_order_amount": json.Number("20"), "max_discount_amount": json.Number("4.5"), "applicable_to": "category",
		"category_id": catID, "item_id": nil, "valid_from": "2026-11-30T23:00:00.000Z", "valid_until": "2026-12-07T23:00:00.123Z",
		"usage_limit": json.Number("100"), "usage_count": json.Number("0"), "is_active": false,
	}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("%s = %#v, want %#v", k, d[k], v)
		}
	}
	// What the list shows is what was stored.
	got := e.getDiscount(t, d["id"].(string))
	for k := range want {
		if got[k] != d[k] {
			t.Errorf("list %s = %#v, create said %#v", k, got[k], d[k])
		}
	}
	item := e.createDiscount(t, map[string]any{"name": "Free dessert", "discount_type": "percentage", "value": 100,
		"applicable_to": "item", "item_id": itemID})
	if item["item_id"] != itemID || item["category_id"] != nil || item["value"] != json.Number("100") {
		t.Fatalf("item discount %v", item)
	}
}

func TestDiscountTimezonesNormalisedToUTC(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for _, tc := range []struct{ in, want string }{
		{"2026-12-01T10:00:00+01:00", "2026-12-01T09:00:00.000Z"},
		{"2026-12-01T10:00:00-05:30", "2026-12-01T15:30:00.000Z"},
		{"2026-12-01T10:00:00Z", "2026-12-01T10:00:00.000Z"},
		{"2026-12-01T01:30:00+14:00", "2026-11-30T11:30:00.000Z"},
		{"2026-12-01T10:00:00.987654321+02:00", "2026-12-01T08:00:00.987Z"},
		{"2026-07-01T12:00:00+02:00", "2026-07-01T10:00:00.000Z"}, // CEST
	} {
		t.Run(tc.in, func(t *testing.T) {
			d := e.createDiscount(t, map[string]any{"name": "tz", "discount_type": "fixed", "value": 1,
				"valid_from": tc.in, "valid_until": "2030-01-01T00:00:00+09:00"})
			if d["valid_from"] != tc.want || d["valid_until"] != "2029-12-31T15:00:00.000Z" {
				t.Fatalf("valid_from %v valid_until %v, want %s", d["valid_from"], d["valid_until"], tc.want)
			}
			// PUT normalises the same way: the same instant spelled with
			// the same offset is not "after" valid_from ...
			id := d["id"].(string)
			wantFieldError(t, e.do(t, "PUT", "/api/discounts/"+id, map[string]any{"valid_until": tc.in}, e.adminToken), "valid_until")
			// ... and is stored in UTC when it is valid_until.
			rec := e.do(t, "PUT", "/api/discounts/"+id, map[string]any{"valid_from": "2020-01-01T00:00:00Z", "valid_until": tc.in}, e.adminToken)
			wantStatus(t, rec, http.StatusOK)
			if got := discountOf(t, rec)["valid_until"]; got != tc.want {
				t.Fatalf("PUT valid_until %v, want %s", got, tc.want)
			}
		})
	}
}

// TestDiscountValidation sends one bad body per rule: each is a 422 naming
// the field, and nothing is stored.
func TestDiscountValidation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	ok := `"name":"X","discount_type":"percentage","value":10`
	for _, tc := range []struct {
		name, body, field string
	}{
		{"NameMissing", `{"discount_type":"fixed","value":1}`, "name"},
		{"TypeMissing", `{"name":"X","value":1}`, "discount_type"},
		{"ValueMissing", `{"name":"X","discount_type":"fixed"}`, "value"},
		{"NameEmpty", `{"name":"","discount_type":"fixed","value":1}`, "name"},
		{"NameBlank", `{"name":"   ","discount_type":"fixed","value":1}`, "name"},
		{"NameTooLong", `{"name":"` + strings.Repeat("é", 201) + `","discount_type":"fixed","value":1}`, "name"},
		{"NameNull", `{"name":null,"discount_type":"fixed","value":1}`, "name"},
		{"NameNotString", `{"name":5,"discount_type":"fixed","value":1}`, "name"},
		{"DescriptionTooLong", `{` + ok + `,"description":"` + strings.Repeat("x", 2001) + `"}`, "description"},
		{"TypeUnknown", `{"name":"X","discount_type":"bogo","value":1}`, "discount_type"},
		{"TypeNull", `{"name":"X","discount_type":null,"value":1}`, "discount_type"},
		{"ValueZero", `{"name":"X","discount_type":"fixed","value":0}`, "value"},
		{"ValueNegative", `{"name":"X","discount_type":"fixed","value":-5}`, "value"},
		{"PercentNegative", `{"name":"X","discount_type":"percentage","value":-0.01}`, "value"},
		{"PercentOver100", `{"name":"X","discount_type":"percentage","value":100.01}`, "value"},
		{"Percent150", `{"name":"X","discount_type":"percentage","value":150}`, "value"},
		{"ValueThreeDecimals", `{"name":"X","discount_type":"fixed","value":1.005}`, "value"},
		{"ValueExponent", `{"name":"X","discount_type":"fixed","value":1e2}`, "value"},
		{"ValueString", `{"name":"X","discount_type":"fixed","value":"10"}`, "value"},
		{"ValueNull", `{"name":"X","discount_type":"fixed","value":null}`, "value"},
		{"ValueHuge", `{"name":"X","discount_type":"fixed","value":99999999999999}`, "value"},
		{"MinOrderNegative", `{` + ok + `,"min_order_amount":-0.01}`, "min_order_amount"},
		{"MinOrderThreeDecimals", `{` + ok + `,"min_order_amount":10.001}`, "min_order_amount"},
		{"MaxDiscountNegative", `{` + ok + `,"max_discount_amount":-1}`, "max_discount_amount"},
		{"MaxDiscountThreeDecimals", `{` + ok + `,"max_discount_amount":0.125}`, "max_discount_amount"},
		{"ScopeUnknown", `{` + ok + `,"applicable_to":"table"}`, "applicable_to"},
		{"ScopeNull", `{` + ok + `,"applicable_to":null}`, "applicable_to"},
		{"CategoryScopeWithoutID", `{` + ok + `,"applicable_to":"category"}`, "category_id"},
		{"CategoryScopeNullID", `{` + ok + `,"applicable_to":"category","category_id":null}`, "category_id"},
		{"CategoryIDOnOrderScope", `{` + ok + `,"category_id":"` + catID + `"}`, "category_id"},
		{"CategoryIDOnItemScope", `{` + ok + `,"applicable_to":"item","item_id":"` + itemID + `","category_id":"` + catID + `"}`, "category_id"},
		{"CategoryIDNotUUID", `{` + ok + `,"applicable_to":"category","category_id":"pasta"}`, "category_id"},
		{"CategoryIDUpperCase", `{` + ok + `,"applicable_to":"category","category_id":"` + strings.ToUpper(catID) + `"}`, "category_id"},
		{"ItemScopeWithoutID", `{` + ok + `,"applicable_to":"item"}`, "item_id"},
		{"ItemIDOnOrderScope", `{` + ok + `,"item_id":"` + itemID + `"}`, "item_id"},
		{"ItemIDOnCategoryScope", `{` + ok + `,"applicable_to":"category","category_id":"` + catID + `","item_id":"` + itemID + `"}`, "item_id"},
		{"ItemIDNotUUID", `{` + ok + `,"applicable_to":"item","item_id":"42"}`, "item_id"},
		{"ValidFromNoOffset", `{` + ok + `,"valid_from":"2026-12-01T10:00:00"}`, "valid_from"},
		{"ValidFromDateOnly", `{` + ok + `,"valid_from":"2026-12-01"}`, "valid_from"},
		{"ValidFromNull", `{` + ok + `,"valid_from":null}`, "valid_from"},
		{"ValidFromYearZeroUTC", `{` + ok + `,"valid_from":"0001-01-01T00:30:00+01:00"}`, "valid_from"},
		{"ValidUntilNoOffset", `{` + ok + `,"valid_until":"2026-12-01T10:00:00"}`, "valid_until"},
		{"ValidUntilBeforeFrom", `{` + ok + `,"valid_from":"2026-12-01T10:00:00Z","valid_until":"2026-12-01T09:59:59.999Z"}`, "valid_until"},
		{"ValidUntilEqualsFrom", `{` + ok + `,"valid_from":"2026-12-01T10:00:00Z","valid_until":"2026-12-01T11:00:00+01:00"}`, "valid_until"},
		{"ValidUntilBeforeDefaultNow", `{` + ok + `,"valid_until":"2026-11-22T08:59:59Z"}`, "valid_until"},
		{"UsageLimitZero", `{` + ok + `,"usage_limit":0}`, "usage_limit"},
		{"UsageLimitNegative", `{` + ok + `,"usage_limit":-3}`, "usage_limit"},
		{"UsageLimitFraction", `{` + ok + `,"usage_limit":1.5}`, "usage_limit"},
		{"IsActiveNull", `{` + ok + `,"is_active":null}`, "is_active"},
		{"IsActiveString", `{` + ok + `,"is_active":"yes"}`, "is_active"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantFieldError(t, e.do(t, "POST", "/api/discounts", tc.body, e.adminToken), tc.field)
		})
	}
	if n := len(e.listDiscounts(t)); n != 0 {
		t.Fatalf("%d discounts stored by refused requests", n)
	}
	t.Run("AllErrorsAtOnce", func(t *testing.T) {
		rec := e.do(t, "POST", "/api/discounts", `{"name":"","discount_type":"percentage","value":101,"usage_limit":0,"applicable_to":"item"}`, e.adminToken)
		for _, f := range []string{"name", "value", "usage_limit", "item_id"} {
			wantFieldError(t, rec, f)
		}
	})
	t.Run("BodyErrors", func(t *testing.T) {
		wantProblem(t, e.do(t, "POST", "/api/discounts", `{`+ok+`,"usage_count":5}`, e.adminToken), http.StatusBadRequest, eUnknownField)
		wantProblem(t, e.do(t, "POST", "/api/discounts", `{`+ok, e.adminToken), http.StatusBadRequest, eMalformedJSON)
		wantProblem(t, e.do(t, "POST", "/api/discounts", `{`+ok+`}`, e.adminToken, "Content-Type", "text/plain"), http.StatusUnsupportedMediaType, eUnsupportedMedia)
	})
}

// TestDiscountBoundaries are the edges each rule still accepts.
func TestDiscountBoundaries(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for _, tc := range []struct {
		name, body string
		field      string
		want       any
	}{
		{"Percent100", `{"name":"X","discount_type":"percentage","value":100}`, "value", json.Number("100")},
		{"PercentHundredth", `{"name":"X","discount_type":"percentage","value":0.01}`, "value", json.Number("0.01")},
		// The contract allows 0-100 % (issue 12: 0 used to be refused).
		{"PercentZero", `{"name":"X","discount_type":"percentage","value":0}`, "value", json.Number("0")},
		{"TrailingZeroDecimals", `{"name":"X","discount_type":"fixed","value":2.500}`, "value", json.Number("2.5")},
		{"FixedOver100", `{"name":"X","discount_type":"fixed","value":150}`, "value", json.Number("150")},
		{"FixedCent", `{"name":"X","discount_type":"fixed","value":0.01}`, "value", json.Number("0.01")},
		{"Name200", `{"name":"` + strings.Repeat("é", 200) + `","discount_type":"fixed","value":1}`, "name", strings.Repeat("é", 200)},
		{"Name1", `{"name":"X","discount_type":"fixed","value":1}`, "name", "X"},
		{"MinOrderZero", `{"name":"X","discount_type":"fixed","value":1,"min_order_amount":0}`, "min_order_amount", json.Number("0")},
		{"MaxDiscountZero", `{"name":"X","discount_type":"fixed","value":1,"max_discount_amount":0}`, "max_discount_amount", json.Number("0")},
		{"MinOrderNull", `{"name":"X","discount_type":"fixed","value":1,"min_order_amount":null}`, "min_order_amount", nil},
		{"UsageLimitOne", `{"name":"X","discount_type":"fixed","value":1,"usage_limit":1}`, "usage_limit", json.Number("1")},
		{"UsageLimitNull", `{"name":"X","discount_type":"fixed","value":1,"usage_limit":null}`, "usage_limit", nil},
		{"ValidUntilOneMsAfter", `{"name":"X","discount_type":"fixed","value":1,"valid_until":"2026-11-22T09:00:00.001Z"}`, "valid_until", "2026-11-22T09:00:00.001Z"},
		{"ValidFromInPast", `{"name":"X","discount_type":"fixed","value":1,"valid_from":"2020-01-01T00:00:00+01:00"}`, "valid_from", "2019-12-31T23:00:00.000Z"},
		{"DescriptionEmpty", `{"name":"X","discount_type":"fixed","value":1,"description":""}`, "description", ""},
		{"Description2000", `{"name":"X","discount_type":"fixed","value":1,"description":"` + strings.Repeat("ü", 2000) + `"}`, "description", strings.Repeat("ü", 2000)},
		{"LargestMoney", `{"name":"X","discount_type":"fixed","value":9999999999999.99}`, "value", json.Number("9999999999999.99")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := e.createDiscount(t, tc.body); d[tc.field] != tc.want {
				t.Fatalf("%s = %#v, want %#v", tc.field, d[tc.field], tc.want)
			}
		})
	}
}

func TestDiscountUpdate(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	d := e.createDiscount(t, `{"name":"Lunch","description":"weekday lunch","discount_type":"percentage","value":10,
		"min_order_amount":15,"max_discount_amount":5,"valid_until":"2026-12-31T23:00:00Z","usage_limit":50}`)
	id := d["id"].(string)
	put := func(t *testing.T, body string) map[string]any {
		t.Helper()
		e.clock.Add(time.Minute)
		rec := e.do(t, "PUT", "/api/discounts/"+id, body, e.adminToken)
		wantStatus(t, rec, http.StatusOK)
		got := discountOf(t, rec)
		if stored := e.getDiscount(t, id); stored["updated_at"] != got["updated_at"] || stored["value"] != got["value"] {
			t.Fatalf("PUT answered %v but stored %v", got, stored)
		}
		return got
	}
	// refused checks a 422 naming field and that nothing changed.
	refused := func(t *testing.T, body, field string) {
		t.Helper()
		before := e.getDiscount(t, id)
		wantFieldError(t, e.do(t, "PUT", "/api/discounts/"+id, body, e.adminToken), field)
		if after := e.getDiscount(t, id); !mapsEqual(before, after) {
			t.Fatalf("refused PUT changed the discount\nbefore %v\n after %v", before, after)
		}
	}

	t.Run("AbsentFieldsUnchanged", func(t *testing.T) {
		before := e.getDiscount(t, id)
		got := put(t, `{"name":"Lunch deal"}`)
		for k, v := range before {
			switch k {
			case "name":
				if got[k] != "Lunch deal" {
					t.Errorf("name %v", got[k])
				}
			case "updated_at":
				if got[k] == v {
					t.Errorf("updated_at did not move")
				}
			default:
				if got[k] != v {
					t.Errorf("%s changed from %v to %v", k, v, got[k])
				}
			}
		}
	})
	t.Run("EmptyBodyChangesNothing", func(t *testing.T) {
		before := e.getDiscount(t, id)
		got := put(t, `{}`)
		if got["value"] != before["value"] || got["valid_until"] != before["valid_until"] {
			t.Fatalf("empty PUT changed %v into %v", before, got)
		}
	})
	t.Run("NullClearsNullableFields", func(t *testing.T) {
		got := put(t, `{"valid_until":null,"usage_limit":null,"description":null,"min_order_amount":null,"max_discount_amount":null}`)
		for _, k := range []string{"valid_until", "usage_limit", "description", "min_order_amount", "max_discount_amount"} {
			if got[k] != nil {
				t.Errorf("%s = %v after null", k, got[k])
			}
		}
		got = put(t, `{"valid_until":"2027-01-01T00:00:00+01:00","usage_limit":5,"max_discount_amount":7.5}`)
		if got["valid_until"] != "2026-12-31T23:00:00.000Z" || got["usage_limit"] != json.Number("5") || got["max_discount_amount"] != json.Number("7.5") {
			t.Fatalf("set again: %v", got)
		}
	})
	t.Run("Deactivate", func(t *testing.T) {
		if got := put(t, `{"is_active":false}`); got["is_active"] != false {
			t.Fatalf("is_active %v", got["is_active"])
		}
		if got := put(t, `{"is_active":true}`); got["is_active"] != true {
			t.Fatalf("is_active %v", got["is_active"])
		}
	})
	t.Run("MergedResultValidated", func(t *testing.T) {
		refused(t, `{"value":150}`, "value")
		refused(t, `{"value":-1}`, "value")
		refused(t, `{"value":12.345}`, "value")
		refused(t, `{"value":null}`, "value")
		refused(t, `{"name":null}`, "name")
		refused(t, `{"name":""}`, "name")
		refused(t, `{"discount_type":null}`, "discount_type")
		refused(t, `{"applicable_to":null}`, "applicable_to")
		refused(t, `{"is_active":null}`, "is_active")
		refused(t, `{"valid_from":null}`, "valid_from")
		refused(t, `{"valid_from":"2027-01-01T00:00:00Z"}`, "valid_until")  // after the existing valid_until
		refused(t, `{"valid_until":"2026-11-01T00:00:00Z"}`, "valid_until") // before the existing valid_from
		refused(t, `{"valid_until":"2026-12-01T10:00:00"}`, "valid_until")
		refused(t, `{"applicable_to":"category"}`, "category_id")
		refused(t, `{"applicable_to":"item"}`, "item_id")
		refused(t, `{"category_id":"`+catID+`"}`, "category_id")
		refused(t, `{"usage_limit":0}`, "usage_limit")
		refused(t, `{"min_order_amount":-1}`, "min_order_amount")
	})
	t.Run("TypeSwitch", func(t *testing.T) {
		// 150 is no percentage, but a fine fixed amount: the merge decides.
		got := put(t, `{"discount_type":"fixed","value":150}`)
		if got["discount_type"] != "fixed" || got["value"] != json.Number("150") {
			t.Fatalf("switch to fixed: %v", got)
		}
		refused(t, `{"discount_type":"percentage"}`, "value")
		got = put(t, `{"discount_type":"percentage","value":15}`)
		if got["discount_type"] != "percentage" || got["value"] != json.Number("15") {
			t.Fatalf("switch back: %v", got)
		}
	})
	t.Run("ScopeChange", func(t *testing.T) {
		got := put(t, `{"applicable_to":"category","category_id":"`+catID+`"}`)
		if got["applicable_to"] != "category" || got["category_id"] != catID {
			t.Fatalf("to category: %v", got)
		}
		refused(t, `{"category_id":null}`, "category_id")
		refused(t, `{"applicable_to":"order"}`, "category_id") // the id must be cleared too
		refused(t, `{"applicable_to":"item","item_id":"`+itemID+`"}`, "category_id")
		got = put(t, `{"applicable_to":"item","item_id":"`+itemID+`","category_id":null}`)
		if got["applicable_to"] != "item" || got["item_id"] != itemID || got["category_id"] != nil {
			t.Fatalf("to item: %v", got)
		}
		got = put(t, `{"applicable_to":"order","item_id":null}`)
		if got["applicable_to"] != "order" || got["item_id"] != nil || got["category_id"] != nil {
			t.Fatalf("to order: %v", got)
		}
	})
	t.Run("UsageLimitNotBelowCount", func(t *testing.T) {
		put(t, `{"usage_limit":null,"valid_from":"2026-11-01T00:00:00Z","min_order_amount":null}`)
		for range 3 {
			wantStatus(t, e.redeem(t, id, map[string]any{"order_total": 10}, e.adminToken), http.StatusOK)
		}
		refused(t, `{"usage_limit":2}`, "usage_limit")
		if got := put(t, `{"usage_limit":3}`); got["usage_limit"] != json.Number("3") || got["usage_count"] != json.Number("3") {
			t.Fatalf("limit at count: %v", got)
		}
	})
	t.Run("BodyErrors", func(t *testing.T) {
		wantProblem(t, e.do(t, "PUT", "/api/discounts/"+id, `{"usage_count":0}`, e.adminToken), http.StatusBadRequest, eUnknownField)
		wantProblem(t, e.do(t, "PUT", "/api/discounts/"+id, `[]`, e.adminToken), http.StatusBadRequest, eMalformedJSON)
		wantProblem(t, e.do(t, "PUT", "/api/discounts/"+id, ``, e.adminToken), http.StatusBadRequest, eMalformedJSON)
	})
	t.Run("UnknownIDs", func(t *testing.T) {
		wantProblem(t, e.do(t, "PUT", "/api/discounts/"+store.NewID(), `{"name":"x"}`, e.adminToken), http.StatusNotFound, store.ENotFound)
		wantProblem(t, e.do(t, "PUT", "/api/discounts/lunch", `{"name":"x"}`, e.adminToken), http.StatusNotFound, store.ENotFound)
	})
}

func mapsEqual(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestDiscountListAndDelete(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	old := e.createDiscount(t, `{"name":"Old","discount_type":"fixed","value":1,"is_active":false}`)
	e.clock.Add(time.Second)
	gone := e.createDiscount(t, `{"name":"Gone","discount_type":"fixed","value":2}`)
	e.clock.Add(time.Second)
	e.createDiscount(t, `{"name":"New","discount_type":"fixed","value":3,"valid_until":"2026-11-22T09:00:03Z"}`)

	var names []string
	for _, d := range e.listDiscounts(t) {
		names = append(names, d.(map[string]any)["name"].(string))
	}
	if !slices.Equal(names, []string{"New", "Gone", "Old"}) {
		t.Fatalf("list %v, want newest first with the inactive one", names)
	}
	e.clock.Add(time.Hour) // "New" expires: still listed
	if n := len(e.listDiscounts(t)); n != 3 {
		t.Fatalf("%d listed after expiry", n)
	}

	// A redemption outlives the discount it used.
	gid := gone["id"].(string)
	wantStatus(t, e.redeem(t, gid, map[string]any{"order_total": 10}, e.adminToken), http.StatusOK)
	rec := e.do(t, "DELETE", "/api/discounts/"+gid, nil, e.adminToken)
	wantStatus(t, rec, http.StatusNoContent)
	if rec.Body.Len() != 0 {
		t.Fatalf("204 with body %q", rec.Body.String())
	}
	if e.getDiscount(t, gid) != nil {
		t.Fatal("deleted discount still listed")
	}
	var name string
	var amount int64
	if err := e.st.ReadDB().QueryRowContext(context.Background(),
		`SELECT discount_name, amount_cents FROM discount_redemptions WHERE discount_id = ?`, gid).Scan(&name, &amount); err != nil {
		t.Fatalf("redemption of deleted discount: %v", err)
	}
	if name != "Gone" || amount != 200 {
		t.Fatalf("kept redemption %q %d", name, amount)
	}
	wantProblem(t, e.do(t, "DELETE", "/api/discounts/"+gid, nil, e.adminToken), http.StatusNotFound, store.ENotFound)
	wantProblem(t, e.redeem(t, gid, map[string]any{"order_total": 10}, e.adminToken), http.StatusNotFound, store.ENotFound)
	wantProblem(t, e.do(t, "DELETE", "/api/discounts/not-a-uuid", nil, e.adminToken), http.StatusNotFound, store.ENotFound)
	_ = old
}

// TestDiscountTenancyAndRoles: another restaurant's discount is a 404 on
// every route; staff get 403 on the admin routes but may redeem.
func TestDiscountTenancyAndRoles(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	mine := e.createDiscount(t, `{"name":"Mine","discount_type":"fixed","value":1}`)["id"].(string)

	other := &store.Restaurant{Name: "Other", Timezone: "Europe/Vienna"}
	if err := e.st.CreateRestaurant(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	_, otherAdmin := e.addUser(t, other.ID, "boss@other.local", "Other Boss", store.RoleAdmin)
	_, otherStaff := e.addUser(t, other.ID, "till@other.local", "Other Till", store.RoleStaff)
	rec := e.do(t, "POST", "/api/discounts", `{"name":"Theirs","discount_type":"fixed","value":1}`, otherAdmin)
	wantStatus(t, rec, http.StatusCreated)
	theirs := discountOf(t, rec)["id"].(string)

	t.Run("ForeignIs404", func(t *testing.T) {
		wantProblem(t, e.do(t, "PUT", "/api/discounts/"+theirs, `{"name":"mine now"}`, e.adminToken), http.StatusNotFound, store.ENotFound)
		wantProblem(t, e.do(t, "DELETE", "/api/discounts/"+theirs, nil, e.adminToken), http.StatusNotFound, store.ENotFound)
		wantProblem(t, e.redeem(t, theirs, map[string]any{"order_total": 5}, e.adminToken), http.StatusNotFound, store.ENotFound)
		wantProblem(t, e.redeem(t, mine, map[string]any{"order_total": 5}, otherStaff), http.StatusNotFound, store.ENotFound)
		if l := e.listDiscounts(t); len(l) != 1 || l[0].(map[string]any)["id"] != mine {
			t.Fatalf("list shows another restaurant's discount: %v", l)
		}
		if n := e.countRows(t, `SELECT count(*) FROM discounts WHERE id = ? AND name = 'Theirs' AND usage_count = 0`, theirs); n != 1 {
			t.Fatal("the foreign discount changed")
		}
	})
	t.Run("StaffForbiddenOnAdminRoutes", func(t *testing.T) {
		_, staff := e.staff(t, "Sam Staff")
		wantProblem(t, e.do(t, "GET", "/api/discounts", nil, staff), http.StatusForbidden, eForbidden)
		wantProblem(t, e.do(t, "POST", "/api/discounts", `{"name":"S","discount_type":"fixed","value":1}`, staff), http.StatusForbidden, eForbidden)
		wantProblem(t, e.do(t, "PUT", "/api/discounts/"+mine, `{"is_active":false}`, staff), http.StatusForbidden, eForbidden)
		wantProblem(t, e.do(t, "DELETE", "/api/discounts/"+mine, nil, staff), http.StatusForbidden, eForbidden)
		if d := e.getDiscount(t, mine); d["is_active"] != true || len(e.listDiscounts(t)) != 1 {
			t.Fatalf("staff changed something: %v", d)
		}
		rec := e.redeem(t, mine, map[string]any{"order_total": 5}, staff)
		wantStatus(t, rec, http.StatusOK)
		if n := e.countRows(t, `SELECT count(*) FROM discount_redemptions r JOIN users u ON u.id = r.redeemed_by
			WHERE r.discount_id = ? AND u.name = 'Sam Staff'`, mine); n != 1 {
			t.Fatalf("redemption not recorded as Sam's: %d", n)
		}
	})
	t.Run("NoToken", func(t *testing.T) {
		wantProblem(t, e.do(t, "GET", "/api/discounts", nil, ""), http.StatusUnauthorized, eUnauthenticated)
		wantProblem(t, e.redeem(t, mine, map[string]any{"order_total": 5}, ""), http.StatusUnauthorized, eUnauthenticated)
	})
	t.Run("WrongMethod", func(t *testing.T) {
		rec := e.do(t, "PATCH", "/api/discounts/"+mine, `{}`, e.adminToken)
		wantProblem(t, rec, http.StatusMethodNotAllowed, eMethodNotAllowed)
		if allow := rec.Header().Get("Allow"); !strings.Contains(allow, "PUT") || !strings.Contains(allow, "DELETE") {
			t.Fatalf("Allow %q", allow)
		}
	})
}
