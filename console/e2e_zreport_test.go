package console_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"posbox/internal/poll"
)

// windowWhere waits for a window the page opened at a blob: URL of the
// console for which cond (a JS expression) is true, and returns its text.
func (b *browser) windowWhere(cond string) string {
	b.tb.Helper()
	var text string
	var targets []*target.Info
	if !poll.Wait(10*time.Second, func() bool {
		var err error
		if targets, err = chromedp.Targets(b.ctx); err != nil {
			b.tb.Fatal(err)
		}
		for _, tg := range targets {
			if tg.Type != "page" || !strings.HasPrefix(tg.URL, "blob:"+b.a.url+"/") {
				continue
			}
			ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(tg.TargetID))
			tctx, tcancel := context.WithTimeout(ctx, 10*time.Second)
			got, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.body && document.readyState === 'complete' && (`+cond+`) ? document.body.innerText : ""`))
			tcancel()
			cancel() // detaches; the window stays
			if err != nil {
				b.tb.Fatal(err)
			}
			if got != "" {
				text = got
				return true
			}
		}
		return false
	}) {
		b.tb.Fatalf("no window where %s; targets: %v", cond, targets)
	}
	return text
}

// The closings list prints each closing's Z-report: "Z-Bon drucken"
// opens the A4 page, "Bon 80 mm" the narrow strip (its body 72 mm wide),
// both with the storno and the aborted receipt; the buttons fit at 375
// and at 1280 px.
func TestConsoleZReport(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	sell := func(body string) string {
		code, out := a.call(t, "POST", "/api/tse/transactions", admin, body)
		if code != http.StatusCreated {
			t.Fatalf("sale: %d %s", code, out)
		}
		i := strings.Index(out, `"id":"`) + len(`"id":"`)
		return out[i : i+strings.Index(out[i:], `"`)]
	}
	sell(`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":11.90},{"vat_rate":"REDUCED_1","amount":10.70}],
		"amounts_per_payment_type":[{"payment_type":"CASH","amount":12.60},{"payment_type":"NON_CASH","amount":10.00}]}`)
	id := sell(`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":5.95}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":5.95}]}`)
	sell(`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","cancels":"` + id + `","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":-5.95}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":-5.95}]}`)
	sell(`{"client_serial":"KASSE-01","receipt_type":"ABORT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":3.00}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":3.00}]}`)
	if code, out := a.call(t, "POST", "/api/tse/closings", admin, `{"client_serial":"KASSE-01"}`); code != http.StatusCreated {
		t.Fatalf("closing: %d %s", code, out)
	}

	b := newBrowser(t, a)
	b.open("/fiscal")
	b.login("chef@linde.test", adminPassword)
	b.wait("the closing's print buttons", `document.querySelector('#closing-list tbody tr[data-register="KASSE-01"][data-z="1"] .z-print button[data-layout=receipt]')`)
	row := `#closing-list tbody tr[data-register="KASSE-01"][data-z="1"]`
	if got := b.text(row + ` .z-print`); !strings.Contains(got, "Z-Bon drucken") || !strings.Contains(got, "Bon 80 mm") {
		t.Fatalf("print buttons %q", got)
	}
	b.screenshot("fiscal-zreport")

	b.click(row + ` .z-print button[data-layout=a4]`)
	page := b.windowWhere(`document.body.classList.contains('report') && getComputedStyle(document.body).maxWidth !== 'none'`)
	for _, want := range []string{"Z-Bon Nr. 1", "KASSE-01", "Stornos: 1, Summe -5,95 €", "Belegabbrüche: 1, Summe 3,00 €",
		"Summe\t20,00 €\t2,60 €\t22,60 €", "Kassensturz (gezählt)\tkeine Zählung", "Soll-Bestand bei Abschluss\tKassenbuch nicht geführt"} {
		if !strings.Contains(page, want) {
			t.Errorf("the A4 Z-report lacks %q:\n%s", want, page)
		}
	}
	// The strip: receipt.css applies (the body 72 mm, about 272 px).
	b.click(row + ` .z-print button[data-layout=receipt]`)
	strip := b.windowWhere(`document.body.classList.contains('receipt') && Math.abs(document.body.getBoundingClientRect().width - 272) < 3`)
	if !strings.Contains(strip, "Stornos: 1, Summe -5,95 €") || !strings.Contains(strip, "Bareinnahmen aus Verkäufen") {
		t.Errorf("the 80 mm Z-report:\n%s", strip)
	}

	// On a phone the closing is a card and its buttons fit the screen.
	b.do(chromedp.EmulateViewport(375, 800))
	time.Sleep(150 * time.Millisecond)
	b.checkNoSideScroll("fiscal-zreport", 375)
	if !eval[bool](b, `[...document.querySelectorAll('`+row+` .z-print button')].every((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right <= window.innerWidth; })`) {
		t.Fatalf("the print buttons at 375 px do not fit")
	}
	b.do(chromedp.EmulateViewport(1280, 900))
}
