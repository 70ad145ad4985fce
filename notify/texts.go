package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"posbox/store"
)

// Languages of the texts.
const (
	LangDE = "de"
	LangEN = "en"
)

// Text is the human-readable form of an event: Subject is the email
// subject, the SMS text and the log's message; Body is the email's plain
// text and HTML its HTML alternative.
type Text struct {
	Subject string
	Body    string
	HTML    string
}

// Render describes an event of type typ with data in lang (de or en);
// times are shown on the restaurant's wall clock (loc). Unknown types get
// a generic text naming the type.
func Render(lang, typ string, data json.RawMessage, loc *time.Location) Text {
	if lang != LangEN {
		lang = LangDE
	}
	if loc == nil {
		loc = time.UTC
	}
	v := view{lang: lang, loc: loc}
	_ = json.Unmarshal(data, &v.data)
	f, ok := subjects[typ]
	if !ok {
		f = genericSubject
	}
	subject := oneLine(f(v, typ))
	lines := details(v.data)
	body := subject + "\n\n" + strings.Join(lines, "\n") + "\n\n-- \nposbox\n"
	var html bytes.Buffer
	_ = htmlTmpl.Execute(&html, map[string]any{"Lang": lang, "Subject": subject, "Lines": lines})
	return Text{Subject: subject, Body: body, HTML: html.String()}
}

