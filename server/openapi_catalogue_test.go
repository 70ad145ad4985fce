package server

import "posbox/store"

// The POS catalogue's part of the OpenAPI document (docs/API.md, "The
// POS catalogue"): its component schemas and its operations.

// catalogueSchemas are the catalogue's component schemas; the bounds are
// the store's.
func catalogueSchemas() jobj {
	name := sStr("1-200 characters after trimming surrounding spaces; no control characters.", "minLength", 1, "maxLength", store.MaxCatalogueNameLen)
	vat := sEnum("fiskaly's rate name, as a sale's `amounts_per_vat_rate`.", store.CatalogueVATRates...)
	return jo(
		"CatalogueCategory", sBody("A menu category of the POS.", prReq("id", sID("The POS's id, a lowercase UUID; once in the list.")), prReq("name", name)),
		"CatalogueItem", sBody("A menu item of the POS.",
			prReq("id", sID("The POS's id, a lowercase UUID; once in the list.")), prReq("name", name),
			pr("category_id", sNullable(sID("Its category; need not be in `categories`. Absent or null: none."))),
			prReq("vat_rate", vat)),
		"CataloguePut", sBody("The whole catalogue: what it does not hold is gone. The body is at most 1 MiB, which holds 5000 items "+
			"of usual length. A 422 names each invalid entry's member (`items[3].vat_rate`), at most 50 of them.",
			prReq("categories", sArray(sRef("CatalogueCategory"), "`[]` for none.", "maxItems", store.MaxCatalogueCategories)),
			prReq("items", sArray(sRef("CatalogueItem"), "`[]` for none.", "maxItems", store.MaxCatalogueItems))),
		"Catalogue", sAnswer("What the till last sent, each list by name.",
			pr("categories", sArray(sAnswer("", pr("id", sID("")), pr("name", sStr(""))), "")),
			pr("items", sArray(sAnswer("", pr("id", sID("")), pr("name", sStr("")), pr("category_id", sNullable(sID(""))), pr("vat_rate", vat)), "")),
			pr("updated_at", sNullable(sInstant("When the till last sent it; null while it never did or sent it empty.")))),
	)
}

// catalogueOps are the catalogue's operations.
func catalogueOps() []apiOp {
	return []apiOp{
		{method: "GET", path: "/api/catalogue", id: "getCatalogue", tag: "Discounts", access: adminOnly,
			summary: "The POS's categories and items, as the till last sent them",
			ok:      []apiOK{okJSON(200, "The catalogue.", sWrap("catalogue", sRef("Catalogue")))}},
		{method: "PUT", path: "/api/catalogue", id: "putCatalogue", tag: "Discounts", access: anyUser,
			summary: "Replace the POS's catalogue whole (the till, with a staff token, or an admin)",
			desc: "In one transaction: the categories and items not in the body are gone. Discounts keep their `category_id` and `item_id`; " +
				"their `category_name` and `item_name` follow the catalogue (null for an id it does not hold).",
			reqBody: "CataloguePut", ok: []apiOK{okJSON(200, "Replaced.", sWrap("catalogue", sRef("Catalogue")))},
			errs: map[int][]string{400: {eMalformedJSON, eUnknownField}, 422: {"validation_failed"}}},
	}
}
