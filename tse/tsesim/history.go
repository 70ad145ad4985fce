package tsesim

import (
	"errors"
	"fmt"
	"time"

	"posbox/tse"
)

// A history made elsewhere (posbox's seeder, built with -tags seed, see
// internal/seed): years of sales signed with the default TSS's key as
// upsertTx signs them, but not written to the journal, whose replay at
// every start would take a minute for a million sales. A real TSE keeps
// no such history either: fiskaly deletes a TSS's data after three
// months, once posbox's archive holds it. ForgetHistory then tells the
// journal how far the TSS has counted, so it numbers on from there.

// opHistory is ForgetHistory's journal record.
const opHistory = "history"

// HistorySale is one sale of a history: its two revisions are signed at
// Start (revision 1, signature counter Counter) and End (revision 2,
// Counter+1) with transaction number Number.
type HistorySale struct {
	TxID, ClientID string
	Number         uint64
	Counter        uint64
	Start, End     time.Time
	// FinishBody is revision 2's upsert body as posbox sends it.
	FinishBody []byte
}

// SignHistory signs a history sale's two revisions with the default
// TSS's key as the TSS would have signed them, without journaling them;
// the client must be registered. Safe for concurrent use.
func (s *Simulator) SignHistory(h HistorySale) (start, finish tse.Tx, err error) {
	s.mu.Lock()
	t, err := s.defaultTSS()
	var c *simClient
	if err == nil {
		c = s.findClient(h.ClientID)
	}
	s.mu.Unlock()
	if err != nil {
		return start, finish, err
	}
	if c == nil || c.tss != t.id {
		return start, finish, fmt.Errorf("tse: client %s is not registered", h.ClientID)
	}
	req, err := parseUpsert(h.FinishBody)
	if err != nil || req.schema == nil {
		return start, finish, fmt.Errorf("tse: history sale %s: a finishing body with a schema: %v", h.TxID, err)
	}
	at := unixTime(h.Start)
	start = tse.Tx{ID: h.TxID, TSSID: t.id, TSSSerialNumber: t.serial, ClientID: c.id, ClientSerialNumber: c.serial,
		Number: h.Number, State: tse.TxActive, Revision: 1, LatestRevision: 1, TimeStart: at, LogOperation: "Start", LogTime: at}
	start.Signature = tse.Signature{Algorithm: tse.SignatureAlgorithm, Counter: h.Counter, PublicKey: t.pubB64}
	if start.Signature.Value, err = signTx(t.key, start); err != nil {
		return start, finish, err
	}
	end := unixTime(h.End)
	finish = start
	finish.State, finish.Revision, finish.LatestRevision = req.state, 2, 2
	finish.TimeEnd, finish.LogOperation, finish.LogTime = &end, "Finish", end
	finish.ProcessType, finish.ProcessData = req.schema.processType, req.schema.processData
	finish.Signature.Counter = h.Counter + 1
	if finish.Signature.Value, err = signTx(t.key, finish); err != nil {
		return start, finish, err
	}
	finish.QRCodeData = tse.QRCodeData(finish)
	return start, finish, nil
}

// Counter is the default TSS's signature counter: the next signature
// gets Counter()+1.
func (s *Simulator) Counter() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.def == nil {
		return 0
	}
	return s.def.counter
}

// ForgetHistory records that the default TSS signed up to signature
// counter counter and transaction number number before what its journal
// holds; the next transaction gets number+1. Only a TSS whose journal
// holds no transaction yet takes it.
func (s *Simulator) ForgetHistory(counter, number uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.defaultTSS()
	if err != nil {
		return err
	}
	return s.commit(record{Op: opHistory, TSS: t.id, Time: s.now().Unix(), HistCounter: counter, HistNumber: number})
}

// applyHistory is ForgetHistory's record on replay and commit.
func applyHistory(t *simTSS, rec record) error {
	if len(t.byNumber) > 0 || t.numberBase > 0 {
		return errors.New("history after transactions")
	}
	if rec.HistCounter < t.counter {
		return fmt.Errorf("history up to counter %d after %d", rec.HistCounter, t.counter)
	}
	t.counter, t.txCounter, t.numberBase = rec.HistCounter, rec.HistNumber, rec.HistNumber
	return nil
}
