package tse

// The provider's files in the data dir: tse.json, written by `posbox tse
// setup`, switches the appliance from the embedded simulator to fiskaly;
// tse-setup.json keeps an unfinished setup (fiskaly shows the PUK only
// once); tse-sim/ holds the embedded simulator's keys and journal. All
// three travel in a complete backup.

import (
	"encoding/json"
	"fmt"
	"os"
	"posbox/internal/secretfile"
	"time"
)

const (
	// SettingsFile, written by `posbox tse setup`, switches the appliance
	// from the embedded simulator to fiskaly.
	SettingsFile = "tse.json"
	// SetupFile keeps an unfinished setup (the PUK is shown only once).
	SetupFile = "tse-setup.json"
	// SimDir holds the embedded simulator's keys and journal.
	SimDir = "tse-sim"
)

// Settings is DATA_DIR/tse.json (mode 0600): what the appliance needs to
// sign with a fiskaly TSS, and what an admin needs to manage it.
// tse-setup.json has the same form.
type Settings struct {
	Provider  string    `json:"provider"` // "fiskaly"
	URL       string    `json:"url"`
	APIKey    string    `json:"api_key"`
	APISecret string    `json:"api_secret"`
	TSSID     string    `json:"tss_id"`
	AdminPUK  string    `json:"admin_puk"`
	AdminPIN  string    `json:"admin_pin"`
	CreatedAt time.Time `json:"created_at"`
}

// ReadSettings reads a tse.json and checks it names a fiskaly TSS with
// its credentials. A missing file is fs.ErrNotExist.
func ReadSettings(path string) (Settings, error) {
	var c Settings
	b, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	if c.Provider != KindFiskaly || c.URL == "" || c.APIKey == "" || c.APISecret == "" || c.TSSID == "" {
		return c, fmt.Errorf("%s: want provider fiskaly with url, api_key, api_secret and tss_id", path)
	}
	return c, nil
}

// writeSettings writes c as a new file (mode 0600, never replacing one):
// it holds the API secret, the PUK and the admin PIN.
func writeSettings(path string, c Settings) error {
	data, _ := json.MarshalIndent(c, "", "  ")
	return secretfile.Create(path, append(data, '\n'))
}
