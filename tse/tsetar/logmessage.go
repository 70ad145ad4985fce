package tsetar

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/asn1"
	"errors"
	"fmt"
	"hash"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// The layout of a log message (TR-03151; element order and tags as
// certified TSEs export them, checked against a D-Trust TSE's TAR):
//
//	LogMessage ::= SEQUENCE {
//	  version            INTEGER (2),
//	  certifiedDataType  OBJECT IDENTIFIER,
//	  certifiedData      context-specific primitive elements, flat,
//	  serialNumber       OCTET STRING,
//	  signatureAlgorithm SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL },
//	  seAuditData        OCTET STRING OPTIONAL,   -- audit logs only
//	  signatureCounter   INTEGER,
//	  logTime            INTEGER | UTCTime | GeneralizedTime,
//	  signatureValue     OCTET STRING }
//
// Transaction log certifiedData: [0] operationType, [1] clientId,
// [2] processData, [3] processType, [4] additionalExternalData OPTIONAL,
// [5] transactionNumber, [6] additionalInternalData OPTIONAL.
// System log certifiedData: [0] operationType, [1] systemOperationData,
// [2] additionalInternalData OPTIONAL.

const logMessageVersion = 2

// Tags of context-specific elements.
const (
	tagOperationType        = 0
	tagClientID             = 1
	tagProcessData          = 2
	tagProcessType          = 3
	tagAdditionalExternal   = 4
	tagTransactionNumber    = 5
	tagAdditionalInternal   = 6
	tagSystemOperationData  = 1
	tagSystemAdditionalData = 2
)

// Time formats of logTime, with the file name prefix each gets.
const (
	timeUnix        = "Unixt"
	timeUTC         = "Utc"
	timeGeneralized = "Gent"
)

// element is one TLV of the outer sequence.
type element struct {
	class, tag int
	compound   bool
	value      []byte // content octets
	full       []byte // the whole TLV as written (set by readTLV and build)
}

// build sets full to the DER encoding.
func (e element) build() element {
	e.full = e.encode()
	return e
}

func (e element) encode() []byte {
	b, err := asn1.Marshal(asn1.RawValue{Class: e.class, Tag: e.tag, IsCompound: e.compound, Bytes: e.value})
	if err != nil {
		panic(err) // a RawValue with these fields always marshals
	}
	return b
}

func universal(tag int, value []byte) element {
	return element{class: asn1.ClassUniversal, tag: tag, value: value}.build()
}

func context(tag int, value []byte) element {
	return element{class: asn1.ClassContextSpecific, tag: tag, value: value}.build()
}

// valueOf is the content octets of a DER encoding.
func valueOf(der []byte) []byte {
	var rv asn1.RawValue
	if _, err := asn1.Unmarshal(der, &rv); err != nil {
		panic(err)
	}
	return rv.Bytes
}

// intValue is the content octets of a non-negative INTEGER.
func intValue(n uint64) []byte {
	b, err := asn1.Marshal(new(big.Int).SetUint64(n))
	if err != nil {
		panic(err)
	}
	return valueOf(b)
}

func oidValue(oid asn1.ObjectIdentifier) []byte {
	b, err := asn1.Marshal(oid)
	if err != nil {
		panic(err)
	}
	return valueOf(b)
}

