package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Discount types and scopes.
const (
	DiscountPercentage = "percentage"
	DiscountFixed      = "fixed"

	ScopeOrder    = "order"
	ScopeCategory = "category"
	ScopeItem     = "item"

	// Who may give a discount at the till (docs/API.md, "Manager-only
	// discounts").
	ApprovalNone       = "none"
	ApprovalAdmin      = "admin_approval"
	ApprovalAdminsOnly = "admins_only"
)

// Approvals are the values of a discount's approval.
var Approvals = []string{ApprovalNone, ApprovalAdmin, ApprovalAdminsOnly}

// Discount limits.
const (
	MaxDiscountNameLen = 200
	MaxDescriptionLen  = 2000
	MaxPercentage      = 100_00 // 100 % in hundredths of a percent
	// MaxPriority bounds a discount's stacking priority both ways: a
	// handful of ranks is all a restaurant needs, and a bound keeps typos
	// out.
	MaxPriority = 1000
)

// Discount is a price reduction the POS terminals redeem.
type Discount struct {
	ID           string
	RestaurantID string
	Name         string
	Description  *string
	Type         string // DiscountPercentage or DiscountFixed
	// Value is in hundredths: hundredths of a percent for a percentage
	// discount, cents for a fixed one.
	Value            int64
	MinOrderCents    *int64
	MaxDiscountCents *int64
	ApplicableTo     string // ScopeOrder, ScopeCategory or ScopeItem
	CategoryID       *string
	ItemID           *string
	ValidFrom        time.Time
	ValidUntil       *time.Time // nil: never expires
	UsageLimit       *int64     // nil: unlimited
	UsageCount       int64
	IsActive         bool
	// RequiresCode: the till must give one of the discount's codes.
	RequiresCode bool
	// Schedule is the weekly windows it may be redeemed in, sorted by
	// day and start; nil: around the clock.
	Schedule []ScheduleWindow
	// Combinable and Priority are its stacking (docs/API.md, "Stacking"):
	// whether it applies together with other combinable discounts when a
	// basket is priced, and its rank among them (higher first).
	Combinable bool
	Priority   int64
	// Approval is who may give it at the till: ApprovalNone (anyone),
	// ApprovalAdmin (staff with an admin's approval) or ApprovalAdminsOnly.
	Approval  string
	CreatedAt time.Time
	UpdatedAt time.Time
	// CategoryName and ItemName are the target's name in the POS's
	// catalogue; nil when the catalogue does not hold the id.
	CategoryName, ItemName *string
}

// DiscountUpdate is the body of a create or a partial update. Money and
// percentages are already hundredths, times already parsed.
type DiscountUpdate struct {
	Name              Field[string]
	Description       Field[string]
	Type              Field[string]
	Value             Field[int64]
	MinOrderAmount    Field[int64]
	MaxDiscountAmount Field[int64]
	ApplicableTo      Field[string]
	CategoryID        Field[string]
	ItemID            Field[string]
	ValidFrom         Field[time.Time]
	ValidUntil        Field[time.Time]
	UsageLimit        Field[int64]
	IsActive          Field[bool]
	RequiresCode      Field[bool]
	// Schedule replaces the windows whole; null removes them.
	Schedule   Field[[]ScheduleWindow]
	Combinable Field[bool]
	Priority   Field[int64]
	Approval   Field[string]
}

