// Package server is posbox's HTTP API: it decodes, calls, renders. Routes,
// authentication, decoding and validation of request bodies, the JSON
// views, the console's files and the OpenAPI document live here; domain
// work does not. It reads and writes through store, takes the sale's
// rules from fiscal, and reaches the workers main builds through the
// interfaces in Config: TSE (fiscal/queue), Archive (fiscal/archive),
// DSFinVK (fiscal/dsfinvk), Replica (replica) and Notifier (notify), so its tests run with
// fakes and it imports none of them.
//
// The contract (docs/API.md, docs/DESIGN.md "HTTP conventions"):
//
//   - routes.go is the one route table. route() records every line and
//     applies the body rules (JSON only, 1 MiB) to every route, so a
//     route that reads no body cannot accept what another would refuse;
//     contract_test.go walks the record (access, 401/403, 404 for foreign
//     ids, 405 + Allow, 415/413/400, 204 on DELETE, formats, field order)
//     and openapi_test.go keeps openapi.json (served as is) equal to it.
//   - errors.go: writeError is the one error writer. Every error,
//     health's 503 included, is RFC 9457 problem+json with a stable code;
//     store's domain errors map to statuses here and nowhere else.
//   - Responses are structs, never maps (encoding/json sorts map keys):
//     the contract's fields first, in its order, then the appliance's
//     extras. JSON is written without HTML escaping (json.go).
//   - decode.go reads bodies strictly; money.go reads amounts from the
//     JSON literal (never float64, two decimals at most) and writes them
//     from cents; instants are UTC with milliseconds.
//
// Shared files: server.go (Config, New, the request log), auth.go and
// ratelimit.go (login, tokens, the limits of docs/DESIGN.md "Users"),
// password.go (a user's own password), health.go, csv_excel.go (the CSV
// files a German Excel opens: BOM, semicolons, CRLF), tls.go (plain
// requests from other hosts: a console page is redirected to https, an
// API call gets 403 https_required and is not acted on), console.go (the
// console's files beside the API: any GET outside /api that matches no
// route answers a file under assets/ or index.html; a strict CSP,
// X-Frame-Options, ETags with no-cache), openapi.go.
//
// One file per area: restaurant, user, user_erase (the GDPR erasure),
// auditor (the tax office's read-only access: its error codes, the log
// of its every request written before the answer, GET /api/audit-log),
// shift, shift_mine, shift_week
// (publishing and copying a week), time_entry, time_entry_correction,
// time_entry_report (the MiLoG record), time_entry_export and
// time_entry_payroll (the CSV files), labour_warning, dashboard; discount,
// discount_schedule (the schedule member), discount_redeem, discount_evaluate and
// discount_evaluate_json (pricing a basket), idempotency; replica (GET /api/replica and the Replica
// interface); tse.go (the TSE handlers and the TSE
// interface), tse_view.go, tse_sale_view.go (what a sale contained),
// tse_archive.go and tse_archive_view.go, tse_closing.go, tse_closing_report.go
// (the Z-report's page, from templates/tse_closing_report.html, at A4 or
// 80 mm; fiscal.GatherZReport gathers it); fiscal_export.go
// (the DSFinV-K route and the DSFinVK interface), fiscal_master.go,
// fiscal_registration.go (the §146a (4) AO report and, from
// templates/fiscal_registration.html, its page: HTML without script or
// style, under the console's CSP); notification, event, settings (the
// email and SMS settings saved from the console).
package server
