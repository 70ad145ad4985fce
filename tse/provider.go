package tse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Provider is one TSS at a provider: the fiskaly client or the simulator.
// Identifiers are lowercase UUID strings (fiskaly wants v4 for its own
// resources). Every method honours ctx's deadline.
type Provider interface {
	// Kind is "fiskaly" or "simulator".
	Kind() string
	// TSSID is the TSS this provider signs with.
	TSSID() string

	// TSS reads the TSS (GET /tss/{id}).
	TSS(ctx context.Context) (TSSInfo, error)
	// Client reads a registered client (GET /tss/{id}/client/{client_id}).
	Client(ctx context.Context, clientID string) (ClientInfo, error)
	// EnsureClient registers a client with this serial unless it exists
	// (admin auth and logout happen inside, as fiskaly requires).
	EnsureClient(ctx context.Context, clientID, serial string) (ClientInfo, error)

	// Upsert sends one revision of a transaction
	// (PUT /tss/{id}/tx/{tx_id}?tx_revision=N) with exactly these body
	// bytes; a resend of the same revision carries the same bytes.
	Upsert(ctx context.Context, r UpsertRequest) (Tx, error)
	// Tx reads a transaction; revision 0 means the latest.
	Tx(ctx context.Context, txID string, revision int) (Tx, error)
	// ListTx pages through the TSS's transactions (GET /tss/{id}/tx).
	ListTx(ctx context.Context, q ListQuery) (TxPage, error)
}

// Provider kinds.
const (
	KindFiskaly   = "fiskaly"
	KindSimulator = "simulator"
)

// Raw TSS states as the provider reports them.
const (
	TSSCreated       = "CREATED"
	TSSUninitialized = "UNINITIALIZED"
	TSSInitialized   = "INITIALIZED"
	TSSDisabled      = "DISABLED"
	TSSDefective     = "DEFECTIVE"
	TSSDeleted       = "DELETED"
	TSSEvicted       = "EVICTED"
)

// Transaction states.
const (
	TxActive    = "ACTIVE"
	TxFinished  = "FINISHED"
	TxCancelled = "CANCELLED"
)

// Client states.
const (
	ClientRegistered   = "REGISTERED"
	ClientDeregistered = "DEREGISTERED"
)

// SignatureAlgorithm is the only algorithm fiskaly SIGN DE v2 reports.
const SignatureAlgorithm = "ecdsa-plain-SHA256"

// TSSInfo is a TSS as the provider describes it.
type TSSInfo struct {
	ID                  string
	State               string // raw provider state, e.g. INITIALIZED
	Description         string
	SerialNumber        string // hex SHA-256 of the public key bytes
	PublicKey           string // base64 of the uncompressed EC point
	CertificateDER      []byte // the TSS certificate (X.509, DER)
	CertNotAfter        time.Time
	SignatureAlgorithm  string
	SignatureCounter    uint64
	TransactionCounter  uint64
	ActiveTransactions  int
	MaxActiveTx         int
	RegisteredClients   int
	MaxClients          int
	BSICertificationID  string
	ProviderRequestTime time.Time // the provider's clock (HTTP Date), zero if unknown
}

// ClientInfo is a registered client (one per POS terminal).
type ClientInfo struct {
	ID           string
	SerialNumber string
	State        string // REGISTERED or DEREGISTERED
	TSSID        string
}

// UpsertRequest is one revision of a transaction. Body is the exact JSON
// sent: build it once with UpsertBody, store it, resend it unchanged.
type UpsertRequest struct {
	TxID     string
	Revision int // 1 starts the transaction
	Body     []byte
}

// Signature is the TSE's signature over one revision's log message.
type Signature struct {
	Value     string // base64, r||s
	Algorithm string
	Counter   uint64
	PublicKey string // base64
}

// Tx is one transaction revision as the provider answers it.
type Tx struct {
	ID                 string
	TSSID              string
	TSSSerialNumber    string
	ClientID           string
	ClientSerialNumber string
	Number             uint64 // gap-free per TSS, assigned at revision 1
	State              string
	Revision           int
	LatestRevision     int
	TimeStart          time.Time
	TimeEnd            *time.Time // set once FINISHED or CANCELLED
	LogOperation       string     // Start, Update or Finish
	LogTime            time.Time
	Signature          Signature
	QRCodeData         string // on finish
	ProcessType        string
	ProcessData        string
}

// ListQuery pages through transactions. Zero values mean the provider's
// defaults (order_by number, asc, limit 100).
type ListQuery struct {
	OrderBy string // number, state, time_start, time_end
	Order   string // asc or desc
	States  []string
	Limit   int // 1-100
	Offset  int
}

// TxPage is one page of a transaction list.
type TxPage struct {
	Data  []Tx
	Count int
}

// Receipt is fiskaly's standard_v1 "receipt" schema (Kassenbeleg-V1).
// Amounts are decimal strings with two decimals, e.g. "21.42".
type Receipt struct {
	ReceiptType           string             `json:"receipt_type"`
	AmountsPerVATRate     []AmountPerVATRate `json:"amounts_per_vat_rate"`
	AmountsPerPaymentType []AmountPerPayment `json:"amounts_per_payment_type"`
}

