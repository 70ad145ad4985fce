package console_test

import (
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"posbox/fiscal/replace"
	"posbox/server"
	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// "TSE ersetzen" on the TSE page, against fiskaly's API (the simulator
// served over HTTP) with a certificate that expires in 20 days: the
// owner starts it, confirms, and watches the steps in German until the
// restart with the new TSE; the old TSE is then DISABLED. At a phone's
// width and a desktop's.
func TestConsoleTSEReplace(t *testing.T) {
	proc := simtest.Start(t, time.Now, func(c *tsesim.Config) { c.CertValidity = 20 * 24 * time.Hour; c.ExportDelay = -1 })
	dataDir := t.TempDir()
	log := slog.New(slog.DiscardHandler)
	if err := tse.Setup(t.Context(), dataDir, "http://"+proc.Addr, simtest.Key, simtest.Secret, io.Discard, log); err != nil {
		t.Fatal(err)
	}
	c, err := tse.ReadSettings(filepath.Join(dataDir, tse.SettingsFile))
	if err != nil {
		t.Fatal(err)
	}
	f, err := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: c.URL, APIKey: c.APIKey, APISecret: c.APISecret, TSSID: c.TSSID, AdminPIN: c.AdminPIN, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	var restarts atomic.Int32
	var rp *replace.Replacer
	a := newApplianceConfigured(t, f, func(a *appliance, cfg *server.Config) {
		rp = replace.New(a.st, replace.Options{RestaurantID: a.restaurant.ID, DataDir: dataDir, Old: f, Settings: c, Archive: a.archive,
			Restart: func() { restarts.Add(1) }, Logger: log})
		cfg.Replacer = rp
	})
	t.Cleanup(rp.Close)
	admin := a.token(t, "chef@linde.test", adminPassword)
	if code, body := a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":7.80}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":7.80}]}`); code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}

	b := newBrowser(t, a)
	b.open("/tse")
	b.login("chef@linde.test", adminPassword)
	b.wait("the certificate warning", `document.querySelector('#cert-warning')`)
	b.wait("the replace button", `document.querySelector('#tse-replace-start')`)
	b.screenshot("tse-replace-start")
	b.click("#tse-replace-start")
	b.wait("the confirmation", `document.querySelector('dialog.confirm[open]')`)
	b.click("dialog.confirm button.danger")
	b.waitLong("the restart step", `document.querySelector('#tse-replace-switching')`, 60*time.Second)
	got := b.text("#tse-replace")
	for _, want := range []string{"Alle Kassen abschließen erledigt", "Letzten Export der alten TSE archivieren und prüfen erledigt",
		"Alte TSE außer Betrieb nehmen erledigt", "Neue TSE einrichten erledigt", "Neustart mit der neuen TSE läuft", "posbox startet neu"} {
		if !strings.Contains(got, want) {
			t.Fatalf("wizard %q lacks %q", got, want)
		}
	}
	if restarts.Load() != 1 {
		t.Fatalf("%d restarts", restarts.Load())
	}
	if info, err := f.TSS(t.Context()); err != nil || info.State != tse.TSSDisabled {
		t.Fatalf("old TSS %s (%v)", info.State, err)
	}
	b.screenshot("tse-replace-switch")
}
