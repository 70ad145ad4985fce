package store

import (
	"context"
	"database/sql"
	"errors"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"
)

// Roles.
const (
	RoleAdmin = "admin"
	RoleStaff = "staff"
	// RoleAuditor is the tax office's auditor: reads the fiscal records
	// only, until ValidUntil (auditor.go, docs/FISCAL.md).
	RoleAuditor = "auditor"
)

// User is a person who logs in: an administrator, a staff member or the
// tax office's auditor.
type User struct {
	ID           string
	RestaurantID string
	Email        string
	Name         string
	Role         string
	IsActive     bool
	PasswordHash string
	// TokenVersion is carried by every token issued to the user; a token
	// of an older version is refused (a password, role or is_active change
	// moves it on).
	TokenVersion int
	// StaffNumber is the payroll's personnel number; "" when not set.
	StaffNumber string
	// MustChangePassword: the password was set by someone else (the
	// generated first one, an admin's reset); the console asks its owner
	// for a new one before anything else.
	MustChangePassword bool
	// PINHash is the bcrypt of the till PIN; "" when the user has none.
	PINHash string
	// ValidUntil is an auditor's last day, a local date YYYY-MM-DD in the
	// restaurant's timezone; "" for every other role.
	ValidUntil string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// HasPIN reports whether the user can log in with staff number and PIN.
func (u *User) HasPIN() bool { return u.PINHash != "" }

// UserUpdate is a partial update of a user.
type UserUpdate struct {
	// Email: null removes it (a staff member with staff number and PIN);
	// the password goes with it, as nothing could log in with it.
	Email    Field[string]
	Name     Field[string]
	Role     Field[string]
	IsActive Field[bool]
	Password Field[string]
	// StaffNumber: null clears it.
	StaffNumber Field[string]
	// PIN: null removes it.
	PIN Field[string]
	// ValidUntil: an auditor's last day (YYYY-MM-DD); another role has none.
	ValidUntil Field[string]
	// ByUserID is who makes the change: a password set by anyone but its
	// owner must be changed by the owner at the next login.
	ByUserID string
}

// Password limits: bcrypt reads at most 72 bytes.
const (
	MinPasswordLen = 8
	MaxPasswordLen = 72
)

// MaxEmailLen is the longest address (RFC 5321's path limit less "<>").
const MaxEmailLen = 254

// validEmail accepts one bare address and nothing else.
func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && len(s) <= MaxEmailLen
}

func (u *User) validate(f *Fields) {
	switch {
	case u.Email != "" && !validEmail(u.Email):
		f.Add("email", FNotEmail, "must be an email address")
	case u.Email != "" && u.PasswordHash == "":
		f.Add("password", FRequired, "is required to log in by email")
	case u.Email == "" && u.Role == RoleAdmin:
		f.Add("email", FRequired, "is required for an admin")
	case u.Email == "" && (u.StaffNumber == "" || !u.HasPIN()):
		f.Add("email", FRequired, "is required unless staff number and PIN are given")
	}
	if u.HasPIN() && u.StaffNumber == "" {
		f.Add("staff_number", FRequired, "is required for a PIN login")
	}
	if u.HasPIN() && u.Role == RoleAdmin {
		f.Add("pin", FNotAllowed, "admins log in with email and password, not a PIN")
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(u.Name)); n < 1 || n > 200 {
		f.Add("name", FLength, "must be 1-200 characters", "min", 1, "max", 200)
	}
	checkName(f, "name", u.Name)
	if u.Role != RoleAdmin && u.Role != RoleStaff && u.Role != RoleAuditor {
		f.Add("role", FOneOf, "must be admin, staff or auditor", "values", []string{"admin", "staff", "auditor"})
	}
	u.validateAuditor(f) // auditor.go
	if u.StaffNumber != "" && !validStaffNumber(u.StaffNumber) {
		f.Add("staff_number", FNotStaffNumber, "must be 1-20 letters, digits or '-'", "max", 20)
	}
}

// MaxStaffNumberLen bounds a staff number (DATEV's are up to 5 digits;
// other payroll programs take letters too).
const MaxStaffNumberLen = 20

func validStaffNumber(s string) bool {
	if len(s) < 1 || len(s) > MaxStaffNumberLen {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return false
		}
	}
	return true
}

