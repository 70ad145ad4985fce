package tsetar

import (
	"archive/tar"
	"bytes"
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Options says what Verify checks beyond the signatures.
type Options struct {
	// PublicKey verifies the signatures; nil: the key of the certificate
	// in the TAR whose key hash is the messages' serial number.
	PublicKey *ecdsa.PublicKey
	// SerialNumber is the expected TSE serial (hex, any case); "" accepts
	// the serial the messages carry, as long as they all agree.
	SerialNumber string
	// FirstCounter is the signature counter the export must start with
	// (the previous archive's last counter + 1); 0: any.
	FirstCounter uint64
	// LastCounter is the signature counter the export must end with; 0:
	// any.
	LastCounter uint64
	// OnMessage, when set, sees every parsed message in TAR order and
	// Report.Messages stays empty (for exports too big to keep). Its
	// signature may be checked only later: trust nothing before Verify
	// returns nil. An error from it stops Verify.
	OnMessage func(Entry) error
}

// maxLogFile bounds one log message's size (fiskaly refuses bodies over
// 1 MB; process data cannot be larger).
const maxLogFile = 4 << 20

// maxProblems bounds how many problems Verify reports one by one.
const maxProblems = 100

var (
	nameRe    = regexp.MustCompile(`^(Unixt|Utc|Gent)_([0-9A-Za-z.]+)_Sig-([0-9]+)_Log-(Tra|Sys|Aud)(?:_(.*))?\.log$`)
	traNameRe = regexp.MustCompile(`^No-([0-9]+)_(Start|Update|Finish)_Client-(.*?)(?:_Fc-[0-9]+)?$`)
	certExts  = []string{".cer", ".crt", ".der", ".pem"}
)

type verifier struct {
	opts     Options
	report   *Report
	problems []error
	extra    int
	serial   []byte
	pub      *ecdsa.PublicKey
	certs    map[string]*ecdsa.PublicKey // upper-case key hash → key
	certErrs []error
	pending  []pendingSig // parsed before the key was known
	counters []counterAt
}

type pendingSig struct {
	file string
	msg  *LogMessage
}

type counterAt struct {
	counter uint64
	file    string // "" when OnMessage streams
}

func (v *verifier) fail(err error) {
	if len(v.problems) < maxProblems {
		v.problems = append(v.problems, err)
		return
	}
	v.extra++
}

// Verify reads an export TAR, parses every log message, verifies its
// signature, checks the serial and that the signature counters run
// without gap or duplicate. The report describes what was read even when
// err is not nil; err joins every problem found (GapError,
// DuplicateCounterError, SignatureError, MalformedError,
// SerialMismatchError, CertificateError).
func Verify(r io.Reader, opts Options) (*Report, error) {
	v := &verifier{opts: opts, report: &Report{}, certs: map[string]*ecdsa.PublicKey{}}
	if opts.SerialNumber != "" {
		s, err := hex.DecodeString(opts.SerialNumber)
		if err != nil || len(s) != 32 {
			return v.report, fmt.Errorf("tsetar: expected serial number %q is not 64 hex digits", opts.SerialNumber)
		}
		v.serial = s
	}
	if opts.PublicKey != nil {
		h, err := KeyHash(opts.PublicKey)
		if err != nil {
			return v.report, fmt.Errorf("tsetar: public key: %w", err)
		}
		if v.serial != nil && !strings.EqualFold(h, opts.SerialNumber) {
			return v.report, &SerialMismatchError{File: "(public key)", Want: strings.ToLower(opts.SerialNumber), Got: strings.ToLower(h)}
		}
		v.pub = opts.PublicKey
	}
	if err := v.read(r); err != nil {
		return v.report, err
	}
	v.finish()
	if v.extra > 0 {
		v.problems = append(v.problems, fmt.Errorf("tsetar: and %d more problems", v.extra))
	}
	return v.report, errors.Join(v.problems...)
}

// read walks the TAR. Only an error that stops reading is returned.
func (v *verifier) read(r io.Reader) error {
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			v.fail(&MalformedError{Err: fmt.Errorf("not a readable TAR: %w", err)})
			return nil
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		name := path.Base(hdr.Name)
		ext := strings.ToLower(path.Ext(name))
		switch {
		case name == InfoFile:
			b, err := io.ReadAll(io.LimitReader(tr, 1<<16))
			if err != nil {
				v.fail(&MalformedError{File: name, Err: err})
				continue
			}
			v.report.Info = string(b)
		case slices.Contains(certExts, ext):
			v.certificate(name, tr)
		case ext == ".log":
			if hdr.Size > maxLogFile {
				v.fail(&MalformedError{File: name, Err: fmt.Errorf("%d bytes", hdr.Size)})
				continue
			}
			b, err := io.ReadAll(tr)
			if err != nil {
				v.fail(&MalformedError{File: name, Err: err})
				return nil
			}
			if err := v.logMessage(name, b); err != nil {
				return err
			}
		}
	}
}

