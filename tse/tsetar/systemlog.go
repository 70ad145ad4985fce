package tsetar

import (
	"encoding/asn1"
	"errors"
	"fmt"
)

// The systemOperationData of a system log: the content of its [1]
// element is a run of context-specific elements that TR-03151 defines
// per operation (certified TSEs write them without a SEQUENCE around
// them; checkers such as konfidas TTC read [1] as that SEQUENCE). Verify
// checks the operations whose mandatory fields are known: unblockUser and
// logOut as TTC and the BSI's TSE simulator encode them (fiskaly's and
// D-Trust's exports agree), updateDevice's oldVersion under the tag TTC
// checks (no public export holds one):
//
//	unblockUser:  [1] userId PrintableString, [2] unblockResult ENUMERATED
//	logOut:       [1] userId PrintableString, [2] logOutCause ENUMERATED
//	updateDevice: [1] userId PrintableString, [3] oldVersion OCTET STRING
//	              holding the DER of a DeviceInformationSet
//
// DeviceInformationSet ::= SEQUENCE OF SEQUENCE { [0] componentName,
// [1] manufacturer, [2] model, [3] version, [4] certificationId OPTIONAL }
// (all PrintableString), as a D-Trust TSE writes updateDeviceCompleted's
// newVersion. Other operations are not checked: their encodings differ
// between certified TSEs.

// Values of unblockResult (ENUMERATED { ok, failed, unknownUserId, error }).
const (
	UnblockOK = iota
	UnblockFailed
	UnblockUnknownUserID
	UnblockError
)

// Values of logOutCause (ENUMERATED { user, timeout }).
const (
	LogOutByUser = iota
	LogOutTimeout
)

// ComponentInformation is one component of a DeviceInformationSet.
type ComponentInformation struct {
	Name, Manufacturer, Model, Version string
	CertificationID                    string // optional
}

// UnblockUserData is unblockUser's systemOperationData.
func UnblockUserData(userID string, result int) []byte {
	return append(context(1, []byte(userID)).full, context(2, intValue(uint64(result))).full...)
}

// LogOutData is logOut's systemOperationData.
func LogOutData(userID string, cause int) []byte {
	return append(context(1, []byte(userID)).full, context(2, intValue(uint64(cause))).full...)
}

// UpdateDeviceData is updateDevice's systemOperationData: who updates
// and the device's version before the update.
func UpdateDeviceData(userID string, oldVersion []ComponentInformation) ([]byte, error) {
	if !printable(userID) {
		return nil, errors.New("tsetar: userId must be PrintableString")
	}
	var set []byte
	for _, c := range oldVersion {
		fields := []string{c.Name, c.Manufacturer, c.Model, c.Version}
		if c.CertificationID != "" {
			fields = append(fields, c.CertificationID)
		}
		var comp []byte
		for i, f := range fields {
			if !printable(f) {
				return nil, fmt.Errorf("tsetar: component %q: %q is not a PrintableString", c.Name, f)
			}
			comp = append(comp, context(i, []byte(f)).full...)
		}
		set = append(set, sequence(comp)...)
	}
	return append(context(1, []byte(userID)).full, context(3, sequence(set)).full...), nil
}

func sequence(content []byte) []byte {
	return element{class: asn1.ClassUniversal, tag: asn1.TagSequence, compound: true, value: content}.encode()
}

// field is a mandatory element of a systemOperationData.
type field struct {
	tag   int
	name  string
	check func(element) error
}

// systemFields are the mandatory fields Verify checks, per operation.
var systemFields = map[string][]field{
	"unblockUser":  {{1, "userId", checkPrintable}, {2, "unblockResult", checkEnum(UnblockError)}},
	"logOut":       {{1, "userId", checkPrintable}, {2, "logOutCause", checkEnum(LogOutTimeout)}},
	"updateDevice": {{1, "userId", checkPrintable}, {3, "oldVersion", checkDeviceInformationSet}},
}