// elements lists the message's elements in order, the signature last
// (omitted while unsigned).
func (m *LogMessage) elements() ([]element, error) {
	var typ asn1.ObjectIdentifier
	var data []element
	switch m.Kind {
	case KindTransaction:
		typ = OIDTransactionLog
		if m.ShortOperation() == "" {
			return nil, fmt.Errorf("transaction log operation %q", m.Operation)
		}
		if !printable(m.ClientID) || !printable(m.ProcessType) {
			return nil, errors.New("clientId and processType must be PrintableString")
		}
		data = append(data,
			context(tagOperationType, []byte(m.Operation)),
			context(tagClientID, []byte(m.ClientID)),
			context(tagProcessData, m.ProcessData),
			context(tagProcessType, []byte(m.ProcessType)))
		if m.AdditionalExternalData != nil {
			data = append(data, context(tagAdditionalExternal, m.AdditionalExternalData))
		}
		data = append(data, context(tagTransactionNumber, intValue(m.TransactionNumber)))
		if m.AdditionalInternalData != nil {
			data = append(data, context(tagAdditionalInternal, m.AdditionalInternalData))
		}
	case KindSystem:
		typ = OIDSystemLog
		if m.EventType == "" || !printable(m.EventType) {
			return nil, fmt.Errorf("system log event type %q", m.EventType)
		}
		data = append(data,
			context(tagOperationType, []byte(m.EventType)),
			context(tagSystemOperationData, m.SystemOperationData))
		if m.AdditionalInternalData != nil {
			data = append(data, context(tagSystemAdditionalData, m.AdditionalInternalData))
		}
	case KindAudit:
		typ = OIDAuditLog
	default:
		return nil, fmt.Errorf("log message kind %q", m.Kind)
	}
	if len(m.SerialNumber) != sha256.Size {
		return nil, fmt.Errorf("serial number is %d bytes, want %d", len(m.SerialNumber), sha256.Size)
	}
	alg := m.SignatureAlgorithm
	if len(alg) == 0 {
		return nil, errors.New("no signature algorithm")
	}
	algSeq := element{class: asn1.ClassUniversal, tag: asn1.TagSequence, compound: true,
		value: universal(asn1.TagOID, oidValue(alg)).full}.build()
	els := []element{
		universal(asn1.TagInteger, intValue(logMessageVersion)),
		universal(asn1.TagOID, oidValue(typ)),
	}
	els = append(els, data...)
	els = append(els, universal(asn1.TagOctetString, m.SerialNumber), algSeq)
	if m.Kind == KindAudit {
		els = append(els, universal(asn1.TagOctetString, m.SEAuditData))
	}
	if m.LogTime.IsZero() || m.LogTime.Unix() < 0 {
		return nil, errors.New("no log time")
	}
	els = append(els,
		universal(asn1.TagInteger, intValue(m.SignatureCounter)),
		universal(asn1.TagInteger, intValue(uint64(m.LogTime.Unix()))))
	if m.SignatureValue != nil {
		els = append(els, universal(asn1.TagOctetString, m.SignatureValue))
	}
	return els, nil
}

// dtbs is the data to be signed: the complete encodings (tag, length,
// value) of every element but the signature, as written. This is what a
// certified TSE signs (checked against a D-Trust TSE's export; docs/TSE.md).
func dtbs(els []element) []byte {
	var b bytes.Buffer
	for _, e := range els {
		b.Write(e.full)
	}
	return b.Bytes()
}

// Marshal encodes the log message as DER (it must be signed).
func (m *LogMessage) Marshal() ([]byte, error) {
	if len(m.SignatureValue) == 0 {
		return nil, errors.New("tsetar: log message is not signed")
	}
	els, err := m.elements()
	if err != nil {
		return nil, fmt.Errorf("tsetar: %w", err)
	}
	var body []byte
	for _, e := range els {
		body = append(body, e.full...)
	}
	return element{class: asn1.ClassUniversal, tag: asn1.TagSequence, compound: true, value: body}.encode(), nil
}

// DataToBeSigned is what the signature covers: the encodings (tag,
// length, value) of every element from version to logTime, in order, as
// written. For a parsed message these are the bytes as read.
func (m *LogMessage) DataToBeSigned() ([]byte, error) {
	if m.raw != nil {
		return m.raw, nil
	}
	c := *m
	c.SignatureValue = nil
	els, err := c.elements()
	if err != nil {
		return nil, fmt.Errorf("tsetar: %w", err)
	}
	return dtbs(els), nil
}

