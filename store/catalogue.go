package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The POS catalogue's bounds (docs/API.md, "The POS catalogue").
const (
	MaxCatalogueCategories = 500
	MaxCatalogueItems      = 5000
	MaxCatalogueNameLen    = 200
	// maxCatalogueErrors caps the field errors of one catalogue: a till
	// that sends 5000 broken items needs the first few, not 5000.
	maxCatalogueErrors = 50
)

// CatalogueVATRates are fiskaly's rate names an item may carry, as a
// sale's (posbox/fiscal's VATRates; a server test holds them equal).
var CatalogueVATRates = []string{"NORMAL", "REDUCED_1", "SPECIAL_RATE_1", "SPECIAL_RATE_2", "NULL"}

// CatalogueCategory is a menu category of the POS, by the POS's id.
type CatalogueCategory struct {
	ID, Name  string
	UpdatedAt time.Time
}

// CatalogueItem is a menu item of the POS, by the POS's id.
type CatalogueItem struct {
	ID, Name   string
	CategoryID *string // nil: the item has no category
	VATRate    string
	UpdatedAt  time.Time
}

// Catalogue is what the till last sent: categories and items by name.
type Catalogue struct {
	Categories []CatalogueCategory
	Items      []CatalogueItem
}

// validate checks a catalogue sent whole; fields are named like
// "items[3].vat_rate".
func (c *Catalogue) validate(f *Fields) {
	switch {
	case len(c.Categories) > MaxCatalogueCategories:
		f.Add("categories", FTooMany, fmt.Sprintf("must have at most %d entries", MaxCatalogueCategories), "max", MaxCatalogueCategories)
	case len(c.Items) > MaxCatalogueItems:
		f.Add("items", FTooMany, fmt.Sprintf("must have at most %d entries", MaxCatalogueItems), "max", MaxCatalogueItems)
	}
	if len(*f) > 0 {
		return
	}
	seen := map[string]bool{}
	for i, cat := range c.Categories {
		at := fmt.Sprintf("categories[%d].", i)
		validCatalogueEntry(f, at, cat.ID, cat.Name, seen)
	}
	clear(seen)
	for i, it := range c.Items {
		at := fmt.Sprintf("items[%d].", i)
		validCatalogueEntry(f, at, it.ID, it.Name, seen)
		if it.CategoryID != nil && !ValidID(*it.CategoryID) {
			f.Add(at+"category_id", FNotUUID, "must be a UUID (lowercase), or null")
		}
		if !slices.Contains(CatalogueVATRates, it.VATRate) {
			f.Add(at+"vat_rate", FOneOf, "must be one of "+strings.Join(CatalogueVATRates, ", "), "values", CatalogueVATRates)
		}
		if len(*f) >= maxCatalogueErrors {
			break
		}
	}
	if len(*f) > maxCatalogueErrors {
		*f = (*f)[:maxCatalogueErrors]
	}
}

// validCatalogueEntry checks an entry's id (a lowercase UUID, once in its
// list) and name (1-200 characters, one line).
func validCatalogueEntry(f *Fields, at, id, name string, seen map[string]bool) {
	switch {
	case !ValidID(id):
		f.Add(at+"id", FNotUUID, "must be a UUID (lowercase)")
	case seen[id]:
		f.Add(at+"id", FDuplicate, "is in the list twice")
	}
	seen[id] = true
	if n := utf8.RuneCountInString(name); n < 1 || n > MaxCatalogueNameLen {
		f.Add(at+"name", FLength, "must be 1-200 characters", "min", 1, "max", MaxCatalogueNameLen)
	}
	checkName(f, at+"name", name)
}