// CheckSystemOperationData reports a mandatory field of a system
// operation that is missing or malformed; operations it does not know
// pass.
func CheckSystemOperationData(event string, data []byte) error {
	want := systemFields[event]
	if want == nil {
		return nil
	}
	got := map[int]element{}
	last := -1
	for rest := data; len(rest) > 0; {
		e, r, err := readTLV(rest, 1)
		if err != nil {
			return fmt.Errorf("%s: systemOperationData: %w", event, err)
		}
		rest = r
		if e.class != asn1.ClassContextSpecific {
			return fmt.Errorf("%s: systemOperationData holds a universal element (tag %d), want context-specific ones", event, e.tag)
		}
		if e.tag <= last {
			return fmt.Errorf("%s: systemOperationData: [%d] after [%d]", event, e.tag, last)
		}
		last = e.tag
		got[e.tag] = e
	}
	for _, f := range want {
		e, ok := got[f.tag]
		if !ok {
			return fmt.Errorf("%s: mandatory %s ([%d]) missing", event, f.name, f.tag)
		}
		if err := f.check(e); err != nil {
			return fmt.Errorf("%s: %s ([%d]): %w", event, f.name, f.tag, err)
		}
	}
	return nil
}

// checkPrintable accepts a non-empty PrintableString (BER may split it).
func checkPrintable(e element) error {
	v, err := octets(e, 2)
	if err != nil {
		return err
	}
	if len(v) == 0 || !printable(string(v)) {
		return fmt.Errorf("%q is not a non-empty PrintableString", v)
	}
	return nil
}

// checkEnum accepts an ENUMERATED value from 0 to max.
func checkEnum(max uint64) func(element) error {
	return func(e element) error {
		if e.compound {
			return errors.New("constructed, want an ENUMERATED")
		}
		n, err := uintValue("value", e.value)
		if err != nil {
			return err
		}
		if n > max {
			return fmt.Errorf("value %d, want 0-%d", n, max)
		}
		return nil
	}
}

// checkDeviceInformationSet accepts the DER of one DeviceInformationSet
// as the element's content (OCTET STRING, or explicitly tagged).
func checkDeviceInformationSet(e element) error {
	v := e.value
	if e.compound {
		if s, rest, err := readTLV(v, 2); err != nil || len(rest) != 0 || s.tag != asn1.TagSequence {
			if v, err = octets(e, 2); err != nil { // BER segments of an OCTET STRING
				return err
			}
		}
	}
	set, rest, err := readTLV(v, 2)
	if err != nil || len(rest) != 0 || set.class != asn1.ClassUniversal || set.tag != asn1.TagSequence {
		return errors.New("not one DeviceInformationSet (SEQUENCE)")
	}
	if len(set.value) == 0 {
		return errors.New("DeviceInformationSet without a component")
	}
	for b := set.value; len(b) > 0; {
		var comp element
		if comp, b, err = readTLV(b, 3); err != nil || comp.class != asn1.ClassUniversal || comp.tag != asn1.TagSequence {
			return errors.New("a component is not a SEQUENCE")
		}
		if err := checkComponent(comp); err != nil {
			return err
		}
	}
	return nil
}

// checkComponent: [0] componentName, [1] manufacturer, [2] model,
// [3] version and an optional [4] certificationId, in this order.
func checkComponent(comp element) error {
	i := 0
	for c := comp.value; len(c) > 0; i++ {
		e, rest, err := readTLV(c, 4)
		if err != nil || e.class != asn1.ClassContextSpecific || e.tag != i || i > 4 {
			return fmt.Errorf("component element %d is not [%d]", i, i)
		}
		if err := checkPrintable(e); err != nil {
			return fmt.Errorf("component element [%d]: %w", i, err)
		}
		c = rest
	}
	if i < 4 {
		return errors.New("a component lacks componentName, manufacturer, model or version")
	}
	return nil
}
