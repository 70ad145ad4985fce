package seed

import (
	"context"
	"fmt"
	"time"

	"posbox/store"
)

// staffSize is how many work there at any time; leavesPerYear of them
// leave in a year by default (Options.LeavesPerYear).
const (
	staffSize        = 30
	leavesPerYear    = 8
	staffPIN         = "2468"
	firstStaffNumber = 1001
)

var firstNames = []string{"Anna", "Ben", "Clara", "Deniz", "Elif", "Felix", "Greta", "Hannes", "Ida", "Jonas", "Kemal", "Lena",
	"Mats", "Nora", "Oskar", "Paula", "Rami", "Sofia", "Tim", "Ute", "Vera", "Willi", "Yara", "Zoe"}
var lastNames = []string{"Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
	"Koch", "Richter", "Yılmaz", "Kaya", "Nowak", "Rossi"}

// hire adds one staff member with a staff number and a till PIN.
func (g *gen) hire(ctx context.Context) error {
	n := firstStaffNumber + g.hired
	u := &store.User{RestaurantID: g.r.ID, Role: store.RoleStaff, StaffNumber: fmt.Sprint(n),
		Name: firstNames[g.rnd.IntN(len(firstNames))] + " " + lastNames[g.rnd.IntN(len(lastNames))]}
	if err := g.st.CreateUserWith(ctx, u, "", staffPIN); err != nil {
		return err
	}
	g.hired++
	g.res.Staff++
	g.staff = append(g.staff, u)
	return nil
}

// turnover lets someone leave now and then (deactivated, as an admin
// does it; their planned shifts stay as unstaffed) and hires a successor.
func (g *gen) turnover(ctx context.Context, day time.Time) error {
	if g.rnd.IntN(365) >= g.o.LeavesPerYear {
		return nil
	}
	g.clock.Set(g.at(day, 9, 0))
	for range max(1, g.o.LeavesPerYear/365) {
		if err := g.leave(ctx); err != nil {
			return err
		}
	}
	return nil
}

// leave deactivates one of the staff and hires a successor.
func (g *gen) leave(ctx context.Context) error {
	i := g.rnd.IntN(len(g.staff))
	u := g.staff[i]
	if _, err := g.st.UpdateUser(ctx, g.r.ID, u.ID, store.UserUpdate{IsActive: store.Of(false), ByUserID: g.admin.ID}); err != nil {
		return err
	}
	g.staff = append(g.staff[:i], g.staff[i+1:]...)
	g.res.Left++
	return g.hire(ctx)
}
