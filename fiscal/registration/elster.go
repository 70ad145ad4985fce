package registration

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"time"

	"posbox/store"
)

// Namespace is the upload file's XML namespace.
const Namespace = "http://finkonsens.de/elster/elsternachricht/aufzeichnung146a/v1"

// The codes the file uses, as StuStaPay's accepted files do
// (docs/FISCAL.md): Art 1 is "Computergestützte/PC-Kassensysteme",
// ArtTSE 3 a cloud TSE (1 SD card, 2 USB).
const (
	artPCKasse  = "1"
	artTSECloud = "3"
	// decommissionReason is GrundAusserbetriebnahme: posbox keeps no
	// reason, and the form takes a word.
	decommissionReason = "Stilllegung"
)

// Register is one register as the file reports it; dates are local
// YYYY-MM-DD, "" for none.
type Register struct {
	Serial           string // the client serial the register signs with
	Software         string
	SoftwareVersion  string
	Brand            string
	Model            string
	AcquiredOn       string
	InServiceOn      string
	DecommissionedOn string
}

// TSE is the TSS every register signs with (posbox has one per box).
type TSE struct {
	Serial             string // the TSS serial number: 64 hex digits
	BSICertificationID string // BSI-K-TR-nnnn-yyyy, as fiskaly reports it
	InServiceOn        string
	Simulated          bool // the built-in simulator: never written
}

// Report is what one Betriebsstätte registers: posbox is one site.
type Report struct {
	Registers []Register
	TSE       *TSE // nil when no TSE is known
}

var (
	bsiRE    = regexp.MustCompile(`^(?:BSI-K-TR-)?([0-9]{4}-[0-9]{4})$`)
	serialRE = regexp.MustCompile(`^[0-9A-Fa-f]{64}$`)
)

// BSIID is the certification id as the file wants it: without the
// "BSI-K-TR-" prefix (0717-2025); ok is false for any other form.
func BSIID(id string) (string, bool) {
	m := bsiRE.FindStringSubmatch(id)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// Check names every item the file lacks, as a registration_incomplete
// error whose fields a client translates; nil when the file can be made.
func (r Report) Check() error {
	var f store.Fields
	if len(r.Registers) == 0 {
		f.Add("registers", store.FTooFew, "must list at least 1 register", "min", 1)
	}
	for _, g := range r.Registers {
		at := "registers[" + g.Serial + "]"
		for _, c := range []struct{ name, v string }{{"brand", g.Brand}, {"model", g.Model}, {"software", g.Software},
			{"software_version", g.SoftwareVersion}, {"acquired_on", g.AcquiredOn}, {"in_service_on", g.InServiceOn}} {
			if c.v == "" {
				f.Add(at+"."+c.name, store.FRequired, "missing or empty")
			}
		}
	}
	switch t := r.TSE; {
	case t == nil:
		f.Add("tse", store.FRequired, "missing or empty")
	case t.Simulated:
		f.Add("tse", store.FNotCertified, "must be a certified TSE: the built-in simulator is none and is never registered")
	default:
		if !serialRE.MatchString(t.Serial) {
			f.Add("tse.serial_number", store.FBadFormat, "must be the TSS serial number, 64 hexadecimal digits")
		}
		if t.BSICertificationID == "" {
			f.Add("tse.bsi_certification_id", store.FRequired, "missing or empty")
		} else if _, ok := BSIID(t.BSICertificationID); !ok {
			f.Add("tse.bsi_certification_id", store.FBadFormat, "must be a BSI certification id such as BSI-K-TR-0717-2025")
		}
		if t.InServiceOn == "" {
			f.Add("tse.in_service_on", store.FRequired, "missing or empty")
		}
	}
	if err := f.Err(); err != nil {
		e := err.(*store.Error)
		e.Code, e.Message = store.ERegistrationIncomplete, "the master data lacks what the ELSTER file needs (see errors)"
		return e
	}
	return nil
}

// ELSTER is the upload file, or Check's error. It is byte for byte the
// form StuStaPay's generator writes (docs/FISCAL.md): the declaration in
// double quotes with standalone="no", the outer Aufzeichnung146a with the
// namespace and version="1", an inner Aufzeichnung146a, and per register
// its elements in a fixed order, dates as dd.mm.yyyy.
func ELSTER(r Report) ([]byte, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>` + "\n")
	b.WriteString(`<Aufzeichnung146a xmlns="` + Namespace + `" version="1">` + "\n")
	b.WriteString("<Aufzeichnung146a>")
	bsi, _ := BSIID(r.TSE.BSICertificationID)
	for _, g := range r.Registers {
		b.WriteString("<AngabenAufzeichnungssystem>")
		el := func(name, v string) {
			b.WriteString("<" + name + ">")
			_ = xml.EscapeText(&b, []byte(v)) // a bytes.Buffer does not fail
			b.WriteString("</" + name + ">")
		}
		el("Art", artPCKasse)
		el("Software", g.Software)
		el("SoftwareVersion", g.SoftwareVersion)
		el("SeriennummerAS", g.Serial)
		el("Hersteller", g.Brand)
		el("Modell", g.Model)
		el("SeriennummerTSE", r.TSE.Serial)
		el("InbetriebnahmeTSE", germanDate(r.TSE.InServiceOn))
		el("BSIID", bsi)
		el("ArtTSE", artTSECloud)
		el("AnschaffungAS", germanDate(g.AcquiredOn))
		el("InbetriebnahmeAS", germanDate(g.InServiceOn))
		if g.DecommissionedOn != "" {
			el("AusserbetriebnahmeAS", germanDate(g.DecommissionedOn))
			el("GrundAusserbetriebnahme", decommissionReason)
		}
		b.WriteString("</AngabenAufzeichnungssystem>")
	}
	b.WriteString("</Aufzeichnung146a></Aufzeichnung146a>\n")
	return b.Bytes(), nil
}

// germanDate is a YYYY-MM-DD as dd.mm.yyyy.
func germanDate(d string) string {
	t, err := time.Parse(store.DateFormat, d)
	if err != nil {
		return d
	}
	return t.Format("02.01.2006")
}
