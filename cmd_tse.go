package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"posbox/tse"
)

const tseUsage = "usage: posbox tse setup --api-key K --api-secret S [--url URL] [--data-dir DIR]"

func cmdTSE(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "setup" {
		return errors.New(tseUsage)
	}
	fs := flag.NewFlagSet("tse setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", tse.FiskalyURL, "fiskaly SIGN DE v2 URL (or any compatible one, e.g. a posbox tse-sim)")
	apiKey := fs.String("api-key", "", "API key (use a TEST key first)")
	apiSecret := fs.String("api-secret", "", "API secret")
	cfg, err := loadConfig(fs, args[1:], "log_format", "log_level")
	if err != nil {
		return usageErr(err)
	}
	if *apiKey == "" || *apiSecret == "" {
		return errors.New("tse setup: --api-key and --api-secret are required\n" + tseUsage)
	}
	return tseSetup(ctx, cfg, *url, *apiKey, *apiSecret, stdout, stderr)
}

// tseSetup runs fiskaly's setup sequence: create a TSS (its PUK is shown
// only then), UNINITIALIZED, admin PIN via the PUK, admin login,
// INITIALIZED, logout. Clients (one per POS terminal) are registered on
// first use. An interrupted setup is resumed from DATA_DIR/tse-setup.json
// with the same TSS; success writes DATA_DIR/tse.json, which switches the
// appliance to fiskaly.
func tseSetup(ctx context.Context, cfg Config, url, apiKey, apiSecret string, stdout, stderr io.Writer) error {
	final := filepath.Join(cfg.DataDir, tseConfigFile)
	if c, err := readTSEConfig(final); err == nil {
		return fmt.Errorf("the appliance already signs with TSS %s at %s (%s); to set up another, move that file away first", c.TSSID, c.URL, final)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return err
	}
	progress := filepath.Join(cfg.DataDir, tseSetupFile)
	c := tseConfig{Provider: tse.KindFiskaly, URL: url, APIKey: apiKey, APISecret: apiSecret,
		TSSID: tse.NewUUID4(), AdminPIN: newAdminPIN()}
	resumed := false
	if b, err := os.ReadFile(progress); err == nil {
		var p tseConfig
		if err := json.Unmarshal(b, &p); err != nil {
			return fmt.Errorf("%s: %w", progress, err)
		}
		if p.URL != url || p.APIKey != apiKey {
			return fmt.Errorf("an unfinished setup of TSS %s at %s with another API key is pending in %s: finish it with the same --url and --api-key, or move the file away", p.TSSID, p.URL, progress)
		}
		p.APISecret = apiSecret
		c, resumed = p, true
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}

	log := quietLogger(stderr)
	f, err := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: url, APIKey: apiKey, APISecret: apiSecret,
		TSSID: c.TSSID, AdminPIN: c.AdminPIN, Logger: log})
	if err != nil {
		return err
	}
	defer f.Close()

	var info tse.TSSInfo
	if !resumed {
		var puk string
		if info, puk, err = f.CreateTSS(ctx, c.TSSID, map[string]string{"created_by": "posbox"}); err != nil {
			return fmt.Errorf("create TSS: %w", err)
		}
		if puk == "" {
			return fmt.Errorf("create TSS %s: the answer holds no admin_puk", c.TSSID)
		}
		c.AdminPUK = puk
		// The PUK is never shown again: keep it before anything else.
		data, _ := json.MarshalIndent(c, "", "  ")
		if err := writeSecret(progress, append(data, '\n')); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created TSS %s\n", c.TSSID)
	} else {
		if info, err = f.TSS(ctx); err != nil {
			return fmt.Errorf("read TSS %s: %w", c.TSSID, err)
		}
		fmt.Fprintf(stdout, "resuming the setup of TSS %s (state %s)\n", c.TSSID, info.State)
	}

	if info.State == tse.TSSCreated {
		// fiskaly deploys the TSS now; this can take tens of seconds.
		if info, err = f.SetTSSState(ctx, c.TSSID, tse.TSSUninitialized); err != nil {
			return fmt.Errorf("personalize TSS (UNINITIALIZED): %w", err)
		}
	}
	if info.State == tse.TSSUninitialized {
		if err := f.ChangeAdminPIN(ctx, c.TSSID, c.AdminPUK, c.AdminPIN); err != nil {
			return fmt.Errorf("set the admin PIN: %w", err)
		}
		if err := f.AdminAuth(ctx, c.TSSID, c.AdminPIN); err != nil {
			return fmt.Errorf("admin login: %w", err)
		}
		info, err = f.SetTSSState(ctx, c.TSSID, tse.TSSInitialized)
		if lerr := f.AdminLogout(context.WithoutCancel(ctx), c.TSSID); lerr != nil && err == nil {
			err = lerr
		}
		if err != nil {
			return fmt.Errorf("initialize TSS: %w", err)
		}
	}
	if info.State != tse.TSSInitialized {
		return fmt.Errorf("TSS %s is %s and cannot sign: set up a new one (move %s away)", c.TSSID, info.State, progress)
	}

	c.CreatedAt = time.Now().UTC()
	data, _ := json.MarshalIndent(c, "", "  ")
	if err := writeSecret(final, append(data, '\n')); err != nil {
		return err
	}
	if err := os.Remove(progress); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	fmt.Fprintf(stdout, "TSS %s is INITIALIZED\n  serial number      %s\n  certificate expiry %s\n  settings           %s (mode 0600: holds the API secret, PUK and admin PIN)\n",
		c.TSSID, info.SerialNumber, info.CertNotAfter.UTC().Format(time.RFC3339), final)
	fmt.Fprintln(stdout, "Restart posbox to sign with this TSS; POS terminals are registered as clients on their first sale.")
	return nil
}

// newAdminPIN is a random admin PIN (fiskaly wants at least 6 characters).
func newAdminPIN() string {
	return rand.Text()[:12]
}
