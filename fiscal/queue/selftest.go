package queue

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"time"

	"posbox/store"
	"posbox/tse"
)

// Self-test thresholds (docs/API.md, "POST /api/tse/self-test").
const (
	certWarnDays   = 30
	activeWarnFrac = 0.9
	oldestPending  = 15 * time.Minute
	maxClockSkew   = 60 * time.Second
)

// selfTestCheck is one step of the self-test, stored with it as JSON. A
// warning does not fail it.
type selfTestCheck struct {
	Name   string `json:"name"`
	Result string `json:"result"` // ok, warning, failed, skipped
	Detail string `json:"detail,omitempty"`
	Code   string `json:"code,omitempty"` // the provider's error code when it failed the check
}

// StartSelfTest starts the self-test in the background unless one is
// running (then the running one is returned and nothing starts):
// single-flight through the database's partial unique index.
func (q *Queue) StartSelfTest(ctx context.Context, restaurantID string) (*store.TSESelfTest, error) {
	if err := q.serves(restaurantID); err != nil {
		return nil, err
	}
	t, started, err := q.st.StartTSESelfTest(ctx, restaurantID, q.tssID)
	if err != nil || !started {
		return t, err
	}
	q.bg.Add(1)
	go func() {
		defer q.bg.Done()
		q.finishSelfTest(q.bgCtx, t)
	}()
	return t, nil
}

// recheckAfter is how long after a failed self-test ended the appliance
// tries again by itself once the provider answers.
const recheckAfter = 15 * time.Minute

// recheck starts a self-test in the background when the last one failed:
// the provider is back (an outage just ended, or the reconciler reached
// it), and the status should not say "last self-test failed" until 02:00.
func (q *Queue) recheck(ctx context.Context) {
	last, err := q.st.LatestTSESelfTest(context.WithoutCancel(ctx), q.restaurantID)
	if err != nil || last.State != store.SelfTestFailed {
		return
	}
	if _, err := q.StartSelfTest(context.WithoutCancel(ctx), q.restaurantID); err != nil {
		q.log.Warn("self-test after the provider came back", "err", err)
		return
	}
	q.log.Info("TSE provider answers again; self-test started, the last one had failed")
}

// runSelfTestNow runs a self-test to its end (the 02:00 UTC job); it does
// nothing when one is already running.
func (q *Queue) runSelfTestNow(ctx context.Context) (*store.TSESelfTest, error) {
	t, started, err := q.st.StartTSESelfTest(ctx, q.restaurantID, q.tssID)
	if err != nil || !started {
		return t, err
	}
	return q.finishSelfTest(ctx, t), nil
}

func (q *Queue) finishSelfTest(ctx context.Context, t *store.TSESelfTest) *store.TSESelfTest {
	checks := q.selfTestChecks(ctx, t.RestaurantID)
	state, msg, code := store.SelfTestPassed, "", ""
	for _, c := range checks {
		if c.Result == "failed" {
			state, msg, code = store.SelfTestFailed, c.Name+": "+c.Detail, c.Code
			break
		}
	}
	done, err := q.st.FinishTSESelfTest(context.WithoutCancel(ctx), t.ID, state, msg, code, checks)
	if err != nil {
		q.log.Error("record self-test", "err", err)
		return t
	}
	q.log.Info("TSE self-test finished", "state", state, "error", msg)
	return done
}

// selfTestChecks runs the appliance's checks in order; after the TSS
// cannot be read, the checks that need it are skipped.
func (q *Queue) selfTestChecks(ctx context.Context, restaurantID string) []selfTestCheck {
	var out []selfTestCheck
	add := func(name, result, detail string) {
		out = append(out, selfTestCheck{Name: name, Result: result, Detail: detail})
	}
	now := q.now()

	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	info, err := q.p.TSS(cctx)
	cancel()
	if err != nil {
		code, reason := tse.Describe(err)
		out = append(out, selfTestCheck{Name: "tss_reachable", Result: "failed", Detail: reason, Code: code})
		return out
	}
	q.cacheInfo(ctx, info)
	add("tss_reachable", "ok", q.p.Kind())
	if info.State != tse.TSSInitialized {
		add("tss_state", "failed", "TSS state is "+info.State+", not INITIALIZED")
	} else {
		add("tss_state", "ok", info.State)
	}
	add(certificateCheck(info, now))
	add(q.clientsCheck(ctx))
	if info.MaxActiveTx > 0 && float64(info.ActiveTransactions) >= activeWarnFrac*float64(info.MaxActiveTx) {
		add("active_transactions", "failed", fmt.Sprintf("%d of %d transactions are open; cancel stale ones", info.ActiveTransactions, info.MaxActiveTx))
	} else {
		add("active_transactions", "ok", fmt.Sprintf("%d of %d", info.ActiveTransactions, info.MaxActiveTx))
	}
	qs, err := q.st.TSEQueueState(ctx, restaurantID)
	switch {
	case err != nil:
		add("queue", "failed", err.Error())
	case qs.Attention > 0:
		add("queue", "failed", fmt.Sprintf("%d items need attention", qs.Attention))
	case qs.OldestQueuedAt != nil && now.Sub(*qs.OldestQueuedAt) > oldestPending:
		add("queue", "failed", "oldest queued item is from "+store.FormatTime(*qs.OldestQueuedAt))
	default:
		add("queue", "ok", fmt.Sprintf("%d pending", qs.Pending))
	}
	if info.ProviderRequestTime.IsZero() {
		add("clock_skew", "skipped", "the provider sent no time")
	} else if skew := now.Sub(info.ProviderRequestTime).Abs(); skew > maxClockSkew {
		add("clock_skew", "warning", fmt.Sprintf("appliance clock differs from the provider's by %s", skew.Round(time.Second)))
	} else {
		add("clock_skew", "ok", skew.Round(time.Second).String())
	}
	add(q.signatureCheck(ctx, info))
	return out
}