// ReplaceCatalogue replaces the restaurant's catalogue whole with c, in
// one transaction: what c does not hold is gone. Names are trimmed.
func (s *Store) ReplaceCatalogue(ctx context.Context, restaurantID string, c Catalogue) (*Catalogue, error) {
	for i := range c.Categories {
		c.Categories[i].Name = strings.TrimSpace(c.Categories[i].Name)
	}
	for i := range c.Items {
		c.Items[i].Name = strings.TrimSpace(c.Items[i].Name)
	}
	var f Fields
	c.validate(&f)
	if err := f.Err(); err != nil {
		return nil, err
	}
	err := s.write(ctx, func(tx *Tx) error {
		for _, table := range []string{"pos_categories", "pos_items"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE restaurant_id = ?`, restaurantID); err != nil {
				return err
			}
		}
		return insertCatalogue(ctx, tx, restaurantID, &c)
	})
	if err != nil {
		return nil, err
	}
	return s.Catalogue(ctx, restaurantID)
}

// insertCatalogue writes c's rows, stamped with the transaction's time.
func insertCatalogue(ctx context.Context, tx *Tx, restaurantID string, c *Catalogue) error {
	cats, err := tx.PrepareContext(ctx, `INSERT INTO pos_categories (restaurant_id, id, name, updated_at) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer cats.Close()
	for _, cat := range c.Categories {
		if _, err := cats.ExecContext(ctx, restaurantID, cat.ID, cat.Name, tx.NowText()); err != nil {
			return err
		}
	}
	items, err := tx.PrepareContext(ctx, `INSERT INTO pos_items (restaurant_id, id, name, category_id, vat_rate, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer items.Close()
	for _, it := range c.Items {
		if _, err := items.ExecContext(ctx, restaurantID, it.ID, it.Name, it.CategoryID, it.VATRate, tx.NowText()); err != nil {
			return err
		}
	}
	return nil
}

// Catalogue reads the restaurant's catalogue, each list by name (then
// id); empty lists before the till first sent one.
func (s *Store) Catalogue(ctx context.Context, restaurantID string) (*Catalogue, error) {
	cats, err := queryAll(ctx, s.rs, func(sc scanner) (CatalogueCategory, error) {
		var c CatalogueCategory
		var at string
		err := sc.Scan(&c.ID, &c.Name, &at)
		c.UpdatedAt = ParseTime(at)
		return c, err
	}, `SELECT id, name, updated_at FROM pos_categories WHERE restaurant_id = ? ORDER BY name, id`, restaurantID)
	if err != nil {
		return nil, err
	}
	items, err := queryAll(ctx, s.rs, func(sc scanner) (CatalogueItem, error) {
		var it CatalogueItem
		var cat sql.NullString
		var at string
		err := sc.Scan(&it.ID, &it.Name, &cat, &it.VATRate, &at)
		it.CategoryID, it.UpdatedAt = nullString(cat), ParseTime(at)
		return it, err
	}, `SELECT id, name, category_id, vat_rate, updated_at FROM pos_items WHERE restaurant_id = ? ORDER BY name, id`, restaurantID)
	if err != nil {
		return nil, err
	}
	return &Catalogue{Categories: cats, Items: items}, nil
}

// targetNameColumns read a discount's target names from the catalogue
// with its row (NULL: no target, or an id the catalogue does not hold).
const targetNameColumns = `(SELECT name FROM pos_categories WHERE restaurant_id = discounts.restaurant_id AND id = discounts.category_id),
	(SELECT name FROM pos_items WHERE restaurant_id = discounts.restaurant_id AND id = discounts.item_id)`

// readTargetNames fills d's target names after a write.
func readTargetNames(ctx context.Context, tx *Tx, d *Discount) error {
	var cat, item sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT
		(SELECT name FROM pos_categories WHERE restaurant_id = ? AND id = ?),
		(SELECT name FROM pos_items WHERE restaurant_id = ? AND id = ?)`, d.RestaurantID, d.CategoryID, d.RestaurantID, d.ItemID).Scan(&cat, &item)
	d.CategoryName, d.ItemName = nullString(cat), nullString(item)
	return err
}
