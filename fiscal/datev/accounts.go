package datev

import (
	"maps"
	"slices"
	"strconv"

	"posbox/store"
)

// Charts of accounts (Kontenrahmen) posbox has defaults for.
const (
	SKR03 = "SKR03"
	SKR04 = "SKR04"
)

// Charts are the charts of accounts an admin may choose.
var Charts = []string{SKR03, SKR04}

// Account is one entry of the mapping: its key (the API's), what it
// books, whether a batch needs it, and the two charts' defaults.
type Account struct {
	Key      string
	Label    string // German, as the batch's texts and the console name it
	Required bool   // every batch books it
	SKR03    string // "" when posbox knows no safe default
	SKR04    string
}

// Accounts is the mapping's key set, in the order the console lists it
// (docs/FISCAL.md, "The DATEV batch" has each default's source). Keys
// never change: saved settings and API clients name them. "bank" books
// nothing (money taken to the bank passes the transit account, which the
// bank statement clears); it stays so that saved settings remain valid.
var Accounts = []Account{
	{"cash", "Kasse", true, "1000", "1600"},
	{"transit", "Geldtransit (Tageslosung)", true, "1360", "1460"},
	{"non_cash", "Unbare Zahlungen (Karte)", true, "1361", "1461"},
	{"revenue_normal", "Erlöse 19 %", true, "8400", "4400"},
	{"revenue_reduced", "Erlöse 7 %", true, "8300", "4300"},
	{"revenue_special_1", "Erlöse 10,7 %", false, "", ""},
	{"revenue_special_2", "Erlöse 5,5 %", false, "", ""},
	{"revenue_null", "Erlöse ohne Umsatzsteuer", false, "", ""},
	{"tips", "Trinkgeld Personal (durchlaufend)", false, "1590", "1370"},
	{"vouchers", "Mehrzweckgutscheine", false, "1796", ""},
	{"bank", "Bank", false, "1200", "1800"},
	{"private_deposit", "Privateinlagen", false, "1890", "2180"},
	{"private_withdrawal", "Privatentnahmen", false, "1800", "2100"},
	{"wages", "Lohn- und Gehaltsverrechnung", false, "1755", "3790"},
	{"expenses", "Sonstige betriebliche Aufwendungen", false, "4900", "6300"},
	// Whether a surplus is revenue (with VAT) or other income is the
	// adviser's call, so posbox proposes no account.
	{"cash_difference", "Kassendifferenzen", false, "", ""},
}

// revenueKey is the revenue account's key of each fiskaly VAT rate.
var revenueKey = map[string]string{"NORMAL": "revenue_normal", "REDUCED_1": "revenue_reduced",
	"SPECIAL_RATE_1": "revenue_special_1", "SPECIAL_RATE_2": "revenue_special_2", "NULL": "revenue_null"}

// Defaults is the chart's default mapping.
func Defaults(chart string) map[string]string {
	out := map[string]string{}
	for _, a := range Accounts {
		out[a.Key] = a.SKR03
		if chart == SKR04 {
			out[a.Key] = a.SKR04
		}
	}
	return out
}

// WithDefaults is a saved mapping completed by the chart's defaults: a
// key saved before it existed takes its default, while a key saved empty
// stays empty (the admin cleared it).
func WithDefaults(chart string, saved map[string]string) map[string]string {
	out := Defaults(chart)
	for k, v := range saved {
		out[k] = v
	}
	return out
}

// Label is the account key's German name, or the key.
func Label(key string) string {
	for _, a := range Accounts {
		if a.Key == key {
			return a.Label
		}
	}
	return key
}

// Settings are a restaurant's DATEV settings: the adviser's and the
// client's numbers, the chart, the account length and the mapping.
type Settings struct {
	Consultant    int // Beraternummer, 0 when not set
	Client        int // Mandantennummer, 0 when not set
	Chart         string
	AccountLength int // Sachkontenlänge, 4 to 8
	Accounts      map[string]string
}

// DefaultSettings are the settings of a restaurant that saved none.
func DefaultSettings() Settings {
	return Settings{Chart: SKR03, AccountLength: 4, Accounts: Defaults(SKR03)}
}

// Limits of the header's numbers (DATEV's field lengths: 7 and 5 digits;
// a consultant number starts at 1001).
const (
	MinConsultant, MaxConsultant = 1001, 9999999
	MinClient, MaxClient         = 1, 99999
)

// Validate checks settings as a PUT gives them; the numbers may be 0
// (not yet known), the export then refuses.
func Validate(s Settings) error {
	var f store.Fields
	if !slices.Contains(Charts, s.Chart) {
		f.Add("chart", store.FOneOf, "must be SKR03 or SKR04", "values", Charts)
	}
	if s.Consultant != 0 && (s.Consultant < MinConsultant || s.Consultant > MaxConsultant) {
		f.Add("consultant_number", store.FOutOfRange, "must be the adviser's DATEV number, 1001 to 9999999", "min", MinConsultant, "max", MaxConsultant)
	}
	if s.Client != 0 && (s.Client < MinClient || s.Client > MaxClient) {
		f.Add("client_number", store.FOutOfRange, "must be the client's DATEV number, 1 to 99999", "min", MinClient, "max", MaxClient)
	}
	if s.AccountLength < 4 || s.AccountLength > 8 {
		f.Add("account_length", store.FOutOfRange, "must be 4 to 8 (DATEV's Sachkontenlänge)", "min", 4, "max", 8)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Accounts)) {
		if !slices.ContainsFunc(Accounts, func(a Account) bool { return a.Key == k }) {
			f.Add("accounts."+k, store.FNotAllowed, "is not an account of the mapping")
		}
	}
	for _, a := range Accounts {
		v := s.Accounts[a.Key]
		switch {
		case v == "" && a.Required:
			f.Add("accounts."+a.Key, store.FRequired, "every batch books this account")
		case v != "" && !digits(v):
			f.Add("accounts."+a.Key, store.FBadFormat, "must be an account number: digits only")
		case v != "" && len(v) != s.AccountLength && s.AccountLength >= 4 && s.AccountLength <= 8:
			f.Add("accounts."+a.Key, store.FLength, "must have as many digits as the account length ("+strconv.Itoa(s.AccountLength)+")",
				"min", s.AccountLength, "max", s.AccountLength)
		}
	}
	// The day's revenue passes through the transit account: booking it
	// against itself would book nothing.
	for _, k := range []string{"cash", "non_cash"} {
		if v := s.Accounts[k]; v != "" && v == s.Accounts["transit"] {
			f.Add("accounts."+k, store.FDuplicate, "must differ from the transit account")
		}
	}
	return f.Err()
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
