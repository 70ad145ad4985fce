// Package dsfinvk builds the DSFinV-K export of the cash registers posbox
// signs for (docs/FISCAL.md, "DSFinV-K export", for the files and where
// each value comes from). It imports store and tse, never server; main
// builds the exporter and hands it to the server as server.DSFinVK, and
// the server renders what it returns.
//
// The export is built in memory (a month is a few MB), so a failure
// answers problem+json instead of a cut-off file. It reads the closings'
// sales live: a sale signed late after its closing shows its signature in
// a later export, with the failure kept in TSE_TA_FEHLER. A closing's
// sales are read in five queries, not per sale: one closing of 1,000
// sales of three lines takes about 90 ms (BenchmarkExportDay, 2-core VM).
//
// export.go: the ZIP and its order; tables.go: the 20 files and their
// columns; csv.go: the CSV dialect; index.go: index.xml and the GDPdU DTD.
package dsfinvk
