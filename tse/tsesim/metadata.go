package tsesim

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"unicode/utf8"

	"posbox/tse"
)

// fiskaly's retrieveTssMetadata and updateTssMetadata (GET and PATCH
// /tss/{tss_id}/metadata). Body and answer are the metadata object
// itself, not wrapped: the OpenAPI's MetadataRequest, at most 40
// properties with string values of at most 500 characters (keys of at
// most 40 characters, its description says). An update is merged into
// what the TSS has, as fiskaly merges metadata everywhere, and so is
// updateTss's metadata.

const (
	metaMaxKeys     = 40
	metaMaxKeyLen   = 40
	metaMaxValueLen = 500
)

// checkMetadata answers a metadata object (at "body" or "body/metadata")
// that breaks the schema, as fiskaly's validation words it.
func checkMetadata(at string, m map[string]string) error {
	if len(m) > metaMaxKeys {
		return schemaViolation(fmt.Sprintf("%s must NOT have more than %d properties", at, metaMaxKeys))
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if utf8.RuneCountInString(k) > metaMaxKeyLen {
			return schemaViolation(fmt.Sprintf("%s property name %q must NOT have more than %d characters", at, k, metaMaxKeyLen))
		}
		if utf8.RuneCountInString(m[k]) > metaMaxValueLen {
			return schemaViolation(fmt.Sprintf("%s/%s must NOT have more than %d characters", at, k, metaMaxValueLen))
		}
	}
	return nil
}

// schemaViolation is fiskaly's answer to a request its schema refuses.
func schemaViolation(msg string) error {
	return tse.NewError(400, "E_FAILED_SCHEMA_VALIDATION", msg)
}

// setTSSMetadata merges m into the TSS's metadata, durably.
func (s *Simulator) setTSSMetadata(t *simTSS, m map[string]string) error {
	if len(m) == 0 {
		return nil
	}
	return s.commit(record{Op: opTSSMeta, TSS: t.id, Time: s.now().Unix(), Metadata: m})
}

func (h *Server) getTSSMetadata(w http.ResponseWriter, r *http.Request) error {
	return h.withTSS(r, func(t *simTSS) error {
		writeJSON(w, 200, orEmpty(t.metadata))
		return nil
	})
}

func (h *Server) patchTSSMetadata(w http.ResponseWriter, r *http.Request) error {
	var m map[string]string
	if err := decodeBody(r, &m); err != nil {
		return err
	}
	if err := checkMetadata("body", m); err != nil {
		return err
	}
	return h.withTSS(r, func(t *simTSS) error {
		if err := h.sim.setTSSMetadata(t, m); err != nil {
			return err
		}
		writeJSON(w, 200, orEmpty(t.metadata))
		return nil
	})
}
