package tsesim

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"posbox/tse"
)

// The simulator's reading of an upsert body. fiskaly SIGN DE v2's TxSchema
// holds exactly one of standard_v1, raw or dsfinvtw_v1, and standard_v1
// exactly one of receipt, order or other. Each becomes the processType and
// processData the TSE signs:
//
//   - standard_v1.receipt: "Kassenbeleg-V1", processData from the amounts
//     (ProcessData);
//   - standard_v1.order: "Bestellung-V1", one line per item,
//     <quantity>;"<text>";<price_per_unit>, lines joined by CR (DSFinV-K
//     Annex I), quotes in the text doubled;
//   - standard_v1.other: "SonstigerVorgang"; the schema leaves the object
//     free and DSFinV-K leaves this processData to the recording system:
//     the simulator signs the object as sent, in compact JSON;
//   - raw: the given process_type, and process_data (base64) decoded.
//
// A transaction answers schema.standard_v1 as it was sent (with the
// schema's defaults filled in, e.g. currency_code EUR) next to schema.raw
// with the processType and base64 processData the TSE signed, as fiskaly's
// answers do.

// The processTypes fiskaly's schema gives standard_v1's other two forms:
// "order" is "Bestellung-V1" (tse.ProcessTypeOrder) and "other" is
// "SonstigerVorgang".
const processTypeOther = "SonstigerVorgang"

var (
	// priceRe is an order line's price_per_unit: an amount.
	priceRe = regexp.MustCompile(tse.AmountPattern)
	// quantityRe is an order line's quantity: up to five decimals, none
	// needed.
	quantityRe = regexp.MustCompile(`^-?\d+(\.\d{1,5})?$`)
)

// txSchema is what one revision's schema gives the TSE.
type txSchema struct {
	processType string
	processData string
	// stdV1 is schema.standard_v1 as answers show it; nil for raw.
	stdV1 json.RawMessage
}

// upsertRequest is an upsert body as the simulator reads it.
type upsertRequest struct {
	state, clientID string
	schema          *txSchema // nil: the revision carries no schema
	metadata        map[string]string
}

// errSchema marks a body that is JSON but breaks the schema; its message
// names the field.
type errSchema struct{ msg string }

func (e *errSchema) Error() string { return e.msg }

func schemaErr(format string, args ...any) error {
	return &errSchema{fmt.Sprintf(format, args...)}
}

// parseUpsert reads and checks an upsert body.
func parseUpsert(body []byte) (upsertRequest, error) {
	var w struct {
		State    string            `json:"state"`
		ClientID string            `json:"client_id"`
		Schema   json.RawMessage   `json:"schema"`
		Metadata map[string]string `json:"metadata"`
	}
	if err := decodeJSON(body, &w, "body", false); err != nil {
		return upsertRequest{}, err
	}
	req := upsertRequest{state: w.State, clientID: w.ClientID, metadata: w.Metadata}
	if isNull(w.Schema) {
		return req, nil
	}
	key, val, err := onlyKey(w.Schema, "body/schema", "standard_v1", "raw", "dsfinvtw_v1")
	if err != nil {
		return req, err
	}
	switch key {
	case "standard_v1":
		req.schema, err = parseStandardV1(val)
	case "raw":
		req.schema, err = parseRaw(val)
	default:
		err = schemaErr("schema.dsfinvtw_v1: taximeter and odometer transactions are not supported by the simulator")
	}
	return req, err
}

func isNull(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) == 0 || string(s) == "null"
}

// onlyKey reads an object that must hold exactly one of keys (the
// schema's minProperties 1, maxProperties 1 and oneOf).
func onlyKey(raw json.RawMessage, at string, keys ...string) (string, json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return "", nil, schemaErr("%s must be object", at)
	}
	if len(m) == 1 {
		for k, v := range m {
			if slices.Contains(keys, k) {
				return k, v, nil
			}
		}
	}
	return "", nil, schemaErr("%s must hold exactly one of %s", at, strings.Join(keys, ", "))
}

func parseRaw(val json.RawMessage) (*txSchema, error) {
	var r struct {
		ProcessType *string `json:"process_type"`
		ProcessData *string `json:"process_data"`
	}
	if err := decodeJSON(val, &r, "body/schema/raw", false); err != nil {
		return nil, err
	}
	if r.ProcessType == nil {
		return nil, schemaErr("schema.raw.process_type is required")
	}
	if r.ProcessData == nil {
		return nil, schemaErr("schema.raw.process_data is required")
	}
	data, err := base64.StdEncoding.DecodeString(*r.ProcessData)
	if err != nil {
		return nil, schemaErr("schema.raw.process_data must be base64: %v", err)
	}
	// The TSS reports transaction_data_encoding UTF-8.
	if !utf8.Valid(data) {
		return nil, schemaErr("schema.raw.process_data: the decoded data must be UTF-8")
	}
	return &txSchema{processType: *r.ProcessType, processData: string(data)}, nil
}

func parseStandardV1(val json.RawMessage) (*txSchema, error) {
	key, val, err := onlyKey(val, "body/schema/standard_v1", "receipt", "order", "other")
	if err != nil {
		return nil, err
	}
	var sch *txSchema
	switch key {
	case "receipt":
		sch, err = parseReceipt(val)
	case "order":
		sch, err = parseOrder(val)
	default:
		sch, err = parseOther(val)
	}
	if err != nil {
		return nil, err
	}
	sch.stdV1, err = json.Marshal(map[string]json.RawMessage{key: sch.stdV1})
	return sch, err
}

