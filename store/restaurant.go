package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Restaurant is one tenant of the appliance.
type Restaurant struct {
	ID        string
	Name      string
	Timezone  string
	CreatedAt time.Time
}

// Location is the restaurant's timezone; it decides what "today" is.
func (r *Restaurant) Location() *time.Location {
	loc, err := loadLocation(r.Timezone)
	if err != nil { // validated on create; tzdata is embedded
		return time.UTC
	}
	return loc
}

// CreateRestaurant adds a restaurant.
func (s *Store) CreateRestaurant(ctx context.Context, r *Restaurant) error {
	var f Fields
	if r.Name == "" {
		f.Add("name", "is required")
	}
	if _, err := time.LoadLocation(r.Timezone); err != nil || r.Timezone == "" {
		f.Add("timezone", "must be an IANA timezone such as Europe/Berlin")
	}
	if err := f.Err(); err != nil {
		return err
	}
	return s.write(ctx, func(tx *Tx) error {
		r.ID, r.CreatedAt = NewID(), tx.Now
		_, err := tx.ExecContext(ctx, `INSERT INTO restaurants (id, name, timezone, created_at) VALUES (?, ?, ?, ?)`,
			r.ID, r.Name, r.Timezone, FormatTime(r.CreatedAt))
		return err
	})
}

// Restaurant finds a restaurant by id.
func (s *Store) Restaurant(ctx context.Context, id string) (*Restaurant, error) {
	var r Restaurant
	var created string
	err := s.rs.QueryRowContext(ctx, `SELECT id, name, timezone, created_at FROM restaurants WHERE id = ?`, id).
		Scan(&r.ID, &r.Name, &r.Timezone, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("restaurant")
	}
	if err != nil {
		return nil, err
	}
	r.CreatedAt = ParseTime(created)
	return &r, nil
}

// Restaurants lists every restaurant, oldest first.
func (s *Store) Restaurants(ctx context.Context) ([]*Restaurant, error) {
	rows, err := s.rs.QueryContext(ctx, `SELECT id, name, timezone, created_at FROM restaurants ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Restaurant
	for rows.Next() {
		var r Restaurant
		var created string
		if err := rows.Scan(&r.ID, &r.Name, &r.Timezone, &created); err != nil {
			return nil, err
		}
		r.CreatedAt = ParseTime(created)
		out = append(out, &r)
	}
	return out, rows.Err()
}