// certificateCheck: the certificate parses, is valid now, and belongs to
// the TSS key (serial = SHA-256 of the public key; cert key = public key).
func certificateCheck(info tse.TSSInfo, now time.Time) (string, string, string) {
	const name = "certificate"
	pub, err := base64.StdEncoding.DecodeString(info.PublicKey)
	if err != nil {
		return name, "failed", "public key is not base64"
	}
	sum := sha256.Sum256(pub)
	if hex.EncodeToString(sum[:]) != info.SerialNumber {
		return name, "failed", "serial number is not the SHA-256 of the public key"
	}
	notAfter := info.CertNotAfter
	if len(info.CertificateDER) > 0 {
		cert, err := x509.ParseCertificate(info.CertificateDER)
		if err != nil {
			return name, "failed", "certificate does not parse: " + err.Error()
		}
		ck, ok := cert.PublicKey.(*ecdsa.PublicKey)
		if !ok {
			return name, "failed", "certificate key is not ECDSA"
		}
		raw, err := ck.Bytes()
		if err != nil || !bytes.Equal(raw, pub) {
			return name, "failed", "certificate key is not the TSS public key"
		}
		notAfter = cert.NotAfter
	}
	if notAfter.IsZero() {
		return name, "failed", "no certificate"
	}
	if !notAfter.After(now) {
		return name, "failed", "certificate expired at " + store.FormatTime(notAfter)
	}
	if d := tse.DaysUntil(notAfter, now); d <= certWarnDays {
		return name, "warning", fmt.Sprintf("certificate expires in %d days (%s)", d, store.FormatTime(notAfter))
	}
	return name, "ok", "valid until " + store.FormatTime(notAfter)
}

// clientsCheck: every terminal the appliance registered is REGISTERED.
func (q *Queue) clientsCheck(ctx context.Context) (string, string, string) {
	const name = "clients"
	clients, err := q.st.TSEClients(ctx, q.tssID)
	if err != nil {
		return name, "failed", err.Error()
	}
	n := 0
	for _, c := range clients {
		if c.RegisteredAt == nil {
			continue
		}
		ci, err := q.p.Client(ctx, c.ClientID)
		if err != nil {
			_, reason := tse.Describe(err)
			return name, "failed", c.Serial + ": " + reason
		}
		if ci.State != tse.ClientRegistered {
			return name, "failed", c.Serial + " is " + ci.State
		}
		n++
	}
	return name, "ok", fmt.Sprintf("%d registered", n)
}

// signatureCheck verifies the latest signature with the TSS public key.
// Only the simulator's signed data is known to us (a certified TSE signs
// TR-03151 log messages we do not rebuild), so fiskaly skips it; no probe
// transaction is ever signed, since that would be a real fiscal record.
func (q *Queue) signatureCheck(ctx context.Context, info tse.TSSInfo) (string, string, string) {
	const name = "signature"
	if q.p.Kind() != tse.KindSimulator {
		return name, "skipped", "signed data of a certified TSE is not rebuilt here"
	}
	page, err := q.p.ListTx(ctx, tse.ListQuery{OrderBy: "number", Order: "desc", Limit: 1})
	if err != nil {
		_, reason := tse.Describe(err)
		return name, "failed", reason
	}
	if len(page.Data) == 0 {
		return name, "skipped", "no transaction signed yet"
	}
	raw, err := base64.StdEncoding.DecodeString(info.PublicKey)
	if err != nil {
		return name, "failed", "public key is not base64"
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return name, "failed", "public key: " + err.Error()
	}
	if err := tse.VerifyTx(pub, page.Data[0]); err != nil {
		return name, "failed", fmt.Sprintf("transaction %d: %v", page.Data[0].Number, err)
	}
	return name, "ok", fmt.Sprintf("transaction %d verifies", page.Data[0].Number)
}
