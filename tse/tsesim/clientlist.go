package tsesim

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"posbox/tse"
)

// fiskaly's listClients (GET /tss/{tss_id}/client) and
// listClientTransactions (GET /tss/{tss_id}/client/{client_id}/tx), as
// its OpenAPI declares them: the list envelope {data, count, _type,
// _env, _version}, paged by limit (1-100, default 100) and offset;
// clients filtered by serial_number and state and ordered by
// serial_number or time_creation; a client's transactions take
// listTransactions' parameters and list those whose latest revision the
// client sent. listClientTransactions declares no 429, so the 20 calls a
// minute of listTransactions do not apply to it.

// listParams are the paging and order parameters of a list operation.
type listParams struct {
	limit, offset  int
	order, orderBy string
}

// readListParams reads limit, offset, order and order_by (one of
// orderBy) and checks show_deleted, answering a violation as fiskaly's
// schema validation does.
func readListParams(q url.Values, orderBy ...string) (listParams, error) {
	p := listParams{limit: simPageMax, order: q.Get("order"), orderBy: q.Get("order_by")}
	for name, dst := range map[string]*int{"limit": &p.limit, "offset": &p.offset} {
		if !q.Has(name) {
			continue
		}
		n, err := strconv.Atoi(q.Get(name))
		switch {
		case err != nil:
			return p, queryErr(name, "must be integer")
		case name == "limit" && n > simPageMax:
			return p, queryErr(name, fmt.Sprintf("must be <= %d", simPageMax))
		case name == "limit" && n < 1:
			return p, queryErr(name, "must be >= 1")
		case n < 0:
			return p, queryErr(name, "must be >= 0")
		}
		*dst = n
	}
	if q.Has("order") && p.order != "asc" && p.order != "desc" {
		return p, queryErr("order", "must be equal to one of the allowed values")
	}
	if q.Has("order_by") && !slices.Contains(orderBy, p.orderBy) {
		return p, queryErr("order_by", "must be equal to one of the allowed values")
	}
	// No TSS of the simulator is ever deleted: show_deleted changes nothing.
	if v := q.Get("show_deleted"); q.Has("show_deleted") && v != "true" && v != "false" {
		return p, queryErr("show_deleted", "must be boolean")
	}
	return p, nil
}

// queryErr is fiskaly's schema violation of a query parameter.
func queryErr(name, msg string) error {
	return schemaViolation("querystring/" + name + " " + msg)
}

// listClients is the TSS's clients filtered by serial number and state,
// ordered and paged.
func listClients(t *simTSS, q url.Values) ([]*simClient, error) {
	p, err := readListParams(q, "serial_number", "time_creation")
	if err != nil {
		return nil, err
	}
	state := q.Get("state")
	if q.Has("state") && state != tse.ClientRegistered && state != tse.ClientDeregistered {
		return nil, queryErr("state", "must be equal to one of the allowed values")
	}
	var out []*simClient
	for _, c := range t.clients { // in registration order
		if (!q.Has("serial_number") || c.serial == q.Get("serial_number")) && (state == "" || c.state == state) {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b *simClient) int {
		c := cmp.Compare(a.created, b.created)
		if p.orderBy == "serial_number" {
			c = strings.Compare(a.serial, b.serial)
		}
		if p.order == "desc" {
			return -c
		}
		return c
	})
	out = out[min(p.offset, len(out)):]
	return out[:min(p.limit, len(out))], nil
}

func (h *Server) listClients(w http.ResponseWriter, r *http.Request) error {
	return h.withTSS(r, func(t *simTSS) error {
		cs, err := listClients(t, r.URL.Query())
		if err != nil {
			return err
		}
		data := make([]map[string]any, len(cs))
		for i, c := range cs {
			data[i] = clientJSON(c)
		}
		writeList(w, "CLIENT_LIST", data)
		return nil
	})
}

func (h *Server) listClientTx(w http.ResponseWriter, r *http.Request) error {
	q, err := txListQuery(r)
	if err != nil {
		return err
	}
	return h.withTSS(r, func(t *simTSS) error {
		c := t.client(strings.ToLower(r.PathValue("client")))
		if c == nil {
			return tse.NewError(404, "E_CLIENT_NOT_FOUND", fmt.Sprintf("client %s not found", r.PathValue("client")))
		}
		views, err := h.sim.txViews(t, q, c)
		if err != nil {
			return err
		}
		writeTxList(w, t, views)
		return nil
	})
}
