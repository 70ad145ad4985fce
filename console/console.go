// Package console holds the admin console's files: plain HTML, CSS and
// JavaScript modules, embedded in the binary and served by the server at
// / (docs/CONSOLE.md for the owner, docs/DESIGN.md for the choices). No
// build step and no library: the screens are forms, tables and one week
// grid.
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
//     printable report) for the fiscal records.
//
// The tests (e2e_*_test.go) start the appliance as serve builds it and
// drive Chromium through chromedp at 375 and 1280 px; a script error or a
// CSP violation fails them, and every API request a page makes must be a
// documented route. TestConsoleTranslationKeysMatch loads every module and
// fails when the German and English keys differ.
package console

import "embed"

// Files is the console: index.html and everything under assets/.
//
//go:embed index.html assets
var Files embed.FS
