// Package procdoc makes the restaurant's procedure document
// (Verfahrensdokumentation, GoBD Rz. 151-155) from the box's own data and
// keeps every version of it (docs/FISCAL.md, "The procedure document").
//
// gather.go collects what the box knows: the taxpayer and the location
// (fiscal master data), the program and its change log (store's
// program_changes, which main fills at every start), the registers, the
// TSE (serial, BSI id, certificate end; the simulator said to be one),
// the archive, backup and replication setup main hands in as Setup
// (never an address with credentials, nor a secret: only the kind of
// replica target), who holds which role, the retention settings and the
// owner's own sections. version.go turns it into a version: its JSON is
// hashed, and a content whose SHA-256 differs from the newest version's
// is stored as the next one, immutable; the same content is the same
// version. Nothing here speaks HTTP: server renders the versions.
package procdoc
