package main

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layerRules are docs/DESIGN.md's "Layers": for each package (or folder,
// with a trailing /), the posbox packages it may import. A package not
// named here imports nothing of posbox; test files are not checked.
var layerRules = map[string][]string{
	"posbox":                 {"*"}, // main wires everything
	"posbox/store":           {"posbox/migrations"},
	"posbox/tse":             {"posbox/tse/tsetar", "posbox/internal/retryafter", "posbox/internal/secretfile"},
	"posbox/tse/tsesim":      {"posbox/tse", "posbox/tse/tsetar"},
	"posbox/tse/simtest":     {"posbox/tse", "posbox/tse/tsesim", "posbox/store/storetest"},
	"posbox/fiscal":          {"posbox/store", "posbox/tse"},
	"posbox/fiscal/":         {"posbox/fiscal", "posbox/store", "posbox/tse", "posbox/tse/tsetar"},
	"posbox/fiscal/procdoc":  {"posbox/fiscal", "posbox/store", "posbox/tse"},
	"posbox/notify":          {"posbox/store", "posbox/internal/retryafter"},
	"posbox/discount":        {"posbox/store"},
	"posbox/server":          {"posbox/discount", "posbox/fiscal", "posbox/fiscal/cashbook", "posbox/fiscal/datev", "posbox/fiscal/registration", "posbox/store", "posbox/tse"},
	"posbox/backup":          {"posbox/store", "posbox/tse"},
	"posbox/boxtls":          {"posbox/internal/secretfile"},
	"posbox/replica":         {"posbox/internal/diskfree", "posbox/internal/secretfile"},
	"posbox/hq":              {"posbox/replica", "posbox/store"},
	"posbox/retention":       {"posbox/internal/diskfree", "posbox/store"},
	"posbox/internal/":       {},
	"posbox/migrations":      {},
	"posbox/console":         {},
	"posbox/notify/smtptest": {},
	"posbox/store/storetest": {},
	"posbox/tse/tsetar":      {},

	// The replica targets for tests wait for their servers with poll.
	"posbox/internal/replicatest": {"posbox/internal/poll"},
	// The seeder (only main built with -tags seed imports it) writes
	// through the store, signs with the simulator's TSS and archives
	// with the archive's job.
	"posbox/internal/seed": {"posbox/fiscal", "posbox/fiscal/archive", "posbox/fiscal/queue", "posbox/store", "posbox/tse", "posbox/tse/tsesim", "posbox/tse/tsetar"},
}

// onlyImporter names, for a library whose API may change under posbox,
// the one package that may import it: Litestream's library API is
// marked unstable, so it stays behind replica's own types.
var onlyImporter = map[string]string{
	"github.com/benbjohnson/litestream": "posbox/replica",
}

// TestLayers holds every package to the import rules DESIGN.md states:
// store at the bottom, tse beside it, fiscal and notify above it, server
// above them with no worker package, and nothing but main wiring it all;
// and Litestream to replica.
func TestLayers(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		pkg, imports := f[0], f[1:]
		allowed, ok := layerRules[pkg]
		if !ok {
			allowed = layerRules[pkg[:strings.LastIndex(pkg, "/")+1]]
		}
		for _, imp := range imports {
			for lib, only := range onlyImporter {
				if (imp == lib || strings.HasPrefix(imp, lib+"/")) && pkg != only {
					t.Errorf("%s imports %s; only %s may (docs/DESIGN.md)", pkg, imp, only)
				}
			}
			if !strings.HasPrefix(imp, "posbox/") || (len(allowed) == 1 && allowed[0] == "*") {
				continue
			}
			if !slices.Contains(allowed, imp) {
				t.Errorf("%s imports %s; docs/DESIGN.md's layers allow it only %v", pkg, imp, allowed)
			}
		}
	}
}