// uniqueUserError names the field a unique index refused.
func uniqueUserError(err error) error {
	if strings.Contains(err.Error(), "staff_number") {
		return Invalid("staff_number", FDuplicate, "is already used by another user of this restaurant")
	}
	return Invalid("email", FDuplicate, "is already in use")
}

func validatePassword(f *Fields, p string) {
	if len(p) < MinPasswordLen || len(p) > MaxPasswordLen {
		f.Add("password", FLength, "must be 8-72 characters", "min", 8, "max", 72)
	}
}

// PIN limits: digits only, as a till's keypad types them.
const (
	MinPINLen = 4
	MaxPINLen = 8
)

// ValidPIN reports whether p is 4-8 ASCII digits.
func ValidPIN(p string) bool {
	if len(p) < MinPINLen || len(p) > MaxPINLen {
		return false
	}
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func validatePIN(f *Fields, p string) {
	if !ValidPIN(p) {
		f.Add("pin", FNotPIN, "must be 4-8 digits")
	}
}

// hashPassword hashes with the store's bcrypt cost.
func (s *Store) hashPassword(p string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(p), s.bcryptCost)
	return string(h), err
}

// CheckPassword reports whether password matches u's hash.
func CheckPassword(u *User, password string) bool {
	return bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(password)) == nil
}

// dummyHash is compared when the email is unknown, so a wrong email costs
// as much time as a wrong password: it is made at the store's own cost
// (in the background from Open, so the start does not wait ~250 ms).
func (s *Store) dummyHash() []byte {
	s.dummyOnce.Do(func() {
		s.dummy, _ = bcrypt.GenerateFromPassword([]byte("posbox-timing-equaliser"), s.bcryptCost)
	})
	return s.dummy
}

// Authenticate finds the active user with this email and password. Unknown
// email and wrong password give the same answer.
func (s *Store) Authenticate(ctx context.Context, email, password string) (*User, error) {
	u, err := s.userWhere(ctx, `email = ?`, strings.TrimSpace(email))
	if err != nil && ErrorCode(err) != ENotFound {
		return nil, err
	}
	if u == nil {
		_ = bcrypt.CompareHashAndPassword(s.dummyHash(), []byte(password))
		return nil, Errorf(ENotFound, "user not found")
	}
	if !CheckPassword(u, password) || !u.IsActive {
		return nil, Errorf(ENotFound, "user not found")
	}
	return u, nil
}

// AuthenticatePIN finds the active staff member of the restaurant with
// this staff number and PIN. An admin never logs in by PIN. Unknown
// staff number, wrong PIN, an admin or a user without a PIN all give the
// same answer at the same cost.
func (s *Store) AuthenticatePIN(ctx context.Context, restaurantID, staffNumber, pin string) (*User, error) {
	u, err := s.userWhere(ctx, `restaurant_id = ? AND staff_number = ?`, restaurantID, staffNumber)
	if err != nil && ErrorCode(err) != ENotFound {
		return nil, err
	}
	if u == nil || !u.HasPIN() {
		_ = bcrypt.CompareHashAndPassword(s.dummyHash(), []byte(pin))
		return nil, Errorf(ENotFound, "user not found")
	}
	ok := bcrypt.CompareHashAndPassword([]byte(u.PINHash), []byte(pin)) == nil
	if !ok || !u.IsActive || u.Role != RoleStaff {
		return nil, Errorf(ENotFound, "user not found")
	}
	return u, nil
}

// CreateUser adds a user to a restaurant with a password (and no PIN).
// u.MustChangePassword is kept as the caller set it.
func (s *Store) CreateUser(ctx context.Context, u *User, password string) error {
	return s.CreateUserWith(ctx, u, password, "")
}

