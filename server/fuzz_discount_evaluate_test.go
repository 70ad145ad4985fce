package server

import "testing"

// The pricing route's body: a basket and a code, against discounts of
// every scope, a schedule, stacking flags and a code discount.

func FuzzEvaluateDiscounts(f *testing.F) {
	e := newTestEnv(f)
	_, tok := e.staff(f, "Sam Staff")
	for _, d := range []map[string]any{
		{"name": "Lunch", "discount_type": "percentage", "value": 10, "combinable": true, "priority": 2},
		{"name": "Drei", "discount_type": "fixed", "value": 3, "combinable": true, "max_discount_amount": 2},
		{"name": "Schnitzel", "discount_type": "percentage", "value": 100, "applicable_to": "category", "category_id": catID},
		{"name": "Cake", "discount_type": "fixed", "value": 2, "applicable_to": "item", "item_id": itemID, "min_order_amount": 5},
		{"name": "Abends", "discount_type": "percentage", "value": 50, "schedule": []any{map[string]any{"days": []int{1, 7}, "from": "22:00", "to": "02:00"}}},
	} {
		e.created(f, "/api/discounts", "discount", d)
	}
	flyer := e.created(f, "/api/discounts", "discount", map[string]any{"name": "Flyer", "discount_type": "fixed", "value": 5, "requires_code": true})
	code := e.makeCodes(f, flyer, `{"count":1}`)[0]
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/discounts/evaluate"), token: tok},
		`{`+lunch+`}`, `{`+lunch+`,"code":"`+code+`"}`, `{`+lunch+`,"code":"k7qp mx3d"}`,
		`{"lines":[{"item_id":"`+itemID+`","quantity":0.001,"unit_price":0.01,"vat_rate":"NULL"}],"code":""}`,
		`{"lines":[{"quantity":99999.999,"unit_price":999999999.99,"vat_rate":"SPECIAL_RATE_2"}]}`,
		`{"lines":[{"quantity":-1,"unit_price":1e2,"vat_rate":"normal"}]}`, `{"lines":[null,{}],"code":7}`,
		`{"lines":[{"quantity":"2","unit_price":3.9,"vat_rate":"NORMAL","item_id":""}]}`)
}
