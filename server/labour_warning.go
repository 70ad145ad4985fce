package server

import "posbox/store"

// warningJSON is one ArbZG warning as every answer shows it: a stable
// code, the rule it comes from, the working day, a sentence and the
// sentence's numbers by name (docs/TIMECLOCK.md). It is the API's own:
// the labour_law_warning event carries the same fields in store's
// eventWarning, which is what the events table holds.
type warningJSON struct {
	Code    string         `json:"code"`
	Rule    string         `json:"rule"`
	Date    string         `json:"date"`
	Message string         `json:"message"`
	Params  map[string]int `json:"params"`
}

func toWarningJSON(w store.LabourWarning) warningJSON {
	return warningJSON{w.Code, w.Rule, w.Date, w.Message, w.Params}
}

func toWarningsJSON(ws []store.LabourWarning) []warningJSON {
	out := make([]warningJSON, 0, len(ws))
	for _, w := range ws {
		out = append(out, toWarningJSON(w))
	}
	return out
}