func (v *verifier) certificate(name string, r io.Reader) {
	v.report.Certificates = append(v.report.Certificates, name)
	b, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		v.certErrs = append(v.certErrs, &CertificateError{File: name, Err: err})
		return
	}
	if blk, _ := pem.Decode(b); blk != nil {
		b = blk.Bytes
	}
	cert, err := x509.ParseCertificate(b)
	if err != nil {
		// A CA certificate on a curve Go does not know (brainpool) is no
		// problem unless the TSE's own key is the one missing.
		v.certErrs = append(v.certErrs, &CertificateError{File: name, Err: err})
		return
	}
	pub, ok := cert.PublicKey.(*ecdsa.PublicKey)
	if !ok {
		return
	}
	if h, err := KeyHash(pub); err == nil {
		v.certs[h] = pub
	}
}

func (v *verifier) logMessage(name string, der []byte) error {
	m, err := ParseLogMessage(der)
	if err != nil {
		v.fail(&MalformedError{File: name, Err: err})
		return nil
	}
	if err := checkName(name, m); err != nil {
		v.fail(&MalformedError{File: name, Err: err})
		return nil
	}
	if v.serial == nil {
		v.serial = m.SerialNumber
	}
	if !bytes.Equal(m.SerialNumber, v.serial) {
		v.fail(&SerialMismatchError{File: name, Want: hex.EncodeToString(v.serial), Got: hex.EncodeToString(m.SerialNumber)})
		return nil
	}
	if m.Kind == KindSystem {
		// A missing field is the message's problem, not a gap: its
		// signature and counter are still checked.
		if err := CheckSystemOperationData(m.EventType, m.SystemOperationData); err != nil {
			v.fail(&MalformedError{File: name, Err: err})
		}
	}
	e := Entry{File: name, Kind: m.Kind, SignatureCounter: m.SignatureCounter, LogTime: m.LogTime,
		TransactionNumber: m.TransactionNumber, Operation: m.ShortOperation(), ClientID: m.ClientID,
		ProcessType: m.ProcessType, EventType: m.EventType}
	rep := v.report
	rep.Count++
	if m.Kind == KindTransaction {
		rep.Transactions++
	}
	if v.pub == nil {
		v.pub = v.certs[strings.ToUpper(hex.EncodeToString(v.serial))]
	}
	if v.pub != nil {
		v.check(name, m)
	} else {
		v.pending = append(v.pending, pendingSig{file: name, msg: m})
	}
	if v.opts.OnMessage != nil {
		v.counters = append(v.counters, counterAt{counter: m.SignatureCounter})
		return v.opts.OnMessage(e)
	}
	v.counters = append(v.counters, counterAt{counter: m.SignatureCounter, file: name})
	rep.Messages = append(rep.Messages, e)
	return nil
}

func (v *verifier) check(name string, m *LogMessage) {
	if err := m.Verify(v.pub); err != nil {
		v.fail(&SignatureError{File: name, Counter: m.SignatureCounter, Reason: err.Error()})
	}
}

