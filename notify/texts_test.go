package notify

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestRenderEveryKnownTypeInBothLanguages(t *testing.T) {
	t.Parallel()
	berlin, _ := time.LoadLocation("Europe/Berlin")
	cases := []struct {
		typ    string
		data   string
		de, en string
	}{
		{"shift_change", `{"action":"created","shift":{"user_name":"Anna","shift_date":"2026-11-23","start_time":"10:00","end_time":"18:00","status":"pending"},"by":{"name":"Ada"}}`,
			"Schichtänderung: Anna am 2026-11-23 10:00-18:00 angelegt (von Ada)", "Shift change: Anna on 2026-11-23 10:00-18:00 created (by Ada)"},
		{"shift_change", `{"action":"published","shift":{"user_name":"Anna","shift_date":"2026-11-23","start_time":"10:00","end_time":"18:00","status":"pending"},"by":{"name":"Ada"}}`,
			"Schichtänderung: Anna am 2026-11-23 10:00-18:00 veröffentlicht (von Ada)", "Shift change: Anna on 2026-11-23 10:00-18:00 published (by Ada)"},
		{"clock_in", `{"local_time":"2026-11-22 10:00","time_entry":{"user_name":"Ben"}}`,
			"Ben hat eingestempelt: 2026-11-22 10:00", "Ben clocked in: 2026-11-22 10:00"},
		{"clock_out", `{"local_time":"2026-11-22 18:30","time_entry":{"user_name":"Ben","worked_hours":8.25}}`,
			"Ben hat ausgestempelt: 2026-11-22 18:30, 8,25 Std. gearbeitet", "Ben clocked out: 2026-11-22 18:30, 8.25 h worked"},
		{"labour_law_warning", `{"source":"clock_out","user_name":"Ben","warnings":[{"code":"break_too_short","rule":"ArbZG §4","date":"2026-11-22"},{"code":"daily_max_exceeded","rule":"ArbZG §3","date":"2026-11-22"}]}`,
			"Arbeitszeit-Warnung: Ben am 2026-11-22 - ArbZG §4, ArbZG §3", "Working-time warning: Ben on 2026-11-22 - ArbZG §4, ArbZG §3"},
		{"labour_law_warning", `{"source":"shift","user_name":"Ben","warnings":[{"code":"rest_too_short","rule":"ArbZG §5","date":"2026-11-24"}]}`,
			"Schichtplan-Warnung: Ben am 2026-11-24 - ArbZG §5", "Shift plan warning: Ben on 2026-11-24 - ArbZG §5"},
		{"time_entry_open_too_long", `{"time_entry":{"user_name":"Ben"},"local_time":"2026-11-22 10:00","limit_hours":16}`,
			"Ben ist seit 2026-11-22 10:00 eingestempelt (über 16 Std.): bitte prüfen", "Ben has been clocked in since 2026-11-22 10:00 (over 16 h): please check"},
		{"discount_exhausted", `{"name":"Lunch","usage_limit":10,"usage_count":10}`,
			`Rabatt "Lunch" ist aufgebraucht (10 von 10 Einlösungen)`, `Discount "Lunch" is used up (10 of 10 redemptions)`},
		{"tse_error", `{"reason":"provider_down","error_code":"E_NETWORK","message":"TSE provider unreachable (network error)"}`,
			"TSE-FEHLER: TSE-Anbieter nicht erreichbar (Netzwerkfehler) - Ausfall dokumentieren!", "TSE ERROR: TSE provider unreachable (network error) - document the outage!"},
		{"tse_error", `{"reason":"provider_down","error_code":"E_CERTIFICATE_EXPIRED","message":"TSE certificate expired"}`,
			"TSE-FEHLER: TSE-Zertifikat abgelaufen - Ausfall dokumentieren!", "TSE ERROR: TSE certificate expired - document the outage!"},
		{"tse_error", `{"reason":"terminal_refused","client_serial":"KASSE-07","error_code":"E_CLIENT_LIMIT_REACHED"}`,
			"TSE-FEHLER: Kasse KASSE-07 abgewiesen (Höchstzahl an Kassen der TSS erreicht: diese Kasse kann nicht registriert werden) - Ausfall dokumentieren!",
			"TSE ERROR: terminal KASSE-07 refused (TSS terminal limit reached: this terminal cannot be registered) - document the outage!"},
		{"tse_error", `{"reason":"queue_stuck","error_code":"E_FAILED_SCHEMA_VALIDATION","message":"TSE refused the receipt data"}`,
			"TSE-FEHLER: Beleg von der TSE abgelehnt (TSE lehnt die Belegdaten ab) - bitte prüfen!", "TSE ERROR: receipt refused by the TSE (TSE refused the receipt data) - please check!"},
		{"tse_error", `{"reason":"self_test_failed","error_code":"E_NETWORK","message":"tss_reachable: TSE provider unreachable (network error)"}`,
			"TSE-FEHLER: Selbsttest fehlgeschlagen (TSE-Anbieter nicht erreichbar (Netzwerkfehler))", "TSE ERROR: self-test failed (TSE provider unreachable (network error))"},
		{"tse_error", `{"reason":"self_test_failed","message":"tss_reachable: TSE provider unreachable (network error)"}`,
			"TSE-FEHLER: Selbsttest fehlgeschlagen (tss_reachable: TSE provider unreachable (network error))", "TSE ERROR: self-test failed (tss_reachable: TSE provider unreachable (network error))"},
		{"tse_error", `{"reason":"archive_verification_failed","error_code":"tar_gap","first_counter":11,"last_counter":20,"message":"the TAR failed verification: signature counter 15 missing"}`,
			"TSE-ARCHIV: Export der Signaturzähler 11-20 abgelehnt (Lücke in den Signaturzählern) - wird nächste Nacht neu geholt, bitte prüfen!",
			"TSE ARCHIVE: export of signature counters 11-20 refused (gap in the signature counters) - fetched again next night, please check!"},
		{"tse_error", `{"reason":"disk_full"}`,
			"TSE-FEHLER: disk_full (?) - Ausfall dokumentieren!", "TSE ERROR: disk_full (?) - document the outage!"},
		{"tse_recovered", `{}`, "TSE wieder erreichbar: Signieren läuft wieder.", "TSE reachable again: signing has resumed."},
		{"tse_recovered", `{"started_at":"2026-11-22T09:12:00.000Z","ended_at":"2026-11-22T09:40:00.000Z","affected_transactions":4}`,
			"TSE wieder erreichbar: Ausfall 22.11.2026 10:12 bis 22.11.2026 10:40, 4 Belege ohne TSE",
			"TSE reachable again: outage 2026-11-22 10:12 to 2026-11-22 10:40, 4 receipts without TSE"},
		{"replication_stalled", `{"since":"2026-11-26T08:00:00Z","last_error":"list: connection refused","backlog_bytes":12582912}`,
			"Datensicherung außer Haus: seit 26.11.2026 09:00 nichts übertragen (Ziel nicht erreichbar) - bitte Ziel prüfen!",
			"Off-site copy: nothing uploaded since 2026-11-26 09:00 (target unreachable) - please check the target!"},
		{"replication_stalled", `{"since":"2026-11-26T08:00:00Z","backlog_given_up":true}`,
			"Datensicherung außer Haus: Ziel seit 26.11.2026 09:00 nicht erreichbar. Alle Verkäufe sind auf dem Gerät gespeichert; sobald das Ziel wieder erreichbar ist, wird eine vollständige Kopie übertragen - bitte Ziel prüfen!",
			"Off-site copy: target unreachable since 2026-11-26 09:00. Every sale is kept on this box; as soon as the target answers again, a complete copy is sent - please check the target!"},
		{"replication_stalled", `{"since":"2026-11-26T08:00:00Z","backlog_given_up":true,"disk_nearly_full":true}`,
			"Datensicherung außer Haus angehalten: Der Speicher dieses Geräts ist fast voll - bitte Platz schaffen!",
			"Off-site copy stopped: this box's storage is nearly full - please free some space!"},
		{"replication_stalled", `{"since":"2026-11-26T08:00:00Z","last_error":"files: put blob: permission denied","files_failing":true}`,
			"Datensicherung außer Haus: Seit 26.11.2026 09:00 werden TSE-Archiv und Schlüssel nicht übertragen, sie liegen nur auf diesem Gerät - bitte Ziel prüfen!",
			"Off-site copy: since 2026-11-26 09:00 the TSE archive and the keys have not left this box - please check the target!"},
		{"replication_recovered", `{"since":"2026-11-26T08:00:00Z"}`,
			"Datensicherung außer Haus läuft wieder (gestört seit 26.11.2026 09:00): der aktuelle Stand ist übertragen.",
			"Off-site copy works again (failing since 2026-11-26 09:00): the current state is uploaded."},
		{"tse_certificate_expiring", `{"certificate_expiry":"2026-12-22T23:30:00.000Z","days_left":30}`,
			"TSE-Zertifikat läuft am 23.12.2026 00:30 ab (noch 30 Tage): bitte vorher die TSE ersetzen (Konsole: TSE, „TSE ersetzen“)", "TSE certificate expires on 2026-12-23 00:30 (30 days left): please replace the TSE before then (console: TSE, \"Replace the TSE\")"},
		{"tse_certificate_expiring", `{"expires_at":"2026-12-22T23:30:00.000Z","days_remaining":30}`,
			"TSE-Zertifikat läuft am 23.12.2026 00:30 ab (noch 30 Tage): bitte vorher die TSE ersetzen (Konsole: TSE, „TSE ersetzen“)", "TSE certificate expires on 2026-12-23 00:30 (30 days left): please replace the TSE before then (console: TSE, \"Replace the TSE\")"},
		{"registration_due", `{"change":"register_in_service","subject":"KASSE-2","date":"2026-11-20","due_by":"2026-12-20"}`,
			"Meldung ans Finanzamt fällig bis 20.12.2026: Kasse KASSE-2 am 20.11.2026 in Betrieb genommen (§146a Abs. 4 AO, über Mein ELSTER)",
			"Registration with the tax office due by 2026-12-20: register KASSE-2 put into service on 2026-11-20 (§146a (4) AO, via Mein ELSTER)"},
		{"registration_due", `{"change":"tse_out_of_service","subject":"4a3f0c9e1b2d7f60aa11bb22cc33dd44ee55ff6600112233445566778899aabb","date":"2027-01-31","due_by":"2027-02-28"}`,
			"Meldung ans Finanzamt fällig bis 28.02.2027: TSE 4a3f0c9e… am 31.01.2027 außer Betrieb genommen (§146a Abs. 4 AO, über Mein ELSTER)",
			"Registration with the tax office due by 2027-02-28: TSE 4a3f0c9e… taken out of service on 2027-01-31 (§146a (4) AO, via Mein ELSTER)"},
		{"daily_report", `{"date":"2026-11-21","total_hours":12.5,"discounts":{"count":3,"amount_cents":1250},"tse":{"transactions":87,"receipts_without_tse":4,"outages":1}}`,
			"Tagesbericht 2026-11-21: 12,5 Std. gearbeitet, 3 Rabatte (12,50 €), 87 TSE-Buchungen (4 Belege ohne TSE), 1 TSE-Ausfälle",
			"Daily report 2026-11-21: 12.5 h worked, 3 discounts (€12.50), 87 TSE transactions (4 receipts without TSE), 1 TSE outages"},
		{"new_order", `{"order_number":1042,"total_cents":4580}`, "Neue Bestellung #1042: 45,80 €", "New order #1042: €45.80"},
		{"order_cancelled", `{"order_number":1042,"reason":"Gast gegangen","total_cents":4580}`,
			"Storno #1042: Gast gegangen (45,80 €)", "Order #1042 cancelled: Gast gegangen (€45.80)"},
		{"payment_received", `{"order_number":1042,"amount_cents":5000,"method":"card"}`,
			"Zahlung #1042: 50,00 € (card)", "Payment #1042: €50.00 (card)"},
		{"low_stock", `{"name":"Tomaten","quantity_on_hand":2.5,"unit":"kg","threshold":5}`,
			"Bestand niedrig: Tomaten 2,5 kg (min. 5)", "Low stock: Tomaten 2.5 kg (min. 5)"},
		{"table.call", `{"table":7}`, "posbox-Ereignis: table.call", "posbox event: table.call"},
		{"test", ``, "Testnachricht von posbox: Der Kanal funktioniert.", "Test message from posbox: this channel works."},
	}
	for _, tc := range cases {
		de := Render(LangDE, tc.typ, json.RawMessage(tc.data), berlin)
		en := Render(LangEN, tc.typ, json.RawMessage(tc.data), berlin)
		if de.Subject != tc.de {
			t.Errorf("%s de: %q, want %q", tc.typ, de.Subject, tc.de)
		}
		if en.Subject != tc.en {
			t.Errorf("%s en: %q, want %q", tc.typ, en.Subject, tc.en)
		}
		if !strings.HasPrefix(de.Body, tc.de) || !strings.Contains(de.HTML, "<h2") {
			t.Errorf("%s: body %q", tc.typ, de.Body)
		}
	}
	// The generic text still shows every field in the body.
	if b := Render(LangEN, "table.call", json.RawMessage(`{"table":7,"guest":{"name":"X"}}`), nil).Body; !strings.Contains(b, "table: 7") || !strings.Contains(b, "guest.name: X") {
		t.Errorf("generic body %q", b)
	}
}
