// Package registration makes the §146a (4) AO registration with the tax
// office (docs/FISCAL.md, "Registration with the tax office") and notices
// when one is due. It knows nothing of HTTP.
//
// elster.go: the upload file of "Mein ELSTER" (root Aufzeichnung146a in
// the finkonsens namespace, one AngabenAufzeichnungssystem per register
// with the TSE's data), reproduced from the one public generator whose
// files ELSTER accepted (StuStaPay's); it refuses, naming every missing
// item, when the master data lacks what the file needs, and never writes
// the simulator as a TSE.
//
// watch.go: TSEWatch tells the store the serial of the certified TSS the
// box signs with, at start and on main's schedule, so a TSS put into
// service by anything (setup, a replacement) raises registration_due
// once; what changed and when is compared in the store's transaction
// (store/registration_due.go), as for the registers' master data.
package registration
