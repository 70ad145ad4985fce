package store

import (
	"context"
	"posbox/store/storetest"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// An unknown email costs the same bcrypt work as a wrong password: the
// dummy hash compared for it has the store's own cost, so login timing
// does not tell which emails exist.
func TestAuthenticateUnknownEmailCostsAsMuch(t *testing.T) {
	opts := testStoreOptions(storetest.NewClock(testStart))
	opts.BcryptCost = bcrypt.MinCost + 2
	st, err := Open(context.Background(), t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := mustRestaurant(t, st, "R")
	u := mustUser(t, st, r, "sam@test.local", RoleStaff)
	real, err := st.userWhere(context.Background(), `email = ?`, u.Email)
	if err != nil {
		t.Fatal(err)
	}
	realCost, _ := bcrypt.Cost([]byte(real.PasswordHash))
	dummyCost, err := bcrypt.Cost(st.dummyHash())
	if err != nil || dummyCost != realCost {
		t.Fatalf("dummy hash cost %d (%v), a real hash's %d", dummyCost, err, realCost)
	}
	if _, err := st.Authenticate(context.Background(), "nobody@test.local", "password1"); !IsNotFound(err) {
		t.Fatalf("unknown email: %v", err)
	}
}
