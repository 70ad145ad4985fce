package server

import "posbox/store"

// warningJSON is one ArbZG warning as every answer shows it: a stable
// code, the rule it comes from, the working day and a sentence.
type warningJSON = store.EventWarning

func toWarningsJSON(ws []store.LabourWarning) []warningJSON { return store.EventWarnings(ws) }
