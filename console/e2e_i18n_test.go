package console_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
)

// The German and the English table hold the same keys: every module under
// assets/js is loaded (each adds its own strings), then the keys of both
// languages are compared.
func TestConsoleTranslationKeysMatch(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	var modules []string
	for _, dir := range []string{"assets/js", "assets/js/pages"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			// main.js boots the console; it is loaded already.
			if strings.HasSuffix(e.Name(), ".js") && e.Name() != "main.js" {
				modules = append(modules, "/"+path.Join(dir, e.Name()))
			}
		}
	}
	list, err := json.Marshal(modules)
	if err != nil {
		t.Fatal(err)
	}
	b.open("/login")
	b.wait("the login form", `document.querySelector('form.login-form')`)
	keys := eval[struct{ De, En []string }](b, fmt.Sprintf(`Promise.all(%s.map((m) => import(m)))
		.then(() => import('/assets/js/i18n.js')).then((i) => ({ de: i.keys('de'), en: i.keys('en') }))`, list))
	if len(keys.De) < 400 {
		t.Fatalf("only %d German keys from %d modules: not every module was loaded", len(keys.De), len(modules))
	}
	for _, side := range []struct {
		lang       string
		have, lack []string
	}{{"English", keys.De, keys.En}, {"German", keys.En, keys.De}} {
		for _, k := range side.have {
			if !slices.Contains(side.lack, k) {
				t.Errorf("no %s text for %q", side.lang, k)
			}
		}
	}
	t.Logf("%d keys in each language, from %d modules", len(keys.De), len(modules))
}
