package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"
)

// restaurantJSON is GET /api/restaurant: the caller's restaurant, whose
// timezone decides what "today" is.
type restaurantJSON struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Timezone  string `json:"timezone"`
	CreatedAt string `json:"created_at"`
}

// restaurant is GET /api/restaurant (any user).
func (s *Server) restaurant(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	rest := caller(r.Context()).restaurant
	return writeJSON(w, http.StatusOK, envelope{"restaurant": restaurantJSON{rest.ID, rest.Name, rest.Timezone, ts(rest.CreatedAt)}})
}
