package store

import (
	"context"
	"database/sql"
	"time"
)

// FormerUser is a user an admin deleted whose personal data is not erased
// yet: the console lists them so that the erasure (EraseUser) reaches the
// staff who left the way owners remove them, with "delete".
type FormerUser struct {
	ID          string
	Name        string
	StaffNumber string // "" for none
	DeletedAt   time.Time
}

// FormerUsers lists a restaurant's deleted, not yet erased users, most
// recently deleted first.
func (s *Store) FormerUsers(ctx context.Context, restaurantID string) ([]*FormerUser, error) {
	return queryAll(ctx, s.rs, func(sc scanner) (*FormerUser, error) {
		var u FormerUser
		var staffNo sql.NullString
		var at string
		err := sc.Scan(&u.ID, &u.Name, &staffNo, &at)
		u.StaffNumber, u.DeletedAt = staffNo.String, ParseTime(at)
		return &u, err
	}, `SELECT id, name, staff_number, deleted_at FROM users
		WHERE restaurant_id = ? AND deleted_at IS NOT NULL AND erased_at IS NULL
		ORDER BY deleted_at DESC, name, id`, restaurantID)
}
