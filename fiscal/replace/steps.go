package replace

import (
	"context"
	"fmt"

	"posbox/store"
	"posbox/tse"
)

// step does the replacement's current step and says what it recorded.
func (r *Replacer) step(ctx context.Context, rep *store.TSEReplacement) (store.ReplacementStep, error) {
	switch rep.Step {
	case store.ReplaceClosing:
		return store.ReplacementStep{}, r.closeRegisters(ctx, rep)
	case store.ReplaceExport:
		n, err := r.archiveAll(ctx, rep)
		return store.ReplacementStep{FinalCounter: n}, err
	case store.ReplaceDisable:
		n, err := r.disable(ctx, rep)
		return store.ReplacementStep{FinalCounter: n}, err
	case store.ReplaceSetup:
		c, err := r.o.Setup(ctx)
		if err != nil {
			return store.ReplacementStep{}, fmt.Errorf("set up the new TSS: %w", err)
		}
		serial, err := r.serialOf(ctx, c)
		return store.ReplacementStep{NewTSSID: c.TSSID, NewSerial: serial}, err
	}
	return store.ReplacementStep{}, fmt.Errorf("replace: unknown step %q", rep.Step)
}

// closeRegisters takes the closing of every register with sales no
// closing covers, up to now. Sales waiting unsigned would be closed
// without their signatures: refused, unless the TSE can no longer sign
// them and the admin gave a reason (the force flag; they stay recorded as
// receipts without TSE, docs/TSE.md).
func (r *Replacer) closeRegisters(ctx context.Context, rep *store.TSEReplacement) error {
	q, err := r.st.TSEQueueState(ctx, rep.RestaurantID)
	if err != nil {
		return err
	}
	if q.Pending > 0 {
		if rep.ForceReason == "" {
			return refused("%d sales wait in the queue unsigned: wait until the TSE signed them (the queue empties by itself), or, if the TSE can no longer sign, continue with a reason", q.Pending)
		}
		if why := r.cannotSign(ctx); why == "" {
			return refused("%d sales wait in the queue and the TSE can still sign them: wait until the queue is empty", q.Pending)
		}
	}
	now := r.st.Now()
	loc := r.loc(ctx, rep.RestaurantID)
	serials, err := r.st.UnclosedRegisters(ctx, rep.RestaurantID, now)
	if err != nil {
		return err
	}
	for _, serial := range serials {
		c, err := r.st.CreateTSEClosing(ctx, store.NewTSEClosing{RestaurantID: rep.RestaurantID, ClientSerial: serial,
			BusinessDate: localDate(now, loc), Until: now, CreatedBy: rep.StartedBy})
		if store.ErrorCode(err) == store.EClosingEmpty {
			continue
		}
		if err != nil {
			return fmt.Errorf("closing of register %s: %w", serial, err)
		}
		r.log.Info("TSS replacement: register closed", "register", serial, "z_nr", c.ZNr)
	}
	return nil
}

// cannotSign says why the old TSS cannot sign any more ("" when it can).
func (r *Replacer) cannotSign(ctx context.Context) string {
	info, err := r.o.Old.TSS(ctx)
	if err != nil {
		_, why := tse.Describe(err)
		return why
	}
	if info.State != tse.TSSInitialized {
		return "the TSS is " + info.State
	}
	if !info.CertNotAfter.IsZero() && !info.CertNotAfter.After(r.st.Now()) {
		return "its certificate expired"
	}
	return ""
}

// archiveAll runs the archive and checks that its chain reaches the old
// TSS's signature counter: every log message is in a verified TAR.
func (r *Replacer) archiveAll(ctx context.Context, rep *store.TSEReplacement) (int64, error) {
	info, err := r.o.Old.TSS(ctx)
	if err != nil {
		_, why := tse.Describe(err)
		return 0, refused("the TSE cannot be reached for its final export: %s; try again later", why)
	}
	if err := r.o.Archive.Run(ctx); err != nil {
		return 0, fmt.Errorf("the final export: %w", err)
	}
	st, err := r.o.Archive.Status(ctx, rep.RestaurantID)
	if err != nil {
		return 0, err
	}
	if st.LastArchivedCounter < int64(info.SignatureCounter) {
		why := st.LastProblem
		if why == "" {
			why = "not finished yet"
		}
		return 0, refused("the final export reached signature counter %d of %d (%s); try again", st.LastArchivedCounter, info.SignatureCounter, why)
	}
	return int64(info.SignatureCounter), nil
}

// disable takes the old TSS to DISABLED and archives the disabling's own
// log message, so the archive ends with it.
func (r *Replacer) disable(ctx context.Context, rep *store.TSEReplacement) (int64, error) {
	if _, err := r.o.Old.Disable(ctx); err != nil {
		_, why := tse.Describe(err)
		return 0, refused("the TSE could not be disabled: %s; try again", why)
	}
	return r.archiveAll(ctx, rep)
}

// serialOf reads the new TSS's serial number.
func (r *Replacer) serialOf(ctx context.Context, c tse.Settings) (string, error) {
	f, err := tse.NewFiskaly(tse.FiskalyConfig{BaseURL: c.URL, APIKey: c.APIKey, APISecret: c.APISecret, TSSID: c.TSSID,
		AdminPIN: c.AdminPIN, Logger: r.log, Now: r.st.Now})
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.TSS(ctx)
	if err != nil {
		return "", fmt.Errorf("read the new TSS: %w", err)
	}
	return info.SerialNumber, nil
}
