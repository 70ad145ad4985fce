package console_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"posbox/server"
)

const e2eSheetKey = "AGE-SECRET-KEY-1N4T3ST0NLYK3YN0TF0RUS3WHATS0EV3RN4T3ST0NLYK3YN0TF0RUS3QQ"

// sheetReplica is replication with a recovery key, as main adapts it:
// its status and its sheet.
type sheetReplica struct{ fakeReplica }

func (f *sheetReplica) RecoverySheet() (server.RecoverySheet, error) {
	url := "sftp://backup@nas.local:22/posbox"
	return server.RecoverySheet{URL: url, PublicKey: "age1qqexamplepublickey", RecoveryKey: e2eSheetKey,
		RestoreCommand: "posbox restore --from '" + url + "' --key-file /path/to/recovery.key --data-dir /path/to/empty-folder",
		Text:           "posbox replica recovery sheet\n" + e2eSheetKey + "\n"}, nil
}

// After replication is switched on, the dashboard asks for the recovery
// sheet; the sheet shows the address, both keys and the restore command
// and prints alone on one A4 page; once the owner confirms she printed
// and stored it, the key is gone from the page, after a reload too, and
// the API refuses it.
func TestConsoleRecoverySheet(t *testing.T) {
	rep := &sheetReplica{}
	rep.set(func() server.ReplicaStatus {
		return server.ReplicaStatus{URL: "sftp://backup@nas.local:22/posbox", PublicKey: "age1qqexamplepublickey", ReplicatedAt: time.Now()}
	})
	a := newApplianceWith(t, nil, rep)
	b := newBrowser(t, a)
	b.open("/")
	b.login("chef@linde.test", adminPassword)
	b.wait("the prompt", `!document.querySelector('#recovery-sheet-prompt').hidden`)
	if got := b.text("#recovery-sheet-prompt"); !strings.Contains(got, "Notfallblatt drucken") || strings.Contains(got, e2eSheetKey) {
		t.Fatalf("prompt: %q", got)
	}
	b.screenshot("recovery-sheet-prompt")
	b.click("#recovery-sheet-prompt button")
	b.wait("the sheet", `document.querySelector('#sheet-key')?.innerText === '`+e2eSheetKey+`'`)
	got := b.text("#recovery-sheet")
	for _, want := range []string{"Gasthaus Linde", "sftp://backup@nas.local:22/posbox", "age1qqexamplepublickey", "Wiederherstellungsschlüssel",
		"posbox restore --from 'sftp://backup@nas.local:22/posbox' --key-file /path/to/recovery.key --data-dir /path/to/empty-folder", "docs/OPERATIONS.md"} {
		if !strings.Contains(got, want) {
			t.Errorf("the sheet lacks %q: %q", want, got)
		}
	}
	if eval[bool](b, `document.querySelector('nav#nav').innerText.includes('Notfallblatt')`) {
		t.Error("the sheet is in the menu")
	}
	b.screenshot("recovery-sheet")
	checkPrintedSheet(t, b)

	// Confirming takes the tick first; then the key is gone.
	if !eval[bool](b, `document.querySelector('#sheet-confirm').disabled`) {
		t.Fatal("confirm is enabled before the tick")
	}
	b.click("#sheet-confirm-check")
	b.wait("confirm enabled", `!document.querySelector('#sheet-confirm').disabled`)
	if got := b.text("#sheet-confirm-box"); !strings.Contains(got, "Ich habe das Blatt ausgedruckt und sicher verwahrt") {
		t.Fatalf("confirm box: %q", got)
	}
	b.click("#sheet-confirm")
	b.wait("the key gone", `document.querySelector('#sheet-gone') && !document.querySelector('#sheet-key')`)
	keyGone := func(when string) {
		t.Helper()
		if eval[bool](b, `document.body.innerHTML.includes('`+e2eSheetKey+`')`) {
			t.Fatalf("%s: the key is still in the page", when)
		}
	}
	keyGone("after the confirmation")
	if got := b.text("main"); !strings.Contains(got, "posbox replica key") {
		t.Fatalf("after the confirmation: %q", got)
	}
	b.screenshot("recovery-sheet-confirmed")

	b.open("/recovery-sheet") // a reload
	b.wait("the confirmation after a reload", `document.querySelector('#sheet-confirmed')`)
	keyGone("after a reload")
	if got := b.text("#sheet-confirmed"); !strings.Contains(got, "Clara Chef") {
		t.Fatalf("after a reload: %q", got)
	}
	b.open("/")
	b.wait("the dashboard", `document.querySelector('#replica')`)
	time.Sleep(300 * time.Millisecond) // the prompt asks on its own
	if !eval[bool](b, `document.querySelector('#recovery-sheet-prompt').hidden`) {
		t.Fatal("the prompt is still shown after the confirmation")
	}
	tok := a.token(t, "chef@linde.test", adminPassword)
	if code, body := a.call(t, "GET", "/api/replica/recovery-sheet", tok, ""); code != http.StatusGone || strings.Contains(body, e2eSheetKey) {
		t.Fatalf("the API after the confirmation: %d %s", code, body)
	}
}

// checkPrintedSheet looks at the page as printed: only the sheet, nothing
// of the console around it, the key and the command within the paper's
// width, one A4 page (the PDF is a test artifact).
func checkPrintedSheet(t *testing.T, b *browser) {
	t.Helper()
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	b.do(chromedp.EmulateViewport(718, 1000)) // A4 less 15 mm margins, at 96 dpi
	hidden := eval[[]string](b, `['header.top', 'nav#nav', '#sheet-confirm-box', '#sheet-print', 'main .page-head']
		.filter((s) => { const e = document.querySelector(s); return e && e.offsetParent !== null; })`)
	if len(hidden) > 0 {
		t.Errorf("printed, these still show: %v", hidden)
	}
	for _, sel := range []string{"#sheet-key", "#sheet-command", "#sheet-url"} {
		if !eval[bool](b, `(() => { const r = document.querySelector('`+sel+`').getBoundingClientRect(); return r.width > 0 && r.right <= 718; })()`) {
			t.Errorf("printed, %s is not within the paper's width", sel)
		}
	}
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	pdf, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: 8.27, PaperHeight: 11.69})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(pdf.Data, -1)); n != 1 {
		t.Errorf("the printed sheet has %d pages, want 1", n)
	}
	dir := os.Getenv("POSBOX_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "test-artifacts", "console")
	}
	if err := os.MkdirAll(dir, 0o755); err == nil {
		os.WriteFile(filepath.Join(dir, "recovery-sheet.pdf"), pdf.Data, 0o644)
	}
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatal(err)
	}
	b.do(chromedp.EmulateViewport(1280, 900))
}
