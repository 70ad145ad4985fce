package tse_test

import (
	"context"
	"encoding/asn1"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"posbox/tse"
	"posbox/tse/simtest"
	"posbox/tse/tsesim"
)

// asn1Line is one line of `openssl asn1parse`: offset, depth, header
// length, content length.
var asn1Line = regexp.MustCompile(`^\s*(\d+):d=(\d+)\s+hl=(\d+)\s+l=\s*(\d+)`)

// TestExportCheckedByTarAndOpenSSL reads a simulator export with tools
// that share no code with posbox: GNU tar unpacks it, openssl parses
// every log message's ASN.1, checks the certificate chain, and verifies
// every signature over the bytes from version to logTime with the key of
// the TSS certificate found in the TAR. Signature counters run 1..N
// without gap.
func TestExportCheckedByTarAndOpenSSL(t *testing.T) {
	openssl, err1 := exec.LookPath("openssl")
	tarBin, err2 := exec.LookPath("tar")
	if err1 != nil || err2 != nil {
		t.Skip("openssl or tar not installed: no independent tools to cross-check the export with")
	}
	run := func(name string, args ...string) string {
		t.Helper()
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	clk := simtest.NewClock()
	s := simtest.Open(t, t.TempDir(), clk, func(c *tsesim.Config) { c.ExportDelay = -1 })
	ctx := context.Background()
	if _, err := s.EnsureClient(ctx, simtest.ClientID, "KASSE-01"); err != nil {
		t.Fatal(err)
	}
	_, fin := simtest.Sell(t, s, tse.NewUUID4())
	tarBytes := simtest.ExportAll(t, s)
	dir := t.TempDir()
	tarPath := filepath.Join(dir, "export.tar")
	if err := os.WriteFile(tarPath, tarBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	files := filepath.Join(dir, "files")
	os.Mkdir(files, 0o700)
	run(tarBin, "-xf", tarPath, "-C", files)

	info, _ := s.TSS(ctx)
	serial := strings.ToUpper(info.SerialNumber)
	leaf := filepath.Join(files, serial+"_X509.crt")
	subject := run(openssl, "x509", "-in", leaf, "-noout", "-subject")
	if !strings.Contains(subject, info.SerialNumber) {
		t.Fatalf("certificate subject %q does not name the serial", subject)
	}
	var ca string
	entries, _ := os.ReadDir(files)
	var logs []string
	for _, e := range entries {
		switch n := e.Name(); {
		case strings.HasSuffix(n, "_X509.crt") && n != serial+"_X509.crt":
			ca = filepath.Join(files, n)
		case strings.HasSuffix(n, ".log"):
			logs = append(logs, n)
		}
	}
	if ca == "" {
		t.Fatal("no CA certificate in the export")
	}
	run(openssl, "verify", "-CAfile", ca, leaf)
	pub := filepath.Join(dir, "pub.pem")
	if err := os.WriteFile(pub, []byte(run(openssl, "x509", "-in", leaf, "-noout", "-pubkey")), 0o600); err != nil {
		t.Fatal(err)
	}

	var counters []int
	for _, name := range logs {
		p := filepath.Join(files, name)
		der, _ := os.ReadFile(p)
		var els [][4]int // offset, depth, header length, length
		for _, line := range strings.Split(run(openssl, "asn1parse", "-inform", "DER", "-in", p), "\n") {
			if m := asn1Line.FindStringSubmatch(line); m != nil {
				var v [4]int
				for i := range v {
					v[i], _ = strconv.Atoi(m[i+1])
				}
				if v[1] == 1 {
					els = append(els, v)
				}
			}
		}
		if len(els) < 8 {
			t.Fatalf("%s: openssl sees %d elements", name, len(els))
		}
		sigEl := els[len(els)-1]
		dtbs := der[els[0][0]:sigEl[0]]
		sig := der[sigEl[0]+sigEl[2] : sigEl[0]+sigEl[2]+sigEl[3]]
		if len(sig) != 64 {
			t.Fatalf("%s: signature is %d bytes", name, len(sig))
		}
		sigDER, _ := asn1.Marshal(struct{ R, S *big.Int }{new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])})
		os.WriteFile(filepath.Join(dir, "dtbs"), dtbs, 0o600)
		os.WriteFile(filepath.Join(dir, "sig"), sigDER, 0o600)
		if out := run(openssl, "dgst", "-sha256", "-verify", pub, "-signature", filepath.Join(dir, "sig"), filepath.Join(dir, "dtbs")); !strings.Contains(out, "Verified OK") {
			t.Fatalf("%s: %s", name, out)
		}
		c, err := strconv.Atoi(regexp.MustCompile(`_Sig-(\d+)_`).FindStringSubmatch(name)[1])
		if err != nil {
			t.Fatal(err)
		}
		counters = append(counters, c)
	}
	slices.Sort(counters)
	for i, c := range counters {
		if c != i+1 {
			t.Fatalf("counters %v: not 1..N", counters)
		}
	}
	if len(counters) != int(fin.Signature.Counter) {
		t.Fatalf("%d log messages, want %d", len(counters), fin.Signature.Counter)
	}
}