// CreateUserWith adds a user with a password, a PIN, or both ("": none).
// A user without an email has no password: a staff member with a staff
// number and a PIN.
func (s *Store) CreateUserWith(ctx context.Context, u *User, password, pin string) error {
	u.Email = strings.TrimSpace(u.Email)
	var f Fields
	if u.Email != "" || password != "" {
		validatePassword(&f, password)
	}
	if u.Email == "" && password != "" {
		f.Add("password", FNotAllowed, "is only for a login by email")
	}
	if pin != "" {
		validatePIN(&f, pin)
	}
	// What the user will have, for the checks; the hashes follow.
	u.PasswordHash, u.PINHash = password, pin
	u.validate(&f)
	if err := s.checkValidUntil(ctx, &f, u, ""); err != nil {
		return err
	}
	if err := f.Err(); err != nil {
		u.PasswordHash, u.PINHash = "", ""
		return err
	}
	var err error
	if password != "" {
		if u.PasswordHash, err = s.hashPassword(password); err != nil {
			return err
		}
	}
	if pin != "" {
		if u.PINHash, err = s.hashPassword(pin); err != nil {
			return err
		}
	}
	if password == "" {
		u.MustChangePassword = false
	}
	return s.write(ctx, func(tx *Tx) error {
		u.ID, u.IsActive = NewID(), true
		u.CreatedAt, u.UpdatedAt = tx.Now, tx.Now
		_, err := tx.ExecContext(ctx, `INSERT INTO users (id, restaurant_id, email, name, role, password_hash, is_active, staff_number,
			must_change_password, pin_hash, valid_until, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`,
			u.ID, u.RestaurantID, emptyToNull(u.Email), u.Name, u.Role, u.PasswordHash, emptyToNull(u.StaffNumber),
			u.MustChangePassword, emptyToNull(u.PINHash), emptyToNull(u.ValidUntil), FormatTime(tx.Now), FormatTime(tx.Now))
		if isUnique(err) {
			return uniqueUserError(err)
		}
		return err
	})
}

const userColumns = `id, restaurant_id, email, name, role, password_hash, is_active, token_version, staff_number,
	must_change_password, pin_hash, valid_until, created_at, updated_at`

func scanUser(row scanner) (*User, error) {
	var u User
	var created, updated string
	var email, staffNumber, pinHash, validUntil sql.NullString
	if err := row.Scan(&u.ID, &u.RestaurantID, &email, &u.Name, &u.Role, &u.PasswordHash, &u.IsActive, &u.TokenVersion, &staffNumber,
		&u.MustChangePassword, &pinHash, &validUntil, &created, &updated); err != nil {
		return nil, err
	}
	u.CreatedAt, u.UpdatedAt = ParseTime(created), ParseTime(updated)
	u.Email, u.StaffNumber, u.PINHash, u.ValidUntil = email.String, staffNumber.String, pinHash.String, validUntil.String
	return &u, nil
}