// AmountPerVATRate is a gross amount at one VAT rate.
type AmountPerVATRate struct {
	VATRate string `json:"vat_rate"` // NORMAL, REDUCED_1, SPECIAL_RATE_1, SPECIAL_RATE_2, NULL
	Amount  string `json:"amount"`
}

// AmountPerPayment is an amount paid with one payment type.
type AmountPerPayment struct {
	PaymentType  string `json:"payment_type"` // CASH or NON_CASH
	Amount       string `json:"amount"`
	CurrencyCode string `json:"currency_code,omitempty"`
}

// Order is fiskaly's standard_v1 "order" schema (Bestellung-V1): the
// lines of an order taken at a table, signed before it is paid.
type Order struct {
	LineItems []OrderLineItem `json:"line_items"`
}

// OrderLineItem is one line of an order. Quantity has up to five
// decimals, PricePerUnit two to five ("3.50").
type OrderLineItem struct {
	Quantity     string `json:"quantity"`
	Text         string `json:"text"`
	PricePerUnit string `json:"price_per_unit"`
}

// upsertBody is the wire form of an upsert.
type upsertBody struct {
	State    string            `json:"state"`
	ClientID string            `json:"client_id"`
	Schema   *upsertSchema     `json:"schema,omitempty"`
	Metadata map[string]string `json:"metadata,omitempty"`
}

type upsertSchema struct {
	StandardV1 struct {
		Receipt *Receipt `json:"receipt,omitempty"`
		Order   *Order   `json:"order,omitempty"`
	} `json:"standard_v1"`
}

// FinishBody is the finishing revision of a sale: its order when it is
// one, else its receipt.
func FinishBody(clientID string, s *Sale) ([]byte, error) {
	if s.Order == nil {
		return UpsertBody(TxFinished, clientID, &s.Receipt, nil)
	}
	b := upsertBody{State: TxFinished, ClientID: clientID, Schema: &upsertSchema{}}
	b.Schema.StandardV1.Order = s.Order
	return json.Marshal(b)
}

// UpsertBody builds the JSON body of one revision: revision 1 is
// {"state":"ACTIVE","client_id":...} with no schema (DSFinV-K); the
// finishing revision carries the receipt.
func UpsertBody(state, clientID string, receipt *Receipt, metadata map[string]string) ([]byte, error) {
	b := upsertBody{State: state, ClientID: clientID, Metadata: metadata}
	if receipt != nil {
		b.Schema = &upsertSchema{}
		b.Schema.StandardV1.Receipt = receipt
	}
	return json.Marshal(b)
}

// ParseUpsertBody reads an upsert body; the simulator uses it.
func ParseUpsertBody(body []byte) (state, clientID string, receipt *Receipt, metadata map[string]string, err error) {
	var b upsertBody
	if err := json.Unmarshal(body, &b); err != nil {
		return "", "", nil, nil, err
	}
	if b.Schema != nil {
		receipt = b.Schema.StandardV1.Receipt
	}
	return b.State, b.ClientID, receipt, b.Metadata, nil
}

// Class says what the caller should do about an error.
type Class int

const (
	// Transient: network error, timeout, 5xx. Retry with backoff; the
	// request may or may not have been applied.
	Transient Class = iota
	// RateLimited: 429. Wait RetryAfter.
	RateLimited
	// Auth: credentials refused after a refresh.
	Auth
	// Reconcile: the provider's view differs from ours (e.g. revision
	// conflict); read the transaction and compare before doing anything.
	Reconcile
	// TxPermanent: this transaction can never succeed as sent (schema
	// error); park it, go on with others.
	TxPermanent
	// TSSPermanent: the TSS cannot sign (not initialized, disabled,
	// certificate expired, limit reached); pause the queue.
	TSSPermanent
	// ClientPermanent: the TSS refuses one terminal (it cannot be
	// registered: E_CLIENT_LIMIT_REACHED); hold that terminal's sales, go
	// on with the others, and try it again later.
	ClientPermanent
)

func (c Class) String() string {
	switch c {
	case Transient:
		return "transient"
	case RateLimited:
		return "rate_limited"
	case Auth:
		return "auth"
	case Reconcile:
		return "reconcile"
	case TxPermanent:
		return "tx_permanent"
	case TSSPermanent:
		return "tss_permanent"
	case ClientPermanent:
		return "client_permanent"
	}
	return fmt.Sprintf("class(%d)", int(c))
}

// Error is a classified provider error. Code is fiskaly's error code
// (E_TSS_DISABLED, ...) or a posbox code for transport failures
// (E_NETWORK, E_TIMEOUT).
type Error struct {
	Class      Class
	HTTPStatus int // 0 when no response arrived
	Code       string
	Message    string
	RetryAfter time.Duration
	// RequestID is the request-id fiskaly answered, or the one the client
	// sent when no answer (or none with an id) came.
	RequestID string
}

func (e *Error) Error() string {
	if e.HTTPStatus != 0 {
		return fmt.Sprintf("tse: %d %s: %s", e.HTTPStatus, e.Code, e.Message)
	}
	return fmt.Sprintf("tse: %s: %s", e.Code, e.Message)
}

// ClassOf is err's class; an unclassified error counts as Transient.
func ClassOf(err error) Class {
	var e *Error
	if errors.As(err, &e) {
		return e.Class
	}
	return Transient
}
