package store

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"
)

// authView is the users and restaurants as authentication sees them, so
// a request costs no query to learn who calls, and the users' names and
// states as the lists of shifts show them. It is dropped as a whole
// after every commit that changed a row of users or restaurants: the
// writer's pre-update hook (writer.go) sees every row any statement
// changes, so no write function, present or future, has to remember to
// invalidate it, and the drop happens before the writer answers anyone,
// so a request that follows a disable, a role or password change or a
// token-version bump is checked against the new row. A write from another
// process (posbox user add) only adds users, which a miss reads.
//
// A reader that loaded a row while a commit was being made must not put
// the old row back after the drop: gen moves on every drop, and a row is
// kept only if gen did not move since the reader began.
type authView struct {
	mu    sync.RWMutex
	gen   uint64
	users map[string]*User
	rests map[string]*Restaurant
	// names holds users as a list of shifts shows them, deleted ones too
	// (nameShifts).
	names map[string]shiftUser
}

// shiftUser is a shift's user as the shift lists show it.
type shiftUser struct {
	name   string
	active bool // is_active and not deleted
}

func newAuthView() *authView {
	return &authView{users: map[string]*User{}, rests: map[string]*Restaurant{}, names: map[string]shiftUser{}}
}

func (v *authView) invalidate() {
	v.mu.Lock()
	v.gen++
	clear(v.users)
	clear(v.rests)
	clear(v.names)
	v.mu.Unlock()
}

// nameShifts sets each shift's user name and state from the view,
// reading the users it does not hold in one query.
func (s *Store) nameShifts(ctx context.Context, shs []*Shift) error {
	v := s.auth
	var missing []string
	v.mu.RLock()
	gen := v.gen
	for _, sh := range shs {
		if u, ok := v.names[sh.UserID]; ok {
			sh.UserName, sh.UserActive = u.name, u.active
		} else if !slices.Contains(missing, sh.UserID) {
			missing = append(missing, sh.UserID)
		}
	}
	v.mu.RUnlock()
	if len(missing) == 0 {
		return nil
	}
	got := make(map[string]shiftUser, len(missing))
	if err := eachRow(ctx, s.rs, func(sc scanner) error {
		var id string
		var u shiftUser
		if err := sc.Scan(&id, &u.name, &u.active); err != nil {
			return err
		}
		got[id] = u
		return nil
	}, `SELECT id, name, (is_active = 1 AND deleted_at IS NULL) FROM users WHERE id IN (SELECT value FROM json_each(?))`,
		jsonList(missing)); err != nil {
		return err
	}
	v.mu.Lock()
	if v.gen == gen {
		maps.Copy(v.names, got)
	}
	v.mu.Unlock()
	for _, sh := range shs {
		if u, ok := got[sh.UserID]; ok {
			sh.UserName, sh.UserActive = u.name, u.active
		}
	}
	return nil
}

// AuthUser is User for authentication: a live user of the restaurant,
// from the view when it holds the user. The caller gets its own copy.
func (s *Store) AuthUser(ctx context.Context, restaurantID, id string) (*User, error) {
	v := s.auth
	v.mu.RLock()
	u, gen := v.users[id], v.gen
	v.mu.RUnlock()
	if u == nil {
		var err error
		if u, err = s.userWhere(ctx, `id = ?`, id); err != nil {
			return nil, err
		}
		v.mu.Lock()
		if v.gen == gen {
			v.users[id] = u
		}
		v.mu.Unlock()
	}
	if u.RestaurantID != restaurantID {
		return nil, NotFound("user")
	}
	c := *u
	return &c, nil
}

// AuthRestaurant is Restaurant from the view. The caller gets its own copy.
func (s *Store) AuthRestaurant(ctx context.Context, id string) (*Restaurant, error) {
	v := s.auth
	v.mu.RLock()
	r, gen := v.rests[id], v.gen
	v.mu.RUnlock()
	if r == nil {
		var err error
		if r, err = s.Restaurant(ctx, id); err != nil {
			return nil, err
		}
		r.Location() // load the zone now, not in a request
		v.mu.Lock()
		if v.gen == gen {
			v.rests[id] = r
		}
		v.mu.Unlock()
	}
	c := *r
	return &c, nil
}

// locations holds each timezone loaded once (a *time.Location is
// immutable; LoadLocation reads and parses the zone file on every call).
var locations sync.Map // name -> *time.Location

func loadLocation(name string) (*time.Location, error) {
	if l, ok := locations.Load(name); ok {
		return l.(*time.Location), nil
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	locations.Store(name, l)
	return l, nil
}
