package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Restaurant is one tenant of the appliance.
type Restaurant struct {
	ID        string
	Name      string
	Timezone  string
	CreatedAt time.Time
	// Time-clock settings (migration 00008, docs/TIMECLOCK.md).
	FederalState        string // two-letter state whose holidays count (§ 3b EStG); "" nationwide only
	OpenEntryLimitHours int    // an entry open longer is flagged for review
	MinRestHours        int    // ArbZG § 5: 11, or 10 under the hospitality exception
	// SaleEventsBy says who raises new_order, payment_received and
	// order_cancelled: SaleEventsByPosbox or SaleEventsByPOS.
	SaleEventsBy string
}

// Who raises the events of sales (Restaurant.SaleEventsBy).
const (
	SaleEventsByPosbox = "posbox" // from the sales it records (the default)
	SaleEventsByPOS    = "pos"    // the POS posts them itself
)

// SaleEventsBySources are SaleEventsBy's values.
var SaleEventsBySources = []string{SaleEventsByPosbox, SaleEventsByPOS}

// MaxRestaurantNameLen bounds a restaurant's name (characters): it heads
// emails and the §146a report.
const MaxRestaurantNameLen = 100

// Defaults of the time-clock settings (the columns' defaults).
const (
	DefaultOpenEntryLimitHours = 16
	DefaultMinRestHours        = 11
)

// FederalStates are the German states' codes (ISO 3166-2:DE without "DE-").
var FederalStates = []string{"BW", "BY", "BE", "BB", "HB", "HH", "HE", "MV", "NI", "NW", "RP", "SL", "SN", "ST", "SH", "TH"}

// Location is the restaurant's timezone; it decides what "today" is.
func (r *Restaurant) Location() *time.Location {
	loc, err := loadLocation(r.Timezone)
	if err != nil { // validated on create; tzdata is embedded
		return time.UTC
	}
	return loc
}

// CreateRestaurant adds a restaurant with the default time-clock settings.
func (s *Store) CreateRestaurant(ctx context.Context, r *Restaurant) error {
	var f Fields
	if r.Name == "" {
		f.Add("name", FRequired, "is required")
	}
	if _, err := time.LoadLocation(r.Timezone); err != nil || r.Timezone == "" {
		f.Add("timezone", FNotTimezone, "must be an IANA timezone such as Europe/Berlin")
	}
	if err := f.Err(); err != nil {
		return err
	}
	return s.write(ctx, func(tx *Tx) error {
		r.ID, r.CreatedAt = NewID(), tx.Now
		r.OpenEntryLimitHours, r.MinRestHours, r.SaleEventsBy = DefaultOpenEntryLimitHours, DefaultMinRestHours, SaleEventsByPosbox
		_, err := tx.ExecContext(ctx, `INSERT INTO restaurants (id, name, timezone, created_at) VALUES (?, ?, ?, ?)`,
			r.ID, r.Name, r.Timezone, FormatTime(r.CreatedAt))
		return err
	})
}

// RestaurantSettings is a partial update of a restaurant's time-clock
// settings: only the fields that are Set change.
type RestaurantSettings struct {
	Name                Field[string]
	FederalState        Field[string]
	OpenEntryLimitHours Field[int]
	MinRestHours        Field[int]
	SaleEventsBy        Field[string]
}