// hashFor is the hash a signature algorithm names.
func hashFor(alg asn1.ObjectIdentifier) (hash.Hash, error) {
	switch {
	case alg.Equal(OIDECDSAPlainSHA256):
		return sha256.New(), nil
	case alg.Equal(OIDECDSAPlainSHA384):
		return sha512.New384(), nil
	case alg.Equal(OIDECDSAPlainSHA512):
		return sha512.New(), nil
	case alg.Equal(asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 2}):
		return sha256.New224(), nil
	}
	return nil, fmt.Errorf("unsupported signature algorithm %s", alg)
}

// Sign sets SignatureValue with key (ecdsa-plain over the hash the
// SignatureAlgorithm names; an empty one becomes ecdsa-plain-SHA256).
func (m *LogMessage) Sign(key *ecdsa.PrivateKey) error {
	if len(m.SignatureAlgorithm) == 0 {
		m.SignatureAlgorithm = OIDECDSAPlainSHA256
	}
	m.raw = nil
	data, err := m.DataToBeSigned()
	if err != nil {
		return err
	}
	h, err := hashFor(m.SignatureAlgorithm)
	if err != nil {
		return fmt.Errorf("tsetar: %w", err)
	}
	h.Write(data)
	r, s, err := ecdsa.Sign(rand.Reader, key, h.Sum(nil))
	if err != nil {
		return fmt.Errorf("tsetar: sign: %w", err)
	}
	n := (key.Curve.Params().N.BitLen() + 7) / 8
	sig := make([]byte, 2*n)
	r.FillBytes(sig[:n])
	s.FillBytes(sig[n:])
	m.SignatureValue = sig
	return nil
}

// Verify checks SignatureValue against pub.
func (m *LogMessage) Verify(pub *ecdsa.PublicKey) error {
	data, err := m.DataToBeSigned()
	if err != nil {
		return err
	}
	h, err := hashFor(m.SignatureAlgorithm)
	if err != nil {
		return err
	}
	n := (pub.Curve.Params().N.BitLen() + 7) / 8
	if len(m.SignatureValue) != 2*n {
		return fmt.Errorf("signature is %d bytes, want %d (plain r||s)", len(m.SignatureValue), 2*n)
	}
	h.Write(data)
	r := new(big.Int).SetBytes(m.SignatureValue[:n])
	s := new(big.Int).SetBytes(m.SignatureValue[n:])
	if !ecdsa.Verify(pub, h.Sum(nil), r, s) {
		return errors.New("signature does not verify")
	}
	return nil
}

// FileName is the message's TR-03151 file name (without the _Fc-n that
// the Writer adds to duplicates).
func (m *LogMessage) FileName() string {
	format := m.timeFormat
	if format == "" {
		format = timeUnix
	}
	var t string
	switch format {
	case timeUTC:
		t = m.LogTime.UTC().Format("060102150405Z")
	case timeGeneralized:
		t = m.LogTime.UTC().Format("20060102150405Z")
	default:
		t = strconv.FormatInt(m.LogTime.Unix(), 10)
	}
	prefix := format + "_" + t + "_Sig-" + strconv.FormatUint(m.SignatureCounter, 10)
	switch m.Kind {
	case KindTransaction:
		return prefix + "_Log-Tra_No-" + strconv.FormatUint(m.TransactionNumber, 10) + "_" +
			m.ShortOperation() + "_Client-" + strings.ReplaceAll(m.ClientID, "/", "-") + ".log"
	case KindSystem:
		return prefix + "_Log-Sys_" + strings.ReplaceAll(m.EventType, "/", "-") + ".log"
	}
	return prefix + "_Log-Aud.log"
}

// printable: the PrintableString alphabet.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(" '()+,-./:=?", c) >= 0) {
			return false
		}
	}
	return true
}