// parseReceipt reads standard_v1.receipt; stdV1 is the receipt as sent
// (deprecated vat_rate decimals and the currency's case kept) with a
// missing currency_code shown as its default EUR.
func parseReceipt(val json.RawMessage) (*txSchema, error) {
	var r tse.Receipt
	if err := decodeJSON(val, &r, "body/schema/standard_v1/receipt", false); err != nil {
		return nil, err
	}
	if err := tse.ValidateReceipt(&r); err != nil {
		return nil, &errSchema{err.Error()}
	}
	type payment struct {
		PaymentType  string `json:"payment_type"`
		Amount       string `json:"amount"`
		CurrencyCode string `json:"currency_code"`
	}
	echo := struct {
		ReceiptType           string                 `json:"receipt_type"`
		AmountsPerVATRate     []tse.AmountPerVATRate `json:"amounts_per_vat_rate"`
		AmountsPerPaymentType []payment              `json:"amounts_per_payment_type,omitempty"`
	}{ReceiptType: r.ReceiptType, AmountsPerVATRate: r.AmountsPerVATRate}
	if echo.AmountsPerVATRate == nil {
		echo.AmountsPerVATRate = []tse.AmountPerVATRate{}
	}
	for _, p := range r.AmountsPerPaymentType {
		cur := p.CurrencyCode
		if cur == "" {
			cur = "EUR"
		}
		echo.AmountsPerPaymentType = append(echo.AmountsPerPaymentType, payment{p.PaymentType, p.Amount, cur})
	}
	std, err := json.Marshal(echo)
	if err != nil {
		return nil, err
	}
	return &txSchema{processType: tse.ProcessTypeReceipt, processData: tse.ProcessData(&r), stdV1: std}, nil
}

// orderLine is one line of standard_v1.order.
type orderLine struct {
	Quantity     string `json:"quantity"`
	Text         string `json:"text"`
	PricePerUnit string `json:"price_per_unit"`
}

// parseOrder reads standard_v1.order: line_items is required, and each
// line needs quantity (up to 5 decimals), text (at most 255 characters)
// and price_per_unit (2 to 5 decimals).
func parseOrder(val json.RawMessage) (*txSchema, error) {
	var w struct {
		LineItems *[]struct {
			Quantity     *string `json:"quantity"`
			Text         *string `json:"text"`
			PricePerUnit *string `json:"price_per_unit"`
		} `json:"line_items"`
	}
	if err := decodeJSON(val, &w, "body/schema/standard_v1/order", false); err != nil {
		return nil, err
	}
	if w.LineItems == nil {
		return nil, schemaErr("schema.standard_v1.order.line_items is required")
	}
	lines := make([]orderLine, 0, len(*w.LineItems))
	for i, l := range *w.LineItems {
		at := fmt.Sprintf("schema.standard_v1.order.line_items[%d]", i)
		switch {
		case l.Quantity == nil || l.Text == nil || l.PricePerUnit == nil:
			return nil, schemaErr("%s needs quantity, text and price_per_unit", at)
		case !quantityRe.MatchString(*l.Quantity):
			return nil, schemaErr("%s.quantity: %q must match %s", at, *l.Quantity, quantityRe)
		case utf8.RuneCountInString(*l.Text) > 255:
			return nil, schemaErr("%s.text: at most 255 characters", at)
		case !priceRe.MatchString(*l.PricePerUnit):
			return nil, schemaErr("%s.price_per_unit: %q must match %s", at, *l.PricePerUnit, priceRe)
		}
		lines = append(lines, orderLine{*l.Quantity, *l.Text, *l.PricePerUnit})
	}
	std, err := json.Marshal(struct {
		LineItems []orderLine `json:"line_items"`
	}{lines})
	if err != nil {
		return nil, err
	}
	return &txSchema{processType: tse.ProcessTypeOrder, processData: orderProcessData(lines), stdV1: std}, nil
}

// orderProcessData is the Bestellung-V1 processData of an order's lines.
func orderProcessData(lines []orderLine) string {
	rows := make([]string, len(lines))
	for i, l := range lines {
		rows[i] = l.Quantity + `;"` + strings.ReplaceAll(l.Text, `"`, `""`) + `";` + l.PricePerUnit
	}
	return strings.Join(rows, "\r")
}

// parseOther reads standard_v1.other, an object with any properties.
func parseOther(val json.RawMessage) (*txSchema, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(val, &m); err != nil || m == nil {
		return nil, schemaErr("body/schema/standard_v1/other must be object")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, val); err != nil || !utf8.Valid(buf.Bytes()) {
		return nil, schemaErr("schema.standard_v1.other must be an object in UTF-8")
	}
	return &txSchema{processType: processTypeOther, processData: buf.String(), stdV1: buf.Bytes()}, nil
}

// schemaMessage is the 400 message of a parseUpsert error.
func schemaMessage(err error) string {
	var se *errSchema
	if errors.As(err, &se) {
		return se.msg
	}
	return "body is not valid JSON" // not reached: parsing returns errSchema
}