func (s *Store) userWhere(ctx context.Context, where string, args ...any) (*User, error) {
	u, err := scanUser(s.rs.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE deleted_at IS NULL AND `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("user")
	}
	return u, err
}

// User finds a live user of a restaurant.
func (s *Store) User(ctx context.Context, restaurantID, id string) (*User, error) {
	return s.userWhere(ctx, `restaurant_id = ? AND id = ?`, restaurantID, id)
}

// UserByID finds a live user in any restaurant.
func (s *Store) UserByID(ctx context.Context, id string) (*User, error) {
	return s.userWhere(ctx, `id = ?`, id)
}

// UserByEmail finds a live user by email in any restaurant.
func (s *Store) UserByEmail(ctx context.Context, email string) (*User, error) {
	return s.userWhere(ctx, `email = ?`, email)
}

// Users lists a restaurant's live users by name.
func (s *Store) Users(ctx context.Context, restaurantID string) ([]*User, error) {
	return queryAll(ctx, s.rs, scanUser, `SELECT `+userColumns+` FROM users
		WHERE deleted_at IS NULL AND restaurant_id = ? ORDER BY name, email, staff_number`, restaurantID)
}

// UpdateUser applies a partial update. It refuses to leave the restaurant
// without an active admin.
func (s *Store) UpdateUser(ctx context.Context, restaurantID, id string, upd UserUpdate) (*User, error) {
	if err := upd.validate(); err != nil {
		return nil, err
	}
	var hash, pinHash string
	var err error
	if upd.Password.Set {
		if hash, err = s.hashPassword(upd.Password.Value); err != nil {
			return nil, err
		}
	}
	if upd.PIN.Set && !upd.PIN.Null {
		if pinHash, err = s.hashPassword(upd.PIN.Value); err != nil {
			return nil, err
		}
	}
	var u *User
	err = s.write(ctx, func(tx *Tx) error {
		var err error
		u, err = scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users
			WHERE deleted_at IS NULL AND restaurant_id = ? AND id = ?`, restaurantID, id))
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("user")
		}
		if err != nil {
			return err
		}
		wasAdmin := u.Role == RoleAdmin && u.IsActive
		before := *u
		upd.apply(u, hash, pinHash)
		var f Fields
		u.validate(&f)
		if err := s.checkValidUntil(ctx, &f, u, before.ValidUntil); err != nil {
			return err
		}
		if err := f.Err(); err != nil {
			return err
		}
		if wasAdmin && !(u.Role == RoleAdmin && u.IsActive) {
			if err := ensureOtherAdmin(ctx, tx, restaurantID, id); err != nil {
				return err
			}
		}
		u.UpdatedAt = tx.Now
		// What a token grants changed: every token issued before ends.
		passwordChanged := u.PasswordHash != before.PasswordHash
		if passwordChanged || u.PINHash != before.PINHash || u.Role != before.Role || u.IsActive != before.IsActive {
			u.TokenVersion++
		}
		_, err = tx.ExecContext(ctx, `UPDATE users SET email = ?, name = ?, role = ?, is_active = ?, password_hash = ?,
			token_version = ?, staff_number = ?, must_change_password = ?, pin_hash = ?, valid_until = ?, updated_at = ? WHERE id = ?`,
			emptyToNull(u.Email), u.Name, u.Role, u.IsActive, u.PasswordHash, u.TokenVersion, emptyToNull(u.StaffNumber),
			u.MustChangePassword, emptyToNull(u.PINHash), emptyToNull(u.ValidUntil), FormatTime(tx.Now), id)
		if isUnique(err) {
			return uniqueUserError(err)
		}
		if err == nil && hash != "" && s.passwordChanged != nil {
			changed := *u
			tx.afterCommit = append(tx.afterCommit, func() { s.passwordChanged(&changed) })
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// validate checks an update's members on their own; what depends on the
// stored user is checked by User.validate after apply.
func (upd UserUpdate) validate() error {
	var f Fields
	NotNull(&f, "name", upd.Name)
	NotNull(&f, "role", upd.Role)
	NotNull(&f, "is_active", upd.IsActive)
	NotNull(&f, "password", upd.Password)
	if upd.Password.Set && !upd.Password.Null {
		validatePassword(&f, upd.Password.Value)
	}
	if v := upd.StaffNumber; v.Set && !v.Null && !validStaffNumber(v.Value) {
		f.Add("staff_number", FNotStaffNumber, "must be 1-20 letters, digits or '-', or null", "max", 20)
	}
	if v := upd.PIN; v.Set && !v.Null {
		validatePIN(&f, v.Value)
	}
	if v := upd.Email; v.Set && !v.Null && strings.TrimSpace(v.Value) == "" {
		f.Add("email", FNotEmail, "must be an email address, or null")
	}
	if v := upd.Email; v.Set && v.Null && upd.Password.Set {
		f.Add("password", FNotAllowed, "is only for a login by email")
	}
	return f.Err()
}

// apply sets the update's members on the stored user u; hash and pinHash
// are the new password's and PIN's hashes, "" when not changed.
func (upd UserUpdate) apply(u *User, hash, pinHash string) {
	wasAdmin := u.Role == RoleAdmin
	if upd.Email.Set {
		u.Email = ""
		if !upd.Email.Null {
			u.Email = strings.TrimSpace(upd.Email.Value)
		}
	}
	upd.Name.Apply(&u.Name)
	upd.Role.Apply(&u.Role)
	upd.IsActive.Apply(&u.IsActive)
	if upd.StaffNumber.Set {
		u.StaffNumber = ""
		if !upd.StaffNumber.Null {
			u.StaffNumber = upd.StaffNumber.Value
		}
	}
	if upd.PIN.Set {
		u.PINHash = pinHash
	}
	if u.Role == RoleAdmin && !wasAdmin && !upd.PIN.Set {
		// An admin logs in with email and password only.
		u.PINHash = ""
	}
	upd.applyValidUntil(u) // auditor.go
	switch {
	case hash != "":
		u.PasswordHash = hash
		// A password set by someone else is for the first login only.
		u.MustChangePassword = upd.ByUserID != u.ID
	case u.Email == "":
		// Without an email nothing could log in with a password.
		u.PasswordHash, u.MustChangePassword = "", false
	}
}

// ensureOtherAdmin fails with last_admin unless the restaurant keeps an
// active admin besides userID.
func ensureOtherAdmin(ctx context.Context, tx *Tx, restaurantID, userID string) error {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE restaurant_id = ? AND id <> ?
		AND role = 'admin' AND is_active = 1 AND deleted_at IS NULL`, restaurantID, userID).Scan(&n)
	if err != nil {
		return err
	}
	if n == 0 {
		return Errorf(ELastAdmin, "the restaurant must keep at least one active admin")
	}
	return nil
}

// DeleteUser removes a user from the restaurant. The row stays, marked
// deleted, because time records refer to it and must be kept.
func (s *Store) DeleteUser(ctx context.Context, restaurantID, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		var role string
		var active bool
		err := tx.QueryRowContext(ctx, `SELECT role, is_active FROM users WHERE deleted_at IS NULL AND restaurant_id = ? AND id = ?`,
			restaurantID, id).Scan(&role, &active)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("user")
		}
		if err != nil {
			return err
		}
		if role == RoleAdmin && active {
			if err := ensureOtherAdmin(ctx, tx, restaurantID, id); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE users SET deleted_at = ?, is_active = 0, token_version = token_version + 1, updated_at = ? WHERE id = ?`,
			FormatTime(tx.Now), FormatTime(tx.Now), id)
		return err
	})
}

