package archive

import (
	"cmp"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"posbox/store"
	"posbox/tse"
	"posbox/tse/tsetar"
)

// Verification findings: the stable codes of a rejected TAR (the
// archive row's reason_code and the tse_error event's error_code).
const (
	FindingGap                = "tar_gap"
	FindingBadSignature       = "tar_bad_signature"
	FindingCounterOrder       = "tar_counter_order"
	FindingSerialMismatch     = "tar_serial_mismatch"
	FindingCertificate        = "tar_certificate"
	FindingMalformed          = "tar_malformed"
	FindingMissingTransaction = "tar_missing_transaction"
	FindingEmpty              = "tar_empty"
)

// maxListed bounds the counters and numbers a finding names.
const maxListed = 20

// txMsg is a transaction log message of the TAR: its signature counter
// and transaction number.
type txMsg struct{ counter, number uint64 }

// verify reads the TAR in rd and checks, with tsetar: every log message's
// signature against the TSS's public key (pub; the TAR's certificate for
// the serial when pub is nil), the TSS serial, counters strictly
// increasing without gap and, for an incremental range, running exactly
// from its first to its last counter (its first is the previous range's
// last + 1, so there is no gap against the previous archive). Then every
// transaction posbox signed whose last signature falls in the TAR's
// counters must be there with its number. A finding says why the TAR is
// refused; err is a failure of the box (the database), not of the TAR.
func (a *Archive) verify(ctx context.Context, r *store.TSEArchive, rd io.Reader, info tse.TSSInfo, pub *ecdsa.PublicKey) (
	store.TSEArchiveResult, *store.TSEArchiveFinding, error) {
	var res store.TSEArchiveResult
	opts := tsetar.Options{PublicKey: pub, SerialNumber: info.SerialNumber}
	if r.Kind == store.TSEArchiveIncremental {
		opts.FirstCounter, opts.LastCounter = uint64(*r.FirstCounter), uint64(*r.LastCounter)
	}
	var txs []txMsg
	var first, last time.Time
	var count int64
	opts.OnMessage = func(e tsetar.Entry) error {
		count++
		if first.IsZero() || e.LogTime.Before(first) {
			first = e.LogTime
		}
		if e.LogTime.After(last) {
			last = e.LogTime
		}
		if e.Kind == tsetar.KindTransaction {
			txs = append(txs, txMsg{e.SignatureCounter, e.TransactionNumber})
		}
		return ctx.Err()
	}
	rep, verr := tsetar.Verify(rd, opts)
	if ctx.Err() != nil {
		return res, nil, ctx.Err()
	}
	if verr != nil {
		return res, findingOf(verr), nil
	}
	if rep == nil || rep.Count == 0 {
		return res, &store.TSEArchiveFinding{Code: FindingEmpty, Reason: "the TAR holds no log message"}, nil
	}
	res.FirstCounter, res.LastCounter = int64(rep.FirstCounter), int64(rep.LastCounter)
	res.LogMessages, res.FirstLogTime, res.LastLogTime = count, first.UTC(), last.UTC()

	signed, err := a.st.TSESignedCounters(ctx, a.p.TSSID(), res.FirstCounter, res.LastCounter)
	if err != nil {
		return res, nil, err
	}
	slices.SortFunc(txs, func(x, y txMsg) int { return cmp.Compare(x.counter, y.counter) })
	var missing []string
	for _, s := range signed {
		i, ok := slices.BinarySearchFunc(txs, uint64(s.Counter), func(m txMsg, c uint64) int { return cmp.Compare(m.counter, c) })
		if !ok || txs[i].number != uint64(s.Number) {
			missing = append(missing, fmt.Sprintf("%d (signature counter %d)", s.Number, s.Counter))
		}
	}
	if len(missing) > 0 {
		return res, &store.TSEArchiveFinding{Code: FindingMissingTransaction,
			Reason:  fmt.Sprintf("%d transaction(s) posbox had signed are not in the TAR: %s", len(missing), listed(missing)),
			Details: map[string]any{"missing_transactions": head(missing)}}, nil
	}
	return res, nil, nil
}

// findingOf turns tsetar's joined errors into one finding: the gravest
// kind names it, the sentence lists what was found.
func findingOf(err error) *store.TSEArchiveFinding {
	var gap *tsetar.GapError
	var sig *tsetar.SignatureError
	var dup *tsetar.DuplicateCounterError
	var serial *tsetar.SerialMismatchError
	var cert *tsetar.CertificateError
	var mal *tsetar.MalformedError
	f := &store.TSEArchiveFinding{Code: FindingMalformed, Details: map[string]any{}}
	switch {
	case errors.As(err, &sig):
		f.Code = FindingBadSignature
		f.Details["signature_counter"] = sig.Counter
	case errors.As(err, &gap):
		f.Code = FindingGap
		f.Details["missing_from"], f.Details["missing_to"] = gap.First, gap.Last
	case errors.As(err, &dup):
		f.Code = FindingCounterOrder
		f.Details["signature_counter"] = dup.Counter
	case errors.As(err, &serial):
		f.Code = FindingSerialMismatch
	case errors.As(err, &cert):
		f.Code = FindingCertificate
	case errors.As(err, &mal):
		f.Code = FindingMalformed
	}
	var parts []string
	for _, e := range unjoin(err) {
		parts = append(parts, strings.TrimPrefix(e.Error(), "tsetar: "))
	}
	f.Reason = "the TAR failed verification: " + listed(parts)
	return f
}

// unjoin lists the errors errors.Join put together (err itself otherwise).
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func listed(s []string) string {
	if len(s) > maxListed {
		return strings.Join(s[:maxListed], "; ") + fmt.Sprintf("; and %d more", len(s)-maxListed)
	}
	return strings.Join(s, "; ")
}

func head(s []string) []string { return s[:min(len(s), maxListed)] }