// ParseLogMessage decodes one DER log message.
func ParseLogMessage(der []byte) (*LogMessage, error) {
	outer, rest, err := readTLV(der, 0)
	if err != nil {
		return nil, fmt.Errorf("tsetar: %w", err)
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("tsetar: %d bytes after the log message", len(rest))
	}
	if outer.class != asn1.ClassUniversal || outer.tag != asn1.TagSequence || !outer.compound {
		return nil, errors.New("tsetar: log message is not a SEQUENCE")
	}
	var els []element
	for b := outer.value; len(b) > 0; {
		var e element
		e, b, err = readTLV(b, 1)
		if err != nil {
			return nil, fmt.Errorf("tsetar: element %d: %w", len(els)+1, err)
		}
		els = append(els, e)
	}
	p := parser{els: els}
	m, err := p.message()
	if err != nil {
		return nil, fmt.Errorf("tsetar: %w", err)
	}
	return m, nil
}

type parser struct {
	els []element
	i   int
}

func (p *parser) peek() (element, bool) {
	if p.i >= len(p.els) {
		return element{}, false
	}
	return p.els[p.i], true
}

func (p *parser) next(name string, class, tag int) ([]byte, error) {
	e, ok := p.peek()
	if !ok {
		return nil, fmt.Errorf("%s missing", name)
	}
	if e.class != class || e.tag != tag {
		return nil, fmt.Errorf("%s: found class %d tag %d, want class %d tag %d", name, e.class, e.tag, class, tag)
	}
	p.i++
	return octets(e, 1)
}

// optional takes a context element with tag if it comes next.
func (p *parser) optional(tag int) []byte {
	if e, ok := p.peek(); ok && e.class == asn1.ClassContextSpecific && e.tag == tag {
		if v, err := octets(e, 1); err == nil {
			p.i++
			return v
		}
	}
	return nil
}

// uintValue reads the content octets of a DER INTEGER that must be
// non-negative and fit 63 bits.
func uintValue(name string, v []byte) (uint64, error) {
	if len(v) == 0 {
		return 0, fmt.Errorf("%s: empty integer", name)
	}
	if len(v) > 1 && (v[0] == 0 && v[1]&0x80 == 0 || v[0] == 0xff && v[1]&0x80 != 0) {
		return 0, fmt.Errorf("%s: integer not minimally encoded", name)
	}
	if v[0]&0x80 != 0 {
		return 0, fmt.Errorf("%s: negative", name)
	}
	n := new(big.Int).SetBytes(v)
	if !n.IsInt64() {
		return 0, fmt.Errorf("%s: too large", name)
	}
	return n.Uint64(), nil
}

func (p *parser) message() (*LogMessage, error) {
	m := &LogMessage{}
	v, err := p.next("version", asn1.ClassUniversal, asn1.TagInteger)
	if err != nil {
		return nil, err
	}
	if ver, err := uintValue("version", v); err != nil || ver != logMessageVersion {
		return nil, fmt.Errorf("version %x, want %d", v, logMessageVersion)
	}
	v, err = p.next("certifiedDataType", asn1.ClassUniversal, asn1.TagOID)
	if err != nil {
		return nil, err
	}
	var typ asn1.ObjectIdentifier
	if _, err := asn1.Unmarshal(universal(asn1.TagOID, v).encode(), &typ); err != nil {
		return nil, fmt.Errorf("certifiedDataType: %w", err)
	}
	switch {
	case typ.Equal(OIDTransactionLog):
		m.Kind = KindTransaction
		if err := p.transaction(m); err != nil {
			return nil, err
		}
	case typ.Equal(OIDSystemLog):
		m.Kind = KindSystem
		if err := p.system(m); err != nil {
			return nil, err
		}
	case typ.Equal(OIDAuditLog):
		m.Kind = KindAudit
	default:
		return nil, fmt.Errorf("certifiedDataType %s is no TR-03151 log", typ)
	}
	if m.SerialNumber, err = p.next("serialNumber", asn1.ClassUniversal, asn1.TagOctetString); err != nil {
		return nil, err
	}
	if len(m.SerialNumber) != sha256.Size {
		return nil, fmt.Errorf("serialNumber is %d bytes, want %d", len(m.SerialNumber), sha256.Size)
	}
	alg, ok := p.peek()
	if !ok || alg.class != asn1.ClassUniversal || alg.tag != asn1.TagSequence || !alg.compound {
		return nil, errors.New("signatureAlgorithm missing")
	}
	p.i++
	if _, err := asn1.Unmarshal(alg.value, &m.SignatureAlgorithm); err != nil {
		return nil, fmt.Errorf("signatureAlgorithm: %w", err)
	}
	if m.Kind == KindAudit {
		if m.SEAuditData, err = p.next("seAuditData", asn1.ClassUniversal, asn1.TagOctetString); err != nil {
			return nil, err
		}
	}
	if v, err = p.next("signatureCounter", asn1.ClassUniversal, asn1.TagInteger); err != nil {
		return nil, err
	}
	if m.SignatureCounter, err = uintValue("signatureCounter", v); err != nil {
		return nil, err
	}
	if err := p.logTime(m); err != nil {
		return nil, err
	}
	signed := dtbs(p.els[:p.i])
	if m.SignatureValue, err = p.next("signatureValue", asn1.ClassUniversal, asn1.TagOctetString); err != nil {
		return nil, err
	}
	if p.i != len(p.els) {
		return nil, fmt.Errorf("%d elements after signatureValue", len(p.els)-p.i)
	}
	m.raw = signed
	return m, nil
}