// apply merges u into d. Null is refused on fields that cannot be null.
func (d *Discount) apply(u DiscountUpdate, f *Fields) {
	NotNull(f, "name", u.Name)
	NotNull(f, "discount_type", u.Type)
	NotNull(f, "value", u.Value)
	NotNull(f, "applicable_to", u.ApplicableTo)
	NotNull(f, "valid_from", u.ValidFrom)
	NotNull(f, "is_active", u.IsActive)
	NotNull(f, "requires_code", u.RequiresCode)
	NotNull(f, "combinable", u.Combinable)
	NotNull(f, "priority", u.Priority)
	NotNull(f, "approval", u.Approval)
	u.Name.Apply(&d.Name)
	u.Description.ApplyNullable(&d.Description)
	u.Type.Apply(&d.Type)
	u.Value.Apply(&d.Value)
	u.MinOrderAmount.ApplyNullable(&d.MinOrderCents)
	u.MaxDiscountAmount.ApplyNullable(&d.MaxDiscountCents)
	u.ApplicableTo.Apply(&d.ApplicableTo)
	u.CategoryID.ApplyNullable(&d.CategoryID)
	u.ItemID.ApplyNullable(&d.ItemID)
	u.ValidFrom.Apply(&d.ValidFrom)
	u.ValidUntil.ApplyNullable(&d.ValidUntil)
	u.UsageLimit.ApplyNullable(&d.UsageLimit)
	u.IsActive.Apply(&d.IsActive)
	u.RequiresCode.Apply(&d.RequiresCode)
	u.Combinable.Apply(&d.Combinable)
	u.Priority.Apply(&d.Priority)
	u.Approval.Apply(&d.Approval)
	if u.Schedule.Set {
		d.Schedule = nil
		if !u.Schedule.Null {
			d.Schedule = append([]ScheduleWindow{}, u.Schedule.Value...)
			sortSchedule(d.Schedule)
		}
	}
	// Stored instants have millisecond precision; compare what is stored.
	d.ValidFrom = d.ValidFrom.UTC().Truncate(time.Millisecond)
	if d.ValidUntil != nil {
		t := d.ValidUntil.UTC().Truncate(time.Millisecond)
		d.ValidUntil = &t
	}
	d.Name = strings.TrimSpace(d.Name)
}

// validate checks the discount as a whole; the table's CHECK constraints
// mirror these rules.
func (d *Discount) validate(f *Fields) {
	if n := utf8.RuneCountInString(d.Name); n < 1 || n > MaxDiscountNameLen {
		f.Add("name", FLength, "must be 1-200 characters", "min", 1, "max", 200)
	}
	checkName(f, "name", d.Name)
	if d.Description != nil && utf8.RuneCountInString(*d.Description) > MaxDescriptionLen {
		f.Add("description", FTooLong, "must be at most 2000 characters", "max", 2000)
	}
	switch d.Type {
	case DiscountPercentage:
		if d.Value < 0 || d.Value > MaxPercentage {
			f.Add("value", FOutOfRange, "must be 0-100 for a percentage discount", "min", 0, "max", 100)
		}
	case DiscountFixed:
		if d.Value <= 0 {
			f.Add("value", FNotPositive, "must be greater than 0")
		}
	default:
		f.Add("discount_type", FOneOf, "must be percentage or fixed", "values", []string{"percentage", "fixed"})
		if d.Value <= 0 {
			f.Add("value", FNotPositive, "must be greater than 0")
		}
	}
	if d.MinOrderCents != nil && *d.MinOrderCents < 0 {
		f.Add("min_order_amount", FTooSmall, "must be 0 or more, or null", "min", 0)
	}
	if d.MaxDiscountCents != nil && *d.MaxDiscountCents < 0 {
		f.Add("max_discount_amount", FTooSmall, "must be 0 or more, or null", "min", 0)
	}
	switch d.ApplicableTo {
	case ScopeOrder, ScopeCategory, ScopeItem:
	default:
		f.Add("applicable_to", FOneOf, "must be order, category or item", "values", []string{"order", "category", "item"})
	}
	validTarget(f, "category_id", d.CategoryID, d.ApplicableTo, ScopeCategory)
	validTarget(f, "item_id", d.ItemID, d.ApplicableTo, ScopeItem)
	validInstant(f, "valid_from", d.ValidFrom)
	if d.ValidUntil != nil {
		validInstant(f, "valid_until", *d.ValidUntil)
		if !d.ValidUntil.After(d.ValidFrom) {
			f.Add("valid_until", FNotAfterField, "must be after valid_from", "field", "valid_from")
		}
	}
	if d.UsageLimit != nil {
		switch {
		case *d.UsageLimit < 1:
			f.Add("usage_limit", FTooSmall, "must be at least 1, or null for unlimited", "min", 1)
		case *d.UsageLimit < d.UsageCount:
			f.Add("usage_limit", FBelowUsed, fmt.Sprintf("must not be below the usage_count (%d)", d.UsageCount), "count", d.UsageCount)
		}
	}
	validSchedule(f, d.Schedule)
	if !slices.Contains(Approvals, d.Approval) {
		f.Add("approval", FOneOf, "must be one of "+strings.Join(Approvals, ", "), "values", Approvals)
	}
	if d.Priority < -MaxPriority || d.Priority > MaxPriority {
		f.Add("priority", FOutOfRange, "must be from -1000 to 1000", "min", -MaxPriority, "max", MaxPriority)
	}
}

