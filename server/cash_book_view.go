package server

import (
	"encoding/json"
	"slices"

	"posbox/fiscal"
	"posbox/fiscal/cashbook"
	"posbox/store"
)

type personJSON struct {
	ID   *string `json:"id"`
	Name string  `json:"name"`
}

func person(id, name string) personJSON {
	return personJSON{ID: strPtr(id), Name: name}
}

type cashMovementJSON struct {
	ID                string      `json:"id"` // the receipt's transaction id
	ClientSerial      string      `json:"client_serial"`
	Number            int64       `json:"number"`
	Kind              string      `json:"kind"`
	BusinessCase      string      `json:"business_case"`
	Amount            json.Number `json:"amount"`
	Reason            string      `json:"reason"`
	VoucherNo         string      `json:"voucher_no"`
	Reverses          *string     `json:"reverses"`
	ReversedBy        *string     `json:"reversed_by"`
	CountID           *string     `json:"count_id"`
	BookedBy          personJSON  `json:"booked_by"`
	ForUser           *personJSON `json:"for_user"` // whose float or tip payout, null: booked_by's
	CreatedAt         string      `json:"created_at"`
	Signed            bool        `json:"signed"`
	ReceiptWithoutTSE bool        `json:"receipt_without_tse"`
}

func cashMovementView(m *store.CashMovement) cashMovementJSON {
	k, _ := cashbook.KindOf(m.Kind)
	var forUser *personJSON
	if m.ForUser != "" {
		p := person(m.ForUser, m.ForUserName)
		forUser = &p
	}
	return cashMovementJSON{ForUser: forUser, ID: m.TxID, ClientSerial: m.ClientSerial, Number: m.No, Kind: m.Kind, BusinessCase: k.BusinessCase,
		Amount: money(m.Cents), Reason: m.Reason, VoucherNo: m.VoucherNo, Reverses: strPtr(m.ReversesTxID),
		ReversedBy: strPtr(m.ReversedBy), CountID: strPtr(m.CountID), BookedBy: person(m.BookedBy, m.BookedByName),
		CreatedAt: ts(m.CreatedAt), Signed: m.Signed, ReceiptWithoutTSE: m.WithoutTSE}
}

type cashCountJSON struct {
	ID                 string           `json:"id"`
	ClientSerial       string           `json:"client_serial"`
	Number             int64            `json:"number"`
	Expected           json.Number      `json:"expected"`
	Counted            json.Number      `json:"counted"`
	Difference         json.Number      `json:"difference"`
	Denominations      map[string]int64 `json:"denominations"`
	DifferenceMovement *string          `json:"difference_movement"`
	CountedBy          personJSON       `json:"counted_by"`
	CreatedAt          string           `json:"created_at"`
}

func cashCountView(c *store.CashCount) cashCountJSON {
	v := cashCountJSON{ID: c.ID, ClientSerial: c.ClientSerial, Number: c.No, Expected: money(c.ExpectedCents),
		Counted: money(c.CountedCents), Difference: money(c.DifferenceCents), DifferenceMovement: strPtr(c.DifferenceTxID),
		CountedBy: person(c.CountedBy, c.CountedByName), CreatedAt: ts(c.CreatedAt)}
	if c.Denominations != nil {
		v.Denominations = map[string]int64{}
		keys := make([]int64, 0, len(c.Denominations))
		for k := range c.Denominations {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v.Denominations[fiscal.Amount(k)] = c.Denominations[k]
		}
	}
	return v
}
