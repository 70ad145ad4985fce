package tse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
)

// Replacing a TSS (docs/TSE.md, "Replacing the TSS"): the old TSS is
// disabled at the provider (final: fiskaly never takes a DISABLED TSS
// back), and a new one is set up with the same API key; tse.json then
// names the new one, the old file is kept beside it.

// Disable takes the TSS to DISABLED (admin login with the PIN of
// tse.json, PATCH state DISABLED, logout). It is final at fiskaly; a TSS
// already DISABLED is left as it is.
func (f *Fiskaly) Disable(ctx context.Context) (TSSInfo, error) {
	info, err := f.TSS(ctx)
	if err != nil || info.State == TSSDisabled {
		return info, err
	}
	if err := f.AdminAuth(ctx, f.cfg.TSSID, f.cfg.AdminPIN); err != nil {
		return info, fmt.Errorf("admin login: %w", err)
	}
	info, err = f.SetTSSState(ctx, f.cfg.TSSID, TSSDisabled)
	if lerr := f.AdminLogout(context.WithoutCancel(ctx), f.cfg.TSSID); lerr != nil && err == nil {
		err = lerr
	}
	return info, err
}

// ReplacedSettingsFile is where the settings of a replaced TSS are kept
// (mode 0600, as tse.json: they hold its PUK and admin PIN).
func ReplacedSettingsFile(tssID string) string { return "tse-replaced-" + tssID + ".json" }

// SetupReplacement sets up a new TSS in place of old (tse.json's TSS)
// with the same URL and API key: tse.json is moved to
// ReplacedSettingsFile(old.TSSID), then Setup writes a new one (an
// interrupted setup resumes from tse-setup.json). Run again after it
// finished, it returns the new settings and does nothing.
func SetupReplacement(ctx context.Context, dataDir string, old Settings, out io.Writer, log *slog.Logger) (Settings, error) {
	final := filepath.Join(dataDir, SettingsFile)
	cur, err := ReadSettings(final)
	switch {
	case err == nil && cur.TSSID != old.TSSID:
		return cur, nil // done before
	case err == nil:
		kept := filepath.Join(dataDir, ReplacedSettingsFile(old.TSSID))
		if _, err := os.Stat(kept); err == nil {
			return Settings{}, fmt.Errorf("%s already exists: the old TSS's settings would be lost", kept)
		}
		if err := os.Rename(final, kept); err != nil {
			return Settings{}, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return Settings{}, err
	}
	if err := Setup(ctx, dataDir, old.URL, old.APIKey, old.APISecret, out, log); err != nil {
		return Settings{}, err
	}
	return ReadSettings(final)
}
