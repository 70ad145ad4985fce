package store

import (
	"context"
	"database/sql"
	"testing"
)

// The auth view answers from memory, and any commit of the writer that
// touches users or restaurants (here a raw statement no write function
// knows about) drops it before the writer answers.
func TestAuthViewDroppedByEveryWriteToUsersOrRestaurants(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	r := mustRestaurant(t, st, "Cafe")
	u := mustUser(t, st, r, "Sam", RoleStaff)
	got, err := st.AuthUser(ctx, r.ID, u.ID)
	if err != nil || got.TokenVersion != 0 {
		t.Fatalf("AuthUser = %+v, %v", got, err)
	}
	if _, err := st.AuthRestaurant(ctx, r.ID); err != nil {
		t.Fatal(err)
	}

	// A change behind the writer's back (another connection) is not
	// seen: the view is what answers, not a query.
	other, err := sql.Open("sqlite", "file:"+st.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Exec(`UPDATE users SET name = 'Behind' WHERE id = ?`, u.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.AuthUser(ctx, r.ID, u.ID); got.Name != "Sam" {
		t.Fatalf("name = %q: the view was not used", got.Name)
	}

	// Through the writer: the next read sees it.
	if err := st.Write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE users SET token_version = token_version + 1 WHERE id = ?`, u.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.AuthUser(ctx, r.ID, u.ID); got.TokenVersion != 1 || got.Name != "Behind" {
		t.Fatalf("after a bump: %+v, want token version 1", got)
	}
	if err := st.Write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE restaurants SET timezone = 'America/New_York' WHERE id = ?`, r.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	rr, err := st.AuthRestaurant(ctx, r.ID)
	if err != nil || rr.Timezone != "America/New_York" || rr.Location().String() != "America/New_York" {
		t.Fatalf("restaurant after a change: %+v, %v", rr, err)
	}
	// A write to other tables keeps the view.
	if got, _ := st.AuthUser(ctx, r.ID, u.ID); got.Name != "Behind" {
		t.Fatalf("name = %q", got.Name)
	}
	if _, err := other.Exec(`UPDATE users SET name = 'Behind again' WHERE id = ?`, u.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.SetKV(ctx, "unrelated", "1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.AuthUser(ctx, r.ID, u.ID); got.Name != "Behind" {
		t.Fatalf("name = %q: an unrelated write dropped the view", got.Name)
	}
	// A user of another restaurant is not found, from the view or not.
	if _, err := st.AuthUser(ctx, "other", u.ID); ErrorCode(err) != ENotFound {
		t.Fatalf("foreign restaurant: %v", err)
	}
	// A deleted user is out at once.
	if err := st.DeleteUser(ctx, r.ID, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AuthUser(ctx, r.ID, u.ID); ErrorCode(err) != ENotFound {
		t.Fatalf("deleted user: %v", err)
	}
}
