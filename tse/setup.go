package tse

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"
)

// Setup runs fiskaly's setup sequence for the data dir dataDir: create a
// TSS (its PUK is shown only then), UNINITIALIZED, admin PIN via the PUK,
// admin login, INITIALIZED, logout. Clients (one per POS terminal) are
// registered on first use. An interrupted setup is resumed from
// DATA_DIR/tse-setup.json with the same TSS; success writes
// DATA_DIR/tse.json, which switches the appliance to fiskaly. Progress
// goes to out (`posbox tse setup` prints it).
func Setup(ctx context.Context, dataDir, url, apiKey, apiSecret string, out io.Writer, log *slog.Logger) error {
	final := filepath.Join(dataDir, SettingsFile)
	if c, err := ReadSettings(final); err == nil {
		return fmt.Errorf("the appliance already signs with TSS %s at %s (%s); to set up another, move that file away first", c.TSSID, c.URL, final)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return err
	}
	progress := filepath.Join(dataDir, SetupFile)
	c, resumed, err := setupSettings(progress, url, apiKey, apiSecret)
	if err != nil {
		return err
	}

	f, err := NewFiskaly(FiskalyConfig{BaseURL: url, APIKey: apiKey, APISecret: apiSecret,
		TSSID: c.TSSID, AdminPIN: c.AdminPIN, Logger: log})
	if err != nil {
		return err
	}
	defer f.Close()

	var info TSSInfo
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
		if err := writeSettings(progress, c); err != nil {
			return err
		}
		fmt.Fprintf(out, "created TSS %s\n", c.TSSID)
	} else {
		if info, err = f.TSS(ctx); err != nil {
			return fmt.Errorf("read TSS %s: %w", c.TSSID, err)
		}
		fmt.Fprintf(out, "resuming the setup of TSS %s (state %s)\n", c.TSSID, info.State)
	}

	if info, err = initializeTSS(ctx, f, c, info); err != nil {
		return err
	}
	if info.State != TSSInitialized {
		return fmt.Errorf("TSS %s is %s and cannot sign: set up a new one (move %s away)", c.TSSID, info.State, progress)
	}

	c.CreatedAt = time.Now().UTC()
	if err := writeSettings(final, c); err != nil {
		return err
	}
	if err := os.Remove(progress); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	fmt.Fprintf(out, "TSS %s is INITIALIZED\n  serial number      %s\n  certificate expiry %s\n  settings           %s (mode 0600: holds the API secret, PUK and admin PIN)\n",
		c.TSSID, info.SerialNumber, info.CertNotAfter.UTC().Format(time.RFC3339), final)
	fmt.Fprintln(out, "Restart posbox to sign with this TSS; POS terminals are registered as clients on their first sale.")
	return nil
}

// setupSettings is a new TSS's settings, or those of the unfinished
// setup in progress (resumed) when it is for the same URL and API key.
func setupSettings(progress, url, apiKey, apiSecret string) (c Settings, resumed bool, err error) {
	c = Settings{Provider: KindFiskaly, URL: url, APIKey: apiKey, APISecret: apiSecret,
		TSSID: NewUUID4(), AdminPIN: newAdminPIN()}
	b, err := os.ReadFile(progress)
	if errors.Is(err, fs.ErrNotExist) {
		return c, false, nil
	} else if err != nil {
		return c, false, err
	}
	var p Settings
	if err := json.Unmarshal(b, &p); err != nil {
		return c, false, fmt.Errorf("%s: %w", progress, err)
	}
	if p.URL != url || p.APIKey != apiKey {
		return c, false, fmt.Errorf("an unfinished setup of TSS %s at %s with another API key is pending in %s: finish it with the same --url and --api-key, or move the file away", p.TSSID, p.URL, progress)
	}
	p.APISecret = apiSecret
	return p, true, nil
}

// initializeTSS takes a TSS from CREATED or UNINITIALIZED to INITIALIZED,
// from wherever an interrupted setup left it.
func initializeTSS(ctx context.Context, f *Fiskaly, c Settings, info TSSInfo) (TSSInfo, error) {
	var err error
	if info.State == TSSCreated {
		// fiskaly deploys the TSS now; this can take tens of seconds.
		if info, err = f.SetTSSState(ctx, c.TSSID, TSSUninitialized); err != nil {
			return info, fmt.Errorf("personalize TSS (UNINITIALIZED): %w", err)
		}
	}
	if info.State == TSSUninitialized {
		if err := f.ChangeAdminPIN(ctx, c.TSSID, c.AdminPUK, c.AdminPIN); err != nil {
			return info, fmt.Errorf("set the admin PIN: %w", err)
		}
		if err := f.AdminAuth(ctx, c.TSSID, c.AdminPIN); err != nil {
			return info, fmt.Errorf("admin login: %w", err)
		}
		info, err = f.SetTSSState(ctx, c.TSSID, TSSInitialized)
		if lerr := f.AdminLogout(context.WithoutCancel(ctx), c.TSSID); lerr != nil && err == nil {
			err = lerr
		}
		if err != nil {
			return info, fmt.Errorf("initialize TSS: %w", err)
		}
	}
	return info, nil
}

// newAdminPIN is a random admin PIN (fiskaly wants at least 6 characters).
func newAdminPIN() string {
	return rand.Text()[:12]
}
