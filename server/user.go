package server

import (
	"net/http"
	"strings"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

type userJSON struct {
	ID           string `json:"id"`
	RestaurantID string `json:"restaurant_id"`
	// Null for a staff member who logs in with staff number and PIN.
	Email     *string `json:"email"`
	Name      string  `json:"name"`
	Role      string  `json:"role"`
	IsActive  bool    `json:"is_active"`
	CreatedAt string  `json:"created_at"`
	UpdatedAt string  `json:"updated_at"`
	// The appliance's: the payroll export's personnel number.
	StaffNumber *string `json:"staff_number"`
	// The password was set by someone else: its owner is to choose a new
	// one (POST /api/auth/password) before anything else.
	MustChangePassword bool `json:"must_change_password"`
	// Whether the user can log in at a till with staff number and PIN.
	HasPIN bool `json:"has_pin"`
	// An auditor's last day (YYYY-MM-DD, the restaurant's timezone); null
	// for every other role.
	ValidUntil *string `json:"valid_until"`
}

func toUserJSON(u *store.User) userJSON {
	orNull := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return userJSON{u.ID, u.RestaurantID, orNull(u.Email), u.Name, u.Role, u.IsActive, ts(u.CreatedAt), ts(u.UpdatedAt),
		orNull(u.StaffNumber), u.MustChangePassword, u.HasPIN(), orNull(u.ValidUntil)}
}

// pathID is the :id parameter, or a 404 when it is not a canonical UUID.
func pathID(p httprouter.Params, what string) (string, error) {
	id := p.ByName("id")
	if !store.ValidID(id) {
		return "", store.NotFound(what)
	}
	return id, nil
}

func (s *Server) listUsers(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	users, err := s.store.Users(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := make([]userJSON, 0, len(users))
	for _, u := range users {
		out = append(out, toUserJSON(u))
	}
	return writeJSON(w, http.StatusOK, envelope{"users": out})
}

type createUserRequest struct {
	// Email and Password: absent or null for a staff member who logs in
	// with staff number and PIN only.
	Email    *string `json:"email"`
	Name     *string `json:"name"`
	Role     *string `json:"role"`
	Password *string `json:"password"`
	// StaffNumber is optional (null or absent: none).
	StaffNumber *string `json:"staff_number"`
	// PIN is optional: 4-8 digits for the till login (staff only).
	PIN *string `json:"pin"`
	// ValidUntil: an auditor's last day, required for one, else absent.
	ValidUntil *string `json:"valid_until"`
}

func (s *Server) createUser(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req createUserRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "name", req.Name)
	required(&f, "role", req.Role)
	if req.Email != nil {
		required(&f, "password", req.Password)
	}
	if err := f.Err(); err != nil {
		return err
	}
	// The admin chose the password: its owner must replace it at the
	// first login.
	u := &store.User{RestaurantID: caller(r.Context()).restaurant.ID, Email: deref(req.Email, ""), Name: *req.Name, Role: *req.Role,
		MustChangePassword: true, ValidUntil: deref(req.ValidUntil, "")}
	if req.Email != nil && strings.TrimSpace(*req.Email) == "" {
		return store.Invalid("email", store.FNotEmail, "must be an email address, or null")
	}
	if req.StaffNumber != nil {
		u.StaffNumber = *req.StaffNumber
		if u.StaffNumber == "" {
			return store.Invalid("staff_number", store.FNotStaffNumber, "must be 1-20 letters, digits or '-', or null", "max", 20)
		}
	}
	if req.PIN != nil && *req.PIN == "" {
		return store.Invalid("pin", store.FNotPIN, "must be 4-8 digits")
	}
	if req.Password != nil && *req.Password == "" {
		return store.Invalid("password", store.FLength, "must be 8-72 characters", "min", 8, "max", 72)
	}
	if err := s.store.CreateUserWith(r.Context(), u, deref(req.Password, ""), deref(req.PIN, "")); err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, envelope{"user": toUserJSON(u)})
}

type updateUserRequest struct {
	Email    store.Field[string] `json:"email"`
	Name     store.Field[string] `json:"name"`
	Role     store.Field[string] `json:"role"`
	IsActive store.Field[bool]   `json:"is_active"`
	Password store.Field[string] `json:"password"`
	// StaffNumber: null clears it.
	StaffNumber store.Field[string] `json:"staff_number"`
	// PIN: null removes it.
	PIN store.Field[string] `json:"pin"`
	// ValidUntil: an auditor's last day.
	ValidUntil store.Field[string] `json:"valid_until"`
}

func (s *Server) updateUser(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "user")
	if err != nil {
		return err
	}
	var req updateUserRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	c := caller(r.Context())
	u, err := s.store.UpdateUser(r.Context(), c.restaurant.ID, id, store.UserUpdate{Email: req.Email, Name: req.Name, Role: req.Role,
		IsActive: req.IsActive, Password: req.Password, StaffNumber: req.StaffNumber, PIN: req.PIN, ValidUntil: req.ValidUntil,
		ByUserID: c.user.ID})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"user": toUserJSON(u)})
}

func (s *Server) deleteUser(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "user")
	if err != nil {
		return err
	}
	if err := s.store.DeleteUser(r.Context(), caller(r.Context()).restaurant.ID, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// required adds a field error when a required member is absent or null.
func required[T any](f *store.Fields, name string, v *T) {
	if v == nil {
		f.Add(name, store.FRequired, "is required")
	}
}
