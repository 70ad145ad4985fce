package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"posbox/fiscal"
	"posbox/store"
)

const (
	catDrinks = "019a0000-0000-7000-8000-0000000000c1"
	catPasta  = "019a0000-0000-7000-8000-0000000000c2"
	itemCola  = "019a0000-0000-7000-8000-0000000000a1"
	itemPenne = "019a0000-0000-7000-8000-0000000000a2"
)

// menu is a small catalogue: two categories, two items.
func menu() map[string]any {
	return map[string]any{
		"categories": []any{map[string]any{"id": catPasta, "name": " Pasta "}, map[string]any{"id": catDrinks, "name": "Getränke"}},
		"items": []any{
			map[string]any{"id": itemPenne, "name": "Penne Arrabbiata", "category_id": catPasta, "vat_rate": "REDUCED_1"},
			map[string]any{"id": itemCola, "name": "Cola 0,3 l", "category_id": catDrinks, "vat_rate": "NORMAL"},
		},
	}
}

// catalogueOf reads {"catalogue": {...}}.
func catalogueOf(tb testing.TB, e *testEnv) map[string]any {
	tb.Helper()
	rec := e.do(tb, "GET", "/api/catalogue", nil, e.adminToken)
	wantStatus(tb, rec, http.StatusOK)
	return decodeJSON(tb, rec)["catalogue"].(map[string]any)
}

func names(list any) []string {
	var out []string
	for _, x := range list.([]any) {
		out = append(out, x.(map[string]any)["name"].(string))
	}
	return out
}

func TestCatalogueStaffSendsItWhole(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	empty := catalogueOf(t, e)
	if len(empty["categories"].([]any)) != 0 || len(empty["items"].([]any)) != 0 || empty["updated_at"] != nil {
		t.Fatalf("a new restaurant's catalogue: %v", empty)
	}
	_, staff := e.staff(t, "Till Terminal")
	rec := e.do(t, "PUT", "/api/catalogue", menu(), staff)
	wantStatus(t, rec, http.StatusOK)
	if keys := jsonKeys(t, firstObject(t, rec.Body.Bytes(), "catalogue")); !slices.Equal(keys, []string{"categories", "items", "updated_at"}) {
		t.Fatalf("keys %v", keys)
	}
	c := catalogueOf(t, e)
	if got := names(c["categories"]); !slices.Equal(got, []string{"Getränke", "Pasta"}) {
		t.Fatalf("categories %v (by name, trimmed)", got)
	}
	if got := names(c["items"]); !slices.Equal(got, []string{"Cola 0,3 l", "Penne Arrabbiata"}) {
		t.Fatalf("items %v", got)
	}
	penne := c["items"].([]any)[1].(map[string]any)
	if penne["category_id"] != catPasta || penne["vat_rate"] != "REDUCED_1" || penne["id"] != itemPenne {
		t.Fatalf("item %v", penne)
	}
	if c["updated_at"] != "2026-11-22T09:00:00.000Z" {
		t.Fatalf("updated_at %v", c["updated_at"])
	}

	// A second sync replaces the whole: Cola and Drinks are gone.
	next := map[string]any{"categories": []any{map[string]any{"id": catPasta, "name": "Nudeln"}},
		"items": []any{map[string]any{"id": itemPenne, "name": "Penne", "category_id": nil, "vat_rate": "NORMAL"}}}
	wantStatus(t, e.do(t, "PUT", "/api/catalogue", next, e.adminToken), http.StatusOK)
	c = catalogueOf(t, e)
	if got := names(c["categories"]); !slices.Equal(got, []string{"Nudeln"}) {
		t.Fatalf("categories after the second sync %v", got)
	}
	if it := c["items"].([]any); len(it) != 1 || it[0].(map[string]any)["category_id"] != nil {
		t.Fatalf("items after the second sync %v", it)
	}
	// Empty lists empty it.
	wantStatus(t, e.do(t, "PUT", "/api/catalogue", `{"categories":[],"items":[]}`, staff), http.StatusOK)
	if n := e.countRows(t, `SELECT (SELECT count(*) FROM pos_categories) + (SELECT count(*) FROM pos_items)`); n != 0 {
		t.Fatalf("%d rows left", n)
	}
	// Staff send it but do not read it (the console does).
	wantProblem(t, e.do(t, "GET", "/api/catalogue", nil, staff), http.StatusForbidden, eForbidden)
	wantProblem(t, e.do(t, "PUT", "/api/catalogue", menu(), ""), http.StatusUnauthorized, eUnauthenticated)
}