// checkName: the file name must say what the content says.
func checkName(name string, m *LogMessage) error {
	g := nameRe.FindStringSubmatch(name)
	if g == nil {
		return errors.New("not a TR-03151 log file name")
	}
	if c, _ := strconv.ParseUint(g[3], 10, 64); c != m.SignatureCounter {
		return fmt.Errorf("name says signature counter %s, content %d", g[3], m.SignatureCounter)
	}
	want := map[Kind]string{KindTransaction: "Tra", KindSystem: "Sys", KindAudit: "Aud"}[m.Kind]
	if g[4] != want {
		return fmt.Errorf("name says Log-%s, content is a %s log", g[4], m.Kind)
	}
	if g[1] == timeUnix && g[2] != strconv.FormatInt(m.LogTime.Unix(), 10) {
		return fmt.Errorf("name says log time %s, content %d", g[2], m.LogTime.Unix())
	}
	if m.Kind == KindTransaction {
		t := traNameRe.FindStringSubmatch(g[5])
		if t == nil {
			return errors.New("not a TR-03151 transaction log file name")
		}
		if n, _ := strconv.ParseUint(t[1], 10, 64); n != m.TransactionNumber || t[2] != m.ShortOperation() {
			return fmt.Errorf("name says No-%s %s, content %d %s", t[1], t[2], m.TransactionNumber, m.ShortOperation())
		}
	}
	return nil
}

func (v *verifier) finish() {
	rep := v.report
	if v.serial != nil {
		rep.SerialNumber = hex.EncodeToString(v.serial)
	}
	if v.opts.PublicKey != nil && v.serial != nil {
		if h, err := KeyHash(v.opts.PublicKey); err == nil && !strings.EqualFold(h, rep.SerialNumber) {
			v.fail(&SerialMismatchError{File: "(public key)", Want: strings.ToLower(h), Got: rep.SerialNumber})
		}
	}
	if len(v.pending) > 0 {
		if v.pub == nil {
			v.pub = v.certs[strings.ToUpper(rep.SerialNumber)]
		}
		if v.pub == nil {
			err := fmt.Errorf("no certificate for TSE serial %s in the export", rep.SerialNumber)
			v.fail(&CertificateError{File: strings.ToUpper(rep.SerialNumber) + "_X509.crt", Err: errors.Join(append([]error{err}, v.certErrs...)...)})
		} else {
			for _, p := range v.pending {
				v.check(p.file, p.msg)
			}
		}
		v.pending = nil
	}
	slices.SortStableFunc(v.counters, func(a, b counterAt) int {
		switch {
		case a.counter < b.counter:
			return -1
		case a.counter > b.counter:
			return 1
		}
		return 0
	})
	slices.SortStableFunc(rep.Messages, func(a, b Entry) int {
		switch {
		case a.SignatureCounter < b.SignatureCounter:
			return -1
		case a.SignatureCounter > b.SignatureCounter:
			return 1
		}
		return 0
	})
	if len(v.counters) == 0 {
		if v.opts.FirstCounter != 0 || v.opts.LastCounter != 0 {
			first, last := max(v.opts.FirstCounter, 1), v.opts.LastCounter
			if last == 0 {
				last = first
			}
			v.fail(&GapError{First: first, Last: last})
		}
		return
	}
	rep.FirstCounter = v.counters[0].counter
	rep.LastCounter = v.counters[len(v.counters)-1].counter
	if f := v.opts.FirstCounter; f != 0 && rep.FirstCounter > f {
		v.fail(&GapError{First: f, Last: rep.FirstCounter - 1})
	} else if f != 0 && rep.FirstCounter < f {
		v.fail(&MalformedError{File: v.counters[0].file, Err: fmt.Errorf("signature counter %d before the expected first %d", rep.FirstCounter, f)})
	}
	for i := 1; i < len(v.counters); i++ {
		a, b := v.counters[i-1], v.counters[i]
		switch {
		case b.counter == a.counter:
			v.fail(&DuplicateCounterError{Counter: a.counter, Files: [2]string{a.file, b.file}})
		case b.counter > a.counter+1:
			v.fail(&GapError{First: a.counter + 1, Last: b.counter - 1})
		}
	}
	if l := v.opts.LastCounter; l != 0 && rep.LastCounter < l {
		v.fail(&GapError{First: rep.LastCounter + 1, Last: l})
	} else if l != 0 && rep.LastCounter > l {
		last := v.counters[len(v.counters)-1]
		v.fail(&MalformedError{File: last.file, Err: fmt.Errorf("signature counter %d after the expected last %d", last.counter, l)})
	}
}