var htmlTmpl = template.Must(template.New("mail").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}"><body style="font-family:sans-serif">
<h2 style="font-size:16px">{{.Subject}}</h2>
{{if .Lines}}<pre style="font-size:13px">{{range .Lines}}{{.}}
{{end}}</pre>{{end}}
<p style="color:#888;font-size:12px">posbox</p>
</body></html>`))

// view reads an event's data for the texts.
type view struct {
	lang string
	loc  *time.Location
	data map[string]any
}

// pick chooses the German or English text.
func (v view) pick(de, en string) string {
	if v.lang == LangEN {
		return en
	}
	return de
}

// get follows a dotted path ("time_entry.user_name") through the data.
func (v view) get(path string) any {
	var cur any = v.data
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

// s is a value as text; the first present path wins, else "?".
func (v view) s(paths ...string) string {
	for _, p := range paths {
		switch x := v.get(p).(type) {
		case nil:
		case string:
			if x != "" {
				return x
			}
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		case bool:
			return strconv.FormatBool(x)
		default:
			b, _ := json.Marshal(x)
			return string(b)
		}
	}
	return "?"
}

// money renders integer cents: 45,80 € (de) or €45.80 (en).
func (v view) money(path string) string {
	f, ok := v.get(path).(float64)
	if !ok {
		return "?"
	}
	c := int64(f)
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	if v.lang == LangEN {
		return fmt.Sprintf("%s€%d.%02d", sign, c/100, c%100)
	}
	return fmt.Sprintf("%s%d,%02d €", sign, c/100, c%100)
}

// when renders an instant (the first present path) on the restaurant's
// wall clock.
func (v view) when(paths ...string) string {
	for _, p := range paths {
		if s, ok := v.get(p).(string); ok {
			if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
				return t.In(v.loc).Format(v.pick("02.01.2006 15:04", "2006-01-02 15:04"))
			}
		}
	}
	return v.s(paths...)
}

// decimal renders a number German-style (7,5) or English-style (7.5).
func (v view) decimal(path string) string {
	s := v.s(path)
	if v.lang == LangDE {
		s = strings.ReplaceAll(s, ".", ",")
	}
	return s
}

// subjects are the one-line texts per event type; SMS templates stay in
// plain ASCII quotes so a message fits GSM-7.
var subjects = map[string]func(v view, typ string) string{
	store.EventTest: func(v view, _ string) string {
		return v.pick("Testnachricht von posbox: Der Kanal funktioniert.", "Test message from posbox: this channel works.")
	},
	"shift_change": func(v view, _ string) string {
		action := v.s("action")
		what := map[string][2]string{
			"created":        {"angelegt", "created"},
			"updated":        {"geändert", "changed"},
			"status_changed": {"Status " + v.s("shift.status"), "status " + v.s("shift.status")},
			"deleted":        {"gelöscht", "deleted"},
			"published":      {"veröffentlicht", "published"},
		}[action]
		if what[0] == "" {
			what = [2]string{action, action}
		}
		return v.pick(
			fmt.Sprintf("Schichtänderung: %s am %s %s-%s %s (von %s)", v.s("shift.user_name"), v.s("shift.shift_date"), v.s("shift.start_time"), v.s("shift.end_time"), what[0], v.s("by.name")),
			fmt.Sprintf("Shift change: %s on %s %s-%s %s (by %s)", v.s("shift.user_name"), v.s("shift.shift_date"), v.s("shift.start_time"), v.s("shift.end_time"), what[1], v.s("by.name")))
	},
	"clock_in": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("%s hat eingestempelt: %s", v.s("time_entry.user_name", "name"), v.s("local_time")),
			fmt.Sprintf("%s clocked in: %s", v.s("time_entry.user_name", "name"), v.s("local_time")))
	},
	"clock_out": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("%s hat ausgestempelt: %s, %s Std. gearbeitet", v.s("time_entry.user_name", "name"), v.s("local_time"), v.decimal("time_entry.worked_hours")),
			fmt.Sprintf("%s clocked out: %s, %s h worked", v.s("time_entry.user_name", "name"), v.s("local_time"), v.decimal("time_entry.worked_hours")))
	},
	"labour_law_warning": func(v view, _ string) string {
		var rules, dates []string
		ws, _ := v.get("warnings").([]any)
		for _, w := range ws {
			m, _ := w.(map[string]any)
			r, _ := m["rule"].(string)
			d, _ := m["date"].(string)
			if r != "" && !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
			if d != "" && !slices.Contains(dates, d) {
				dates = append(dates, d)
			}
		}
		what := [2]string{"Arbeitszeit-Warnung", "Working-time warning"}
		if v.s("source") == "shift" {
			what = [2]string{"Schichtplan-Warnung", "Shift plan warning"}
		}
		return v.pick(
			fmt.Sprintf("%s: %s am %s - %s", what[0], v.s("user_name"), strings.Join(dates, ", "), strings.Join(rules, ", ")),
			fmt.Sprintf("%s: %s on %s - %s", what[1], v.s("user_name"), strings.Join(dates, ", "), strings.Join(rules, ", ")))
	},
	"time_entry_open_too_long": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("%s ist seit %s eingestempelt (über %s Std.): bitte prüfen", v.s("time_entry.user_name"), v.s("local_time"), v.s("limit_hours")),
			fmt.Sprintf("%s has been clocked in since %s (over %s h): please check", v.s("time_entry.user_name"), v.s("local_time"), v.s("limit_hours")))
	},
	"discount_exhausted": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("Rabatt \"%s\" ist aufgebraucht (%s von %s Einlösungen)", v.s("name"), v.s("usage_count"), v.s("usage_limit")),
			fmt.Sprintf("Discount \"%s\" is used up (%s of %s redemptions)", v.s("name"), v.s("usage_count"), v.s("usage_limit")))
	},
	"tse_error": func(v view, _ string) string {
		cause := v.tseCause()
		switch v.s("reason") {
		case "provider_down":
			return v.pick("TSE-FEHLER: "+cause[0]+" - Ausfall dokumentieren!", "TSE ERROR: "+cause[1]+" - document the outage!")
		case "terminal_refused":
			return v.pick(
				fmt.Sprintf("TSE-FEHLER: Kasse %s abgewiesen (%s) - Ausfall dokumentieren!", v.s("client_serial"), cause[0]),
				fmt.Sprintf("TSE ERROR: terminal %s refused (%s) - document the outage!", v.s("client_serial"), cause[1]))
		case "queue_stuck":
			return v.pick("TSE-FEHLER: Beleg von der TSE abgelehnt ("+cause[0]+") - bitte prüfen!",
				"TSE ERROR: receipt refused by the TSE ("+cause[1]+") - please check!")
		case "self_test_failed":
			return v.pick("TSE-FEHLER: Selbsttest fehlgeschlagen ("+cause[0]+")", "TSE ERROR: self-test failed ("+cause[1]+")")
		case "archive_verification_failed":
			// The TSE archive (fiscal/archive): a TAR export failed its check.
			finding := archiveFindings[v.s("error_code")]
			if finding[0] == "" {
				finding = [2]string{"Prüfung fehlgeschlagen", "check failed"}
			}
			return v.pick(
				fmt.Sprintf("TSE-ARCHIV: Export der Signaturzähler %s-%s abgelehnt (%s) - wird nächste Nacht neu geholt, bitte prüfen!", v.s("first_counter"), v.s("last_counter"), finding[0]),
				fmt.Sprintf("TSE ARCHIVE: export of signature counters %s-%s refused (%s) - fetched again next night, please check!", v.s("first_counter"), v.s("last_counter"), finding[1]))
		}
		return v.pick("TSE-FEHLER: "+v.s("reason")+" ("+cause[0]+") - Ausfall dokumentieren!",
			"TSE ERROR: "+v.s("reason")+" ("+cause[1]+") - document the outage!")
	},
	"tse_recovered": func(v view, _ string) string {
		if v.get("started_at") == nil {
			return v.pick("TSE wieder erreichbar: Signieren läuft wieder.", "TSE reachable again: signing has resumed.")
		}
		return v.pick(
			fmt.Sprintf("TSE wieder erreichbar: Ausfall %s bis %s, %s Belege ohne TSE", v.when("started_at"), v.when("ended_at"), v.s("affected_transactions")),
			fmt.Sprintf("TSE reachable again: outage %s to %s, %s receipts without TSE", v.when("started_at"), v.when("ended_at"), v.s("affected_transactions")))
	},
	"replication_stalled": func(v view, _ string) string {
		if v.get("disk_nearly_full") == true {
			return v.pick("Datensicherung außer Haus angehalten: Der Speicher dieses Geräts ist fast voll - bitte Platz schaffen!",
				"Off-site copy stopped: this box's storage is nearly full - please free some space!")
		}
		if v.get("files_failing") == true {
			return v.pick(
				fmt.Sprintf("Datensicherung außer Haus: Seit %s werden TSE-Archiv und Schlüssel nicht übertragen, sie liegen nur auf diesem Gerät - bitte Ziel prüfen!", v.when("since")),
				fmt.Sprintf("Off-site copy: since %s the TSE archive and the keys have not left this box - please check the target!", v.when("since")))
		}
		if v.get("backlog_given_up") == true {
			return v.pick(
				fmt.Sprintf("Datensicherung außer Haus: Ziel seit %s nicht erreichbar. Alle Verkäufe sind auf dem Gerät gespeichert; sobald das Ziel wieder erreichbar ist, wird eine vollständige Kopie übertragen - bitte Ziel prüfen!", v.when("since")),
				fmt.Sprintf("Off-site copy: target unreachable since %s. Every sale is kept on this box; as soon as the target answers again, a complete copy is sent - please check the target!", v.when("since")))
		}
		return v.pick(
			fmt.Sprintf("Datensicherung außer Haus: seit %s nichts übertragen (Ziel nicht erreichbar) - bitte Ziel prüfen!", v.when("since")),
			fmt.Sprintf("Off-site copy: nothing uploaded since %s (target unreachable) - please check the target!", v.when("since")))
	},
	"replication_recovered": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("Datensicherung außer Haus läuft wieder (gestört seit %s): der aktuelle Stand ist übertragen.", v.when("since")),
			fmt.Sprintf("Off-site copy works again (failing since %s): the current state is uploaded.", v.when("since")))
	},
	"tse_certificate_expiring": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("TSE-Zertifikat läuft am %s ab (noch %s Tage): bitte vorher die TSE ersetzen (Konsole: TSE, „TSE ersetzen“)", v.when("expires_at", "certificate_expiry"), v.s("days_remaining", "days_left")),
			fmt.Sprintf("TSE certificate expires on %s (%s days left): please replace the TSE before then (console: TSE, \"Replace the TSE\")", v.when("expires_at", "certificate_expiry"), v.s("days_remaining", "days_left")))
	},
	"registration_due": func(v view, _ string) string {
		what := map[string][2]string{
			"register_in_service":     {"Kasse %s am %s in Betrieb genommen", "register %s put into service on %s"},
			"register_out_of_service": {"Kasse %s am %s außer Betrieb genommen", "register %s taken out of service on %s"},
			"tse_in_service":          {"TSE %s am %s in Betrieb genommen", "TSE %s put into service on %s"},
			"tse_out_of_service":      {"TSE %s am %s außer Betrieb genommen", "TSE %s taken out of service on %s"},
		}[v.s("change")]
		if what[0] == "" {
			what = [2]string{"Änderung %s am %s", "change %s on %s"}
		}
		subject := v.s("subject")
		if len(subject) > 16 { // a TSS serial: 64 hex digits
			subject = subject[:8] + "…"
		}
		return v.pick(
			fmt.Sprintf("Meldung ans Finanzamt fällig bis %s: "+what[0]+" (§146a Abs. 4 AO, über Mein ELSTER)", germanDay(v.s("due_by")), subject, germanDay(v.s("date"))),
			fmt.Sprintf("Registration with the tax office due by %s: "+what[1]+" (§146a (4) AO, via Mein ELSTER)", v.s("due_by"), subject, v.s("date")))
	},
	"daily_report": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("Tagesbericht %s: %s Std. gearbeitet, %s Rabatte (%s), %s TSE-Buchungen (%s Belege ohne TSE), %s TSE-Ausfälle",
				v.s("date"), v.decimal("total_hours"), v.s("discounts.count"), v.money("discounts.amount_cents"), v.s("tse.transactions"), v.s("tse.receipts_without_tse"), v.s("tse.outages")),
			fmt.Sprintf("Daily report %s: %s h worked, %s discounts (%s), %s TSE transactions (%s receipts without TSE), %s TSE outages",
				v.s("date"), v.decimal("total_hours"), v.s("discounts.count"), v.money("discounts.amount_cents"), v.s("tse.transactions"), v.s("tse.receipts_without_tse"), v.s("tse.outages")))
	},
	"new_order": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("Neue Bestellung #%s: %s", v.s("order_number", "order_id"), v.money("total_cents")),
			fmt.Sprintf("New order #%s: %s", v.s("order_number", "order_id"), v.money("total_cents")))
	},
	"order_cancelled": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("Storno #%s: %s (%s)", v.s("order_number", "order_id"), v.s("reason"), v.money("total_cents")),
			fmt.Sprintf("Order #%s cancelled: %s (%s)", v.s("order_number", "order_id"), v.s("reason"), v.money("total_cents")))
	},
	"payment_received": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("Zahlung #%s: %s (%s)", v.s("order_number", "order_id"), v.money("amount_cents"), v.s("method")),
			fmt.Sprintf("Payment #%s: %s (%s)", v.s("order_number", "order_id"), v.money("amount_cents"), v.s("method")))
	},
	"low_stock": func(v view, _ string) string {
		return v.pick(
			fmt.Sprintf("Bestand niedrig: %s %s %s (min. %s)", v.s("name", "product_id"), v.decimal("quantity_on_hand"), v.s("unit"), v.decimal("threshold")),
			fmt.Sprintf("Low stock: %s %s %s (min. %s)", v.s("name", "product_id"), v.decimal("quantity_on_hand"), v.s("unit"), v.decimal("threshold")))
	},
}

func genericSubject(v view, typ string) string {
	return v.pick("posbox-Ereignis: "+typ, "posbox event: "+typ)
}

// details flattens the data into sorted "key: value" lines for the email
// body, so every field of every type is readable without a template.
func details(data map[string]any) []string {
	var lines []string
	var walk func(prefix string, x any)
	walk = func(prefix string, x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, val := range x {
				walk(strings.TrimPrefix(prefix+"."+k, "."), val)
			}
		default:
			if len(lines) >= 100 {
				return
			}
			var s string
			switch x := x.(type) {
			case nil:
				s = "-"
			case string:
				s = x
			case float64:
				s = strconv.FormatFloat(x, 'f', -1, 64)
			default:
				b, _ := json.Marshal(x)
				s = string(b)
			}
			lines = append(lines, prefix+": "+oneLine(s))
		}
	}
	walk("", data)
	sort.Strings(lines)
	return lines
}

// tseCauses are the TSE error codes in words (German, English); the
// English ones are the appliance's outage reasons (tse.Reason).
var tseCauses = map[string][2]string{
	"E_NETWORK":                  {"TSE-Anbieter nicht erreichbar (Netzwerkfehler)", "TSE provider unreachable (network error)"},
	"E_TIMEOUT":                  {"TSE-Anbieter antwortet nicht rechtzeitig", "TSE provider did not answer in time"},
	"E_UNAVAILABLE":              {"TSE-Anbieter nicht erreichbar", "TSE provider unreachable"},
	"E_TSS_LOCKED":               {"TSE vom Anbieter vorübergehend gesperrt", "TSE temporarily locked by the provider"},
	"E_TOO_MANY_REQUESTS":        {"Anfragelimit des TSE-Anbieters erreicht", "TSE provider rate limit reached"},
	"E_UNAUTHORIZED":             {"TSE-Anbieter lehnt die Zugangsdaten ab (API-Schlüssel oder Admin-PIN)", "TSE provider refused the credentials (API key or admin PIN)"},
	"E_TSS_NOT_FOUND":            {"TSS beim Anbieter nicht gefunden", "TSS not found at the provider"},
	"E_TSS_NOT_INITIALIZED":      {"TSS nicht initialisiert", "TSS not initialized"},
	"E_TSS_DISABLED":             {"TSS deaktiviert", "TSS disabled"},
	"E_TSS_DEFECTIVE":            {"TSS defekt", "TSS defective"},
	"E_CERTIFICATE_EXPIRED":      {"TSE-Zertifikat abgelaufen", "TSE certificate expired"},
	"E_TX_LIMIT_REACHED":         {"zu viele offene Transaktionen in der TSE", "too many open transactions at the TSE"},
	"E_CLIENT_LIMIT_REACHED":     {"Höchstzahl an Kassen der TSS erreicht: diese Kasse kann nicht registriert werden", "TSS terminal limit reached: this terminal cannot be registered"},
	"E_CLIENT_DEREGISTERED":      {"Kasse bei der TSE abgemeldet", "terminal deregistered at the TSE"},
	"E_CLIENT_NOT_FOUND":         {"Kasse bei der TSE nicht registriert", "terminal not registered at the TSE"},
	"E_FAILED_SCHEMA_VALIDATION": {"TSE lehnt die Belegdaten ab", "TSE refused the receipt data"},
}

// tseCause is the event's error in words: by its code, else its message,
// else "?".
// archiveFindings names why a TSE archive export was refused
// (fiscal/archive's finding codes).
var archiveFindings = map[string][2]string{
	"tar_gap":                 {"Lücke in den Signaturzählern", "gap in the signature counters"},
	"tar_bad_signature":       {"ungültige Signatur", "bad signature"},
	"tar_counter_order":       {"Signaturzähler doppelt", "signature counter repeated"},
	"tar_serial_mismatch":     {"fremde TSE-Seriennummer", "another TSE's serial number"},
	"tar_certificate":         {"Zertifikat fehlt oder unlesbar", "certificate missing or unreadable"},
	"tar_malformed":           {"Datei beschädigt", "file damaged"},
	"tar_missing_transaction": {"signierte Transaktion fehlt", "a signed transaction is missing"},
	"tar_empty":               {"Export leer", "export empty"},
}

func (v view) tseCause() [2]string {
	if c, ok := tseCauses[v.s("error_code")]; ok {
		return c
	}
	m := v.s("message", "error_code")
	return [2]string{m, m}
}

// germanDay is a YYYY-MM-DD as 20.12.2026 (as given when it is none).
func germanDay(d string) string {
	if t, err := time.Parse("2006-01-02", d); err == nil {
		return t.Format("02.01.2006")
	}
	return d
}