func TestCatalogueValidationNamesTheField(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	wantStatus(t, e.do(t, "PUT", "/api/catalogue", menu(), e.adminToken), http.StatusOK)
	item := func(id, name, rate string) string {
		return fmt.Sprintf(`{"id":%q,"name":%q,"category_id":null,"vat_rate":%q}`, id, name, rate)
	}
	ok := item(itemCola, "Cola", "NORMAL")
	cases := []struct{ body, field string }{
		{`{"items":[]}`, "categories"},
		{`{"categories":[],"items":null}`, "items"},
		{`{"categories":[],"items":[` + ok + `,` + ok + `,` + ok + `,` + item(itemPenne, "Penne", "7%") + `]}`, "items[3].vat_rate"},
		{`{"categories":[],"items":[` + ok + `,` + ok + `]}`, "items[1].id"},
		{`{"categories":[],"items":[` + item(strings.ToUpper(itemPenne), "Penne", "NORMAL") + `]}`, "items[0].id"},
		{`{"categories":[],"items":[` + item(itemPenne, "", "NORMAL") + `]}`, "items[0].name"},
		{`{"categories":[],"items":[` + item(itemPenne, strings.Repeat("ä", 201), "NORMAL") + `]}`, "items[0].name"},
		{`{"categories":[],"items":[{"id":"` + itemPenne + `","name":"P","category_id":"pasta","vat_rate":"NULL"}]}`, "items[0].category_id"},
		{`{"categories":[{"id":"` + catPasta + `","name":"Two\nlines"}],"items":[]}`, "categories[0].name"},
		{`{"categories":[{"id":"42","name":"X"}],"items":[]}`, "categories[0].id"},
	}
	for _, tc := range cases {
		wantFieldError(t, e.do(t, "PUT", "/api/catalogue", tc.body, e.adminToken), tc.field)
	}
	var many []string
	for i := range store.MaxCatalogueCategories + 1 {
		many = append(many, fmt.Sprintf(`{"id":"019a0000-0000-7000-8000-%012d","name":"K"}`, i))
	}
	wantFieldError(t, e.do(t, "PUT", "/api/catalogue", `{"categories":[`+strings.Join(many, ",")+`],"items":[]}`, e.adminToken), "categories")
	// 5000 items fit in the body; one more is refused.
	var items []string
	for i := range store.MaxCatalogueItems + 1 {
		items = append(items, fmt.Sprintf(`{"id":"019a0000-0000-7000-8000-%012d","name":"I","vat_rate":"NORMAL"}`, i))
	}
	wantFieldError(t, e.do(t, "PUT", "/api/catalogue", `{"categories":[],"items":[`+strings.Join(items, ",")+`]}`, e.adminToken), "items")
	wantStatus(t, e.do(t, "PUT", "/api/catalogue", `{"categories":[],"items":[`+strings.Join(items[:store.MaxCatalogueItems], ",")+`]}`, e.adminToken), http.StatusOK)
	if n := e.countRows(t, `SELECT count(*) FROM pos_items`); n != store.MaxCatalogueItems {
		t.Fatalf("%d items stored", n)
	}
	// 5000 bad items name at most 50 errors.
	bad := strings.ReplaceAll(strings.Join(items[:store.MaxCatalogueItems], ","), "NORMAL", "X")
	p := wantProblem(t, e.do(t, "PUT", "/api/catalogue", `{"categories":[],"items":[`+bad+`]}`, e.adminToken), http.StatusUnprocessableEntity, store.EValidation)
	if n := len(p["errors"].([]any)); n != 50 {
		t.Fatalf("%d errors", n)
	}
}

// The store's rate names are the sale's.
func TestCatalogueVATRatesAreTheSales(t *testing.T) {
	if !slices.Equal(store.CatalogueVATRates, fiscal.VATRates) {
		t.Fatalf("store %v, fiscal %v", store.CatalogueVATRates, fiscal.VATRates)
	}
}

func TestDiscountShowsCatalogueNames(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	unknown := "019a0000-0000-7000-8000-0000000000ff"
	byCat := e.createDiscount(t, `{"name":"Pasta","discount_type":"fixed","value":1,"applicable_to":"category","category_id":"`+catPasta+`"}`)
	byItem := e.createDiscount(t, `{"name":"Cola","discount_type":"fixed","value":1,"applicable_to":"item","item_id":"`+itemCola+`"}`)
	if byCat["category_name"] != nil || byItem["item_name"] != nil {
		t.Fatalf("names before the catalogue: %v %v", byCat["category_name"], byItem["item_name"])
	}
	wantStatus(t, e.do(t, "PUT", "/api/catalogue", menu(), e.adminToken), http.StatusOK)
	if d := e.getDiscount(t, byCat["id"].(string)); d["category_name"] != "Pasta" || d["item_name"] != nil {
		t.Fatalf("category discount %v", d)
	}
	if d := e.getDiscount(t, byItem["id"].(string)); d["item_name"] != "Cola 0,3 l" || d["category_name"] != nil {
		t.Fatalf("item discount %v", d)
	}
	// Create and update answer with the name too; an unknown id stays
	// allowed, its name null.
	d := e.createDiscount(t, `{"name":"Getränke","discount_type":"fixed","value":1,"applicable_to":"category","category_id":"`+catDrinks+`"}`)
	if d["category_name"] != "Getränke" {
		t.Fatalf("create: %v", d)
	}
	rec := e.do(t, "PUT", "/api/discounts/"+d["id"].(string), `{"category_id":"`+unknown+`"}`, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if d := discountOf(t, rec); d["category_id"] != unknown || d["category_name"] != nil {
		t.Fatalf("unknown id: %v", d)
	}
	// Another restaurant's catalogue names nothing here.
	other := &store.Restaurant{Name: "Other", Timezone: "Europe/Berlin"}
	if err := e.st.CreateRestaurant(t.Context(), other); err != nil {
		t.Fatal(err)
	}
	_, otherAdmin := e.addUser(t, other.ID, "admin@other.local", "Olga Other", store.RoleAdmin)
	wantStatus(t, e.do(t, "PUT", "/api/catalogue", `{"categories":[{"id":"`+unknown+`","name":"Fremd"}],"items":[]}`, otherAdmin), http.StatusOK)
	if d := e.getDiscount(t, d["id"].(string)); d["category_name"] != nil {
		t.Fatalf("another restaurant's name: %v", d)
	}
}
