package server

import (
	"encoding/json"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// eventJSON is a published event in the contract's order.
type eventJSON struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	CreatedAt string `json:"created_at"`
}

// ignoredEventJSON answers a POS's event that posbox raises itself.
type ignoredEventJSON struct {
	Event   *eventJSON `json:"event"` // always null
	Ignored bool       `json:"ignored"`
	Reason  string     `json:"reason"`
}

type publishEventRequest struct {
	Type *string         `json:"type"`
	Data json.RawMessage `json:"data"`
}

// publishEvent records an event from a POS terminal; every enabled rule of
// its type gets a delivery in the same transaction. 202: sending goes on
// after the answer. Only the POS's own types are accepted (422
// event_type_reserved): events posbox raises itself cannot be forged.
// The events of sales, while posbox raises them, are answered 200
// ignored and not recorded.
func (s *Server) publishEvent(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req publishEventRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	var f store.Fields
	required(&f, "type", req.Type)
	if req.Type != nil && !store.ValidEventType(*req.Type) {
		f.Add("type", store.FNotEventType, "must match ^[a-z][a-z0-9_.]{0,63}$")
	}
	var data map[string]json.RawMessage
	if len(req.Data) == 0 || string(req.Data) == "null" {
		f.Add("data", store.FRequired, "is required")
	} else if json.Unmarshal(req.Data, &data) != nil {
		f.Add("data", store.FWrongType, "must be an object", "type", "object")
	}
	if err := f.Err(); err != nil {
		return err
	}
	if !store.IsPOSEventType(*req.Type) {
		return store.ReservedEventType(*req.Type)
	}
	rest := caller(r.Context()).restaurant
	if store.IsSaleEventType(*req.Type) && rest.SaleEventsBy == store.SaleEventsByPosbox {
		// posbox raises it from the sale itself: the POS's copy is
		// accepted and dropped, so a till that still posts it keeps
		// working and no rule fires twice (docs/NOTIFICATIONS.md).
		return writeJSON(w, http.StatusOK, ignoredEventJSON{Event: nil, Ignored: true,
			Reason: *req.Type + " is raised by posbox from the sales it records (sale_events_by is posbox); this one was not recorded or sent"})
	}
	e, err := s.store.PublishEvent(r.Context(), rest.ID, *req.Type, req.Data)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, envelope{"event": eventJSON{ID: e.ID, Type: e.Type, CreatedAt: ts(e.CreatedAt)}})
}
