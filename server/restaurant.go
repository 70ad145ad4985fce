package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// restaurantJSON is GET /api/restaurant: the caller's restaurant, whose
// timezone decides what "today" is; the time-clock settings follow the
// contract's fields (docs/TIMECLOCK.md).
type restaurantJSON struct {
	ID                  string  `json:"id"`
	Name                string  `json:"name"`
	Timezone            string  `json:"timezone"`
	CreatedAt           string  `json:"created_at"`
	FederalState        *string `json:"federal_state"`
	OpenEntryLimitHours int     `json:"open_entry_limit_hours"`
	MinRestHours        int     `json:"min_rest_hours"`
	SaleEventsBy        string  `json:"sale_events_by"` // who raises new_order, payment_received, order_cancelled
}

func toRestaurantJSON(r *store.Restaurant) restaurantJSON {
	var state *string
	if r.FederalState != "" {
		state = &r.FederalState
	}
	return restaurantJSON{r.ID, r.Name, r.Timezone, ts(r.CreatedAt), state, r.OpenEntryLimitHours, r.MinRestHours, r.SaleEventsBy}
}

// restaurant is GET /api/restaurant (any user).
func (s *Server) restaurant(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	return writeJSON(w, http.StatusOK, envelope{"restaurant": toRestaurantJSON(caller(r.Context()).restaurant)})
}

type restaurantSettingsRequest struct {
	Name                store.Field[string] `json:"name"`
	FederalState        store.Field[string] `json:"federal_state"`
	OpenEntryLimitHours store.Field[int]    `json:"open_entry_limit_hours"`
	MinRestHours        store.Field[int]    `json:"min_rest_hours"`
	SaleEventsBy        store.Field[string] `json:"sale_events_by"`
}

// updateRestaurant is PATCH /api/restaurant (admin): the name and the
// time-clock settings and who raises the events of sales, partially.
func (s *Server) updateRestaurant(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req restaurantSettingsRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	rest, err := s.store.UpdateRestaurantSettings(r.Context(), caller(r.Context()).restaurant.ID, store.RestaurantSettings(req))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"restaurant": toRestaurantJSON(rest)})
}
