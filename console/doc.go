// Package console holds the admin console's files: plain HTML, CSS and
// JavaScript modules, embedded in the binary (Files) and handed by main
// to the server (server.Config.Console), which serves them at /.
// docs/CONSOLE.md is the owner's account; the choices are these.
//
// Plain files, no build step: `go run . serve` works with no npm, no
// network and nothing fetched at run time. No library is vendored: the
// screens are forms, tables and one week grid, and a reactive library
// would save little code while adding a build or a blob to audit.
//
// The modules under assets/js:
//
//   - main.js routes (history API), draws the layout and keeps the
//     session; it is the one place an ended session is handled: a 401
//     (token expired or revoked) closes dialogs over the page and shows
//     the login with a message, and after the login the same page comes
//     back.
//   - api.js is the only way to the appliance (the documented /api
//     routes). The token lives in sessionStorage. A request that meets an
//     ended session calls main.js's handler and never settles, so no page
//     tells a 401 from its other errors.
//   - ui.js builds DOM from text (never HTML), shows errors beside their
//     fields, keeps form drafts in sessionStorage while they are typed (an
//     expiry mid-edit loses nothing; a saved form drops its draft) and
//     saves downloads (fetched with the token, saved through a temporary
//     <a download>).
//   - i18n.js translates (German and English); each module adds its own
//     strings (addStrings) beside its code. errors.js words the API's
//     problem and field codes, labour.js the labour-law warnings,
//     tse_words.js the TSE's states and the simulator banner; format.js
//     formats in the restaurant's timezone.
//   - pages/*.js are one screen each; a screen with several parts imports
//     them: time_form.js, time_history.js and time_month.js for the time
//     entries; fiscal_archive.js (TSE archive and exports of dates),
//     fiscal_closings.js (daily closings), fiscal_dsfinvk.js (DSFinV-K
//     export) and fiscal_registration.js (§146a registration, master data,
//     printable report) for the fiscal records, the closings' list with
//     its Z-reports in closings_list.js and the DATEV download in
//     datev_download.js (the cash page shows both too); cash.js is the
//     cash page (cash_registers.js, cash_booking.js, cash_count.js,
//     cash_movements.js, cash_reverse.js, cash_counts.js, cash_links.js,
//     the words in cash_words.js); procedure_document.js is
//     the Verfahrensdokumentation (owner's sections, print, versions);
//     dashboard_replica.js (the
//     copy off the box: off, where to, last copy, backlog, errors in plain
//     words) for the dashboard.
//
// Served beside the API, not in it: the route table stays the API's, and
// any GET outside /api that matches no route answers a file or index.html,
// so the console's own paths survive a reload. Every answer carries a CSP
// that allows only the console's own scripts, styles and API (no inline
// script or style, no eval, no frames), X-Frame-Options DENY and
// Referrer-Policy no-referrer; files carry an ETag with no-cache, so a new
// binary's files never mix with an old tab's.
//
// Text only: ui.h() puts every value in as a text node and no page uses
// innerHTML, so nothing an API returns can run as script. A client of the
// public API only: e2e_helpers_test.go records every request a page makes
// and fails a test for a route that is not in the route table or not in
// docs/API.md.
//
// Session: the token lives in sessionStorage (it ends with the tab); a
// 401 is handled in main.js alone (pages never see it): it sends the user
// to the login and back to the page they were on, and forms keep their
// input as drafts, so an expiry loses no edit. Staff are
// told to use the till. Language: German or English from the browser,
// switchable, each page adding its strings; dates and times in the
// restaurant's timezone with Intl (de-DE, en-GB, 24-hour), money in euros
// with two decimals. Downloads are fetched with the token and saved
// through a Blob; the §146a report and the Z-reports open in a window the
// click opens, at a blob: URL of the fetched page, so it keeps the
// console's CSP and its print.css (a Z-report for an 80 mm printer:
// receipt.css). One layout from 375 px up; real buttons, links and labelled
// inputs, visible focus, errors tied to their fields, 4.5:1 contrast.
//
// Tests in a real browser: the *_test.go files start the appliance as
// serve builds it (SQLite file, the simulator behind the real queue, the
// dispatcher, HTTP on loopback) and drive Debian's Chromium through
// chromedp. A script error or CSP violation fails the test; every
// screenshot (375 and 1280 px, into test-artifacts/console/ or
// POSBOX_ARTIFACTS) first checks that nothing is wider than the window.
// Without a Chromium the tests skip, except with CI=true.
// TestConsoleTranslationKeysMatch loads every module and fails when the
// German and English keys differ.
package console