// CountUsers counts live users in all restaurants.
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	var n int
	err := s.rs.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE deleted_at IS NULL`).Scan(&n)
	return n, err
}

// ChangeOwnPassword sets u's password after checking the current one (a
// staff member's self-service). The token version moves on in the same
// transaction, so every token issued before, the caller's included, ends.
func (s *Store) ChangeOwnPassword(ctx context.Context, u *User, current, next string) (*User, error) {
	var f Fields
	switch {
	case current == "":
		f.Add("current_password", FRequired, "is required")
	case len(current) > MaxPasswordLen:
		f.Add("current_password", FWrongPassword, "is wrong")
	}
	if len(next) < MinPasswordLen || len(next) > MaxPasswordLen {
		f.Add("new_password", FLength, "must be 8-72 characters", "min", 8, "max", 72)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	if u.Email == "" {
		return nil, Errorf(EConflict, "this account has no email: it logs in with staff number and PIN")
	}
	if !CheckPassword(u, current) {
		return nil, Invalid("current_password", FWrongPassword, "is wrong")
	}
	if current == next {
		return nil, Invalid("new_password", FSamePassword, "must differ from the current password")
	}
	hash, err := s.hashPassword(next)
	if err != nil {
		return nil, err
	}
	var out *User
	err = s.write(ctx, func(tx *Tx) error {
		// The version must still be the caller's: a password changed by an
		// admin (or another device) in between wins, and this one is 401'd
		// by its stale token on the next request anyway.
		res, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, must_change_password = 0, token_version = token_version + 1,
			updated_at = ? WHERE id = ? AND token_version = ? AND deleted_at IS NULL`, hash, FormatTime(tx.Now), u.ID, u.TokenVersion)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return Errorf(EConflict, "your account changed meanwhile; log in again")
		}
		changed := *u
		changed.PasswordHash, changed.TokenVersion, changed.UpdatedAt = hash, u.TokenVersion+1, tx.Now
		changed.MustChangePassword = false
		out = &changed
		if s.passwordChanged != nil {
			tx.afterCommit = append(tx.afterCommit, func() { s.passwordChanged(&changed) })
		}
		return nil
	})
	return out, err
}

// RequirePasswordChange marks a user's password as one to replace at the
// next login (the generated first admin password of a box set up before
// the mark existed). A missing or deleted user is not_found.
func (s *Store) RequirePasswordChange(ctx context.Context, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET must_change_password = 1 WHERE id = ? AND deleted_at IS NULL
			AND password_hash <> ''`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return NotFound("user")
		}
		return nil
	})
}