func (p *parser) transaction(m *LogMessage) error {
	v, err := p.next("operationType", asn1.ClassContextSpecific, tagOperationType)
	if err != nil {
		return err
	}
	m.Operation = string(v)
	if m.ShortOperation() == "" {
		return fmt.Errorf("operationType %q", v)
	}
	if v, err = p.next("clientId", asn1.ClassContextSpecific, tagClientID); err != nil {
		return err
	}
	m.ClientID = string(v)
	// Some certified TSEs leave out empty processData and processType.
	m.ProcessData = p.optional(tagProcessData)
	m.ProcessType = string(p.optional(tagProcessType))
	m.AdditionalExternalData = p.optional(tagAdditionalExternal)
	if v, err = p.next("transactionNumber", asn1.ClassContextSpecific, tagTransactionNumber); err != nil {
		return err
	}
	if m.TransactionNumber, err = uintValue("transactionNumber", v); err != nil {
		return err
	}
	m.AdditionalInternalData = p.optional(tagAdditionalInternal)
	return nil
}

func (p *parser) system(m *LogMessage) error {
	v, err := p.next("operationType", asn1.ClassContextSpecific, tagOperationType)
	if err != nil {
		return err
	}
	m.EventType = string(v)
	if m.SystemOperationData, err = p.next("systemOperationData", asn1.ClassContextSpecific, tagSystemOperationData); err != nil {
		return err
	}
	m.AdditionalInternalData = p.optional(tagSystemAdditionalData)
	return nil
}

func (p *parser) logTime(m *LogMessage) error {
	e, ok := p.peek()
	if !ok || e.class != asn1.ClassUniversal {
		return errors.New("logTime missing")
	}
	switch e.tag {
	case asn1.TagInteger:
		n, err := uintValue("logTime", e.value)
		if err != nil {
			return err
		}
		m.LogTime, m.timeFormat = time.Unix(int64(n), 0).UTC(), timeUnix
	case asn1.TagUTCTime, asn1.TagGeneralizedTime:
		var t time.Time
		if _, err := asn1.Unmarshal(universal(e.tag, e.value).encode(), &t); err != nil {
			return fmt.Errorf("logTime: %w", err)
		}
		m.LogTime, m.timeFormat = t.UTC(), timeUTC
		if e.tag == asn1.TagGeneralizedTime {
			m.timeFormat = timeGeneralized
		}
	default:
		return fmt.Errorf("logTime has tag %d", e.tag)
	}
	p.i++
	return nil
}
