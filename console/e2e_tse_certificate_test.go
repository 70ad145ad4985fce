package console_test

import (
	"strings"
	"testing"
	"time"

	"posbox/tse/tsesim"
)

// A TSS whose certificate expires in 20 days: the dashboard's TSE card
// and the TSE page say in German when it expires and what to do, at a
// phone's width and a desktop's.
func TestConsoleTSECertificateWarning(t *testing.T) {
	sim, err := tsesim.Open(tsesim.Config{Dir: t.TempDir(), CertValidity: 20 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	a := newApplianceWith(t, sim)
	b := newBrowser(t, a)
	b.open("/")
	b.login("chef@linde.test", adminPassword)
	b.wait("the TSE card's warning", `document.querySelector('#tse #cert-warning')`)
	want := []string{"Das Zertifikat der TSE läuft am", "(noch 19 Tage)", "Ersetzen Sie die TSE vorher", "TSE ersetzen"}
	card := b.text("#tse #cert-warning")
	for _, w := range want {
		if !strings.Contains(card, w) {
			t.Fatalf("dashboard warning %q lacks %q", card, w)
		}
	}
	if th := eval[string](b, `document.querySelector('#cert-warning').dataset.threshold`); th != "30" {
		t.Fatalf("threshold %s", th)
	}
	b.screenshot("dashboard-cert-warning")
	b.open("/tse")
	b.wait("the TSE page's warning", `document.querySelector('#cert-warning')`)
	if got := b.text("#cert-warning"); got != card {
		t.Fatalf("TSE page warning %q, dashboard %q", got, card)
	}
	b.screenshot("tse-cert-warning")
}