// validTarget checks a scope's target id: a UUID exactly when applicable_to
// is scope, null otherwise.
func validTarget(f *Fields, field string, id *string, applicableTo, scope string) {
	switch {
	case applicableTo == scope && id == nil:
		f.Add(field, FRequired, "is required when applicable_to is "+scope)
	case applicableTo != scope && id != nil:
		f.Add(field, FNotAllowed, "must be null unless applicable_to is "+scope)
	case id != nil && !ValidID(*id):
		f.Add(field, FNotUUID, "must be a UUID")
	}
}

// validInstant keeps an instant within what TimeFormat can store.
func validInstant(f *Fields, field string, t time.Time) {
	if y := t.UTC().Year(); y < 1 || y > 9999 {
		f.Add(field, FDateOutOfRange, "must be between years 0001 and 9999 in UTC")
	}
}

// CreateDiscount validates in as a new discount of the restaurant and
// stores it. name, discount_type and value are required; applicable_to
// defaults to order, is_active to true, valid_from to now.
func (s *Store) CreateDiscount(ctx context.Context, restaurantID string, in DiscountUpdate) (*Discount, error) {
	var f Fields
	for _, r := range []struct {
		name string
		set  bool
	}{{"name", in.Name.Set}, {"discount_type", in.Type.Set}, {"value", in.Value.Set}} {
		if !r.set {
			f.Add(r.name, FRequired, "is required")
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var d *Discount
	err := s.write(ctx, func(tx *Tx) error {
		d = &Discount{ID: NewID(), RestaurantID: restaurantID, ApplicableTo: ScopeOrder, IsActive: true, Approval: ApprovalNone,
			ValidFrom: tx.Now, CreatedAt: tx.Now, UpdatedAt: tx.Now}
		var f Fields
		d.apply(in, &f)
		d.validate(&f)
		if err := f.Err(); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO discounts (id, restaurant_id, name, description, discount_type, value,
			min_order_cents, max_discount_cents, applicable_to, category_id, item_id, valid_from, valid_until,
			usage_limit, usage_count, is_active, requires_code, combinable, priority, approval, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
			d.ID, d.RestaurantID, d.Name, d.Description, d.Type, d.Value,
			d.MinOrderCents, d.MaxDiscountCents, d.ApplicableTo, d.CategoryID, d.ItemID, FormatTime(d.ValidFrom), nullTime(d.ValidUntil),
			d.UsageLimit, d.IsActive, d.RequiresCode, d.Combinable, d.Priority, d.Approval, FormatTime(d.CreatedAt), FormatTime(d.UpdatedAt))
		if err != nil {
			return err
		}
		if err := replaceSchedule(ctx, tx, d); err != nil {
			return err
		}
		return readTargetNames(ctx, tx, d)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

const discountColumns = `id, restaurant_id, name, description, discount_type, value, min_order_cents, max_discount_cents,
	applicable_to, category_id, item_id, valid_from, valid_until, usage_limit, usage_count, is_active, requires_code, combinable, priority, approval,
	created_at, updated_at, ` + scheduleColumn + `, ` + targetNameColumns

func scanDiscount(row scanner) (*Discount, error) {
	var d Discount
	var desc, cat, item sql.NullString
	var minOrder, maxDisc, limit sql.NullInt64
	var from, created, updated string
	var until, schedule, catName, itemName sql.NullString
	if err := row.Scan(&d.ID, &d.RestaurantID, &d.Name, &desc, &d.Type, &d.Value, &minOrder, &maxDisc,
		&d.ApplicableTo, &cat, &item, &from, &until, &limit, &d.UsageCount, &d.IsActive, &d.RequiresCode, &d.Combinable, &d.Priority, &d.Approval,
		&created, &updated, &schedule, &catName, &itemName); err != nil {
		return nil, err
	}
	d.CategoryName, d.ItemName = nullString(catName), nullString(itemName)
	var err error
	if d.Schedule, err = parseScheduleColumn(schedule); err != nil {
		return nil, err
	}
	d.Description, d.CategoryID, d.ItemID = nullString(desc), nullString(cat), nullString(item)
	d.MinOrderCents, d.MaxDiscountCents, d.UsageLimit = nullInt(minOrder), nullInt(maxDisc), nullInt(limit)
	d.ValidFrom, d.ValidUntil = ParseTime(from), parseNullTime(until)
	d.CreatedAt, d.UpdatedAt = ParseTime(created), ParseTime(updated)
	return &d, nil
}

// discountTx reads a discount of the restaurant inside tx.
func discountTx(ctx context.Context, tx *Tx, restaurantID, id string) (*Discount, error) {
	d, err := scanDiscount(tx.QueryRowContext(ctx, `SELECT `+discountColumns+` FROM discounts
		WHERE restaurant_id = ? AND id = ?`, restaurantID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("discount")
	}
	return d, err
}

// Discounts lists all discounts of the restaurant, inactive and expired
// ones included, newest first.
func (s *Store) Discounts(ctx context.Context, restaurantID string) ([]*Discount, error) {
	return queryAll(ctx, s.rs, scanDiscount, `SELECT `+discountColumns+` FROM discounts
		WHERE restaurant_id = ? ORDER BY created_at DESC, id DESC`, restaurantID)
}

// UpdateDiscount applies a partial update and validates the merged
// discount as a whole.
func (s *Store) UpdateDiscount(ctx context.Context, restaurantID, id string, upd DiscountUpdate) (*Discount, error) {
	var d *Discount
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		if d, err = discountTx(ctx, tx, restaurantID, id); err != nil {
			return err
		}
		var f Fields
		d.apply(upd, &f)
		d.validate(&f)
		if err := f.Err(); err != nil {
			return err
		}
		d.UpdatedAt = tx.Now
		_, err = tx.ExecContext(ctx, `UPDATE discounts SET name = ?, description = ?, discount_type = ?, value = ?,
			min_order_cents = ?, max_discount_cents = ?, applicable_to = ?, category_id = ?, item_id = ?,
			valid_from = ?, valid_until = ?, usage_limit = ?, is_active = ?, requires_code = ?, combinable = ?, priority = ?,
			approval = ?, updated_at = ? WHERE id = ?`,
			d.Name, d.Description, d.Type, d.Value, d.MinOrderCents, d.MaxDiscountCents, d.ApplicableTo, d.CategoryID, d.ItemID,
			FormatTime(d.ValidFrom), nullTime(d.ValidUntil), d.UsageLimit, d.IsActive, d.RequiresCode, d.Combinable, d.Priority,
			d.Approval, FormatTime(d.UpdatedAt), id)
		if err != nil {
			return err
		}
		if upd.Schedule.Set {
			if err := replaceSchedule(ctx, tx, d); err != nil {
				return err
			}
		}
		return readTargetNames(ctx, tx, d)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// DeleteDiscount removes a discount for good. Its redemptions stay, with
// the discount's id and name, for the reports.
func (s *Store) DeleteDiscount(ctx context.Context, restaurantID, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM discounts WHERE restaurant_id = ? AND id = ?`, restaurantID, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return NotFound("discount")
		}
		return nil
	})
}
