package tsesim

import "crypto/ecdsa"

// Hooks for the external tests (package tsesim_test). They are external
// because they share their helpers with the fiskaly client's tests
// through tse/simtest, which imports this package.

// JournalFile is the journal's name in the state dir.
const JournalFile = journalFile

// Record is a journal line.
type Record = record

// SignPlain signs as the simulator signed before TR-03151 log messages.
var SignPlain = signPlain

// DefaultKey is the default TSS's private key.
func DefaultKey(s *Simulator) *ecdsa.PrivateKey { return s.def.key }

// NoSync stops the journal's fsyncs (benchmarks that write a lot).
func NoSync(s *Simulator) { s.j.noSync = true }
