package tsetar

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// Finding: Verify accepted system logs that lack fields TR-03151 makes
// mandatory (unblockUser without unblockResult, logOut without
// logOutCause, updateDevice without oldVersion), on which a third-party
// checker (konfidas TTC) aborts. Such a message is now a MalformedError
// naming the file and the field; its signature and counter still count.
func TestSystemLogWithoutMandatoryFieldsIsCaught(t *testing.T) {
	f := newFixture(t)
	device := []ComponentInformation{{Name: "tss", Manufacturer: "posbox", Model: "test", Version: "1"}}
	full, err := UpdateDeviceData("admin", device)
	if err != nil {
		t.Fatal(err)
	}
	admin := context(1, []byte("admin")).full
	for _, c := range []struct {
		event         string
		complete, cut []byte
		missing       string
	}{
		{"unblockUser", UnblockUserData("admin", UnblockOK), admin, "unblockResult"},
		{"logOut", LogOutData("admin", LogOutByUser), admin, "logOutCause"},
		{"updateDevice", full, admin, "oldVersion"},
	} {
		msgs := f.messages(t, 1, 3)
		sys := &LogMessage{Kind: KindSystem, SerialNumber: f.serial, SignatureCounter: 4, LogTime: f.t0.Add(4e9),
			EventType: c.event, SystemOperationData: c.complete}
		if err := sys.Sign(f.key); err != nil {
			t.Fatal(err)
		}
		if _, err := Verify(bytes.NewReader(f.tar(t, append(msgs, sys), nil)), Options{FirstCounter: 1, LastCounter: 4}); err != nil {
			t.Fatalf("%s with every field: %v", c.event, err)
		}
		sys.SystemOperationData = c.cut
		if err := sys.Sign(f.key); err != nil {
			t.Fatal(err)
		}
		rep, err := Verify(bytes.NewReader(f.tar(t, append(msgs, sys), nil)), Options{FirstCounter: 1, LastCounter: 4})
		var me *MalformedError
		if !errors.As(err, &me) || me.File != sys.FileName() || !strings.Contains(err.Error(), c.missing) {
			t.Fatalf("%s without %s: %v", c.event, c.missing, err)
		}
		if len(unjoin(err)) != 1 || rep.Count != 4 || rep.LastCounter != 4 {
			t.Fatalf("%s: only the field is a problem, the message counts: %v %+v", c.event, err, rep)
		}
	}
}

// The encodings certified TSEs write pass: fiskaly's unblockUser and
// logOut (read from its exports), a D-Trust DeviceInformationSet (as in
// its updateDeviceCompleted). Malformed values do not.
func TestCheckSystemOperationData(t *testing.T) {
	dtrustSet := "3037" + "3035" + "8006" + hex.EncodeToString([]byte("device")) + "810c" + hex.EncodeToString([]byte("D-TRUST GmbH")) +
		"8216" + hex.EncodeToString([]byte("D-TRUST Web-Dienst TSE")) + "8305" + hex.EncodeToString([]byte("3.0.4"))
	for _, c := range []struct {
		event, data string
		ok          bool
	}{
		{"unblockUser", "810874722d61646d696e820100", true}, // fiskaly: tr-admin, ok
		{"logOut", "810561646d696e820100", true},            // fiskaly: admin, user
		{"logOut", "810561646d696e820101", true},            // timeout
		{"updateDevice", "810561646d696e83" + "39" + dtrustSet, true},
		{"updateDevice", "810561646d696e" + "a3" + "39" + dtrustSet, true}, // explicitly tagged
		{"registerClient", "8108636c69656e742d31", true},                   // not checked
		{"unblockUser", "810561646d696e", false},                           // no unblockResult
		{"unblockUser", "810561646d696e820104", false},                     // no such result
		{"unblockUser", "820100810561646d696e", false},                     // out of order
		{"logOut", "820100", false},                                        // no userId
		{"logOut", "3008810561646d696e820100", false},                      // wrapped in a SEQUENCE
		{"logOut", "810561646d696e8201ff", false},                          // negative
		{"updateDevice", "810561646d696e8300", false},
		{"updateDevice", "810561646d696e830a3008300680016181016d", false}, // component without model and version
	} {
		b, _ := hex.DecodeString(c.data)
		if err := CheckSystemOperationData(c.event, b); (err == nil) != c.ok {
			t.Errorf("%s %s: %v, want ok=%v", c.event, c.data, err, c.ok)
		}
	}
}