// UpdateRestaurantSettings applies a partial update of the name and the
// time-clock settings; federal_state may be null (nationwide holidays only).
func (s *Store) UpdateRestaurantSettings(ctx context.Context, id string, upd RestaurantSettings) (*Restaurant, error) {
	var f Fields
	NotNull(&f, "name", upd.Name)
	if v := upd.Name; v.Set && !v.Null {
		if strings.TrimSpace(v.Value) == "" {
			f.Add("name", FRequired, "is required")
		} else if utf8.RuneCountInString(v.Value) > MaxRestaurantNameLen {
			f.Add("name", FTooLong, "must be at most 100 characters", "max", MaxRestaurantNameLen)
		}
		checkName(&f, "name", v.Value)
	}
	NotNull(&f, "open_entry_limit_hours", upd.OpenEntryLimitHours)
	NotNull(&f, "min_rest_hours", upd.MinRestHours)
	if upd.FederalState.Set && !upd.FederalState.Null && !slices.Contains(FederalStates, upd.FederalState.Value) {
		f.Add("federal_state", FOneOf, "must be a German state's code (BW, BY, BE, BB, HB, HH, HE, MV, NI, NW, RP, SL, SN, ST, SH, TH) or null", "values", FederalStates)
	}
	if v := upd.OpenEntryLimitHours; v.Set && !v.Null && (v.Value < 1 || v.Value > 72) {
		f.Add("open_entry_limit_hours", FOutOfRange, "must be 1-72", "min", 1, "max", 72)
	}
	if v := upd.MinRestHours; v.Set && !v.Null && v.Value != 10 && v.Value != 11 {
		f.Add("min_rest_hours", FOneOf, "must be 11 (ArbZG § 5 (1)) or 10 (the hospitality exception of § 5 (2))", "values", []int{10, 11})
	}
	NotNull(&f, "sale_events_by", upd.SaleEventsBy)
	if v := upd.SaleEventsBy; v.Set && !v.Null && !slices.Contains(SaleEventsBySources, v.Value) {
		f.Add("sale_events_by", FOneOf, "must be posbox (posbox raises them from the sales it records) or pos (the POS posts them)", "values", SaleEventsBySources)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var r *Restaurant
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		if r, err = scanRestaurant(tx.QueryRowContext(ctx, `SELECT `+restaurantColumns+` FROM restaurants WHERE id = ?`, id)); err != nil {
			return err
		}
		if upd.FederalState.Set {
			r.FederalState = ""
			if !upd.FederalState.Null {
				r.FederalState = upd.FederalState.Value
			}
		}
		upd.Name.Apply(&r.Name)
		upd.OpenEntryLimitHours.Apply(&r.OpenEntryLimitHours)
		upd.MinRestHours.Apply(&r.MinRestHours)
		upd.SaleEventsBy.Apply(&r.SaleEventsBy)
		_, err = tx.ExecContext(ctx, `UPDATE restaurants SET name = ?, federal_state = ?, open_entry_limit_hours = ?, min_rest_hours = ?,
			sale_events_by = ? WHERE id = ?`, r.Name, emptyToNull(r.FederalState), r.OpenEntryLimitHours, r.MinRestHours, r.SaleEventsBy, id)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("restaurant")
	}
	return r, err
}

// restaurantColumns are scanRestaurant's; HQ reads boxes of older
// releases too, which may lack the newest, so it names hqRestaurantColumns.
const (
	restaurantBaseColumns = `id, name, timezone, created_at, federal_state, open_entry_limit_hours, min_rest_hours`
	restaurantColumns     = restaurantBaseColumns + `, sale_events_by`
	hqRestaurantColumns   = restaurantBaseColumns + `, '' AS sale_events_by` // HQ shows no events' source
)

func scanRestaurant(row scanner) (*Restaurant, error) {
	var r Restaurant
	var created string
	var state sql.NullString
	if err := row.Scan(&r.ID, &r.Name, &r.Timezone, &created, &state, &r.OpenEntryLimitHours, &r.MinRestHours, &r.SaleEventsBy); err != nil {
		return nil, err
	}
	r.CreatedAt, r.FederalState = ParseTime(created), state.String
	return &r, nil
}

// Restaurant finds a restaurant by id.
func (s *Store) Restaurant(ctx context.Context, id string) (*Restaurant, error) {
	r, err := scanRestaurant(s.rs.QueryRowContext(ctx, `SELECT `+restaurantColumns+` FROM restaurants WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("restaurant")
	}
	return r, err
}

// Restaurants lists every restaurant, oldest first.
func (s *Store) Restaurants(ctx context.Context) ([]*Restaurant, error) {
	return queryAll(ctx, s.rs, scanRestaurant, `SELECT `+restaurantColumns+` FROM restaurants ORDER BY created_at, id`)
}
