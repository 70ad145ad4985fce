package server

import (
	"log/slog"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// eReplicationOff: a recovery-sheet route while replica_url is unset.
const eReplicationOff = "replication_off"

// RecoverySheet is the replica's recovery sheet (package replica's Sheet,
// adapted by main): what the owner prints and keeps away from the box.
type RecoverySheet struct {
	URL            string // without secrets
	PublicKey      string
	RecoveryKey    string // the age identity: shown until the sheet is confirmed
	RestoreCommand string // with placeholders the owner fills in
	Text           string // the sheet as `posbox replica key` prints it
}

// RecoverySheeter is what a Replica offers when it has a recovery key
// (main's adapter does): an optional interface, so a Replica fake that
// only reports status stays a one-method struct.
type RecoverySheeter interface {
	RecoverySheet() (RecoverySheet, error)
}

type recoverySheetJSON struct {
	URL            string `json:"url"`
	PublicKey      string `json:"public_key"`
	RecoveryKey    string `json:"recovery_key"`
	RestoreCommand string `json:"restore_command"`
	Text           string `json:"text"`
}

type recoverySheetStatusJSON struct {
	Enabled     bool    `json:"enabled"`
	PublicKey   *string `json:"public_key"`
	Confirmed   bool    `json:"confirmed"`
	ConfirmedAt *string `json:"confirmed_at"`
	ConfirmedBy *string `json:"confirmed_by"`
}

// recoverySheet is the current sheet; replication off (or a Replica
// without a key) is eReplicationOff.
func (s *Server) recoverySheet() (RecoverySheet, error) {
	src, ok := s.cfg.Replica.(RecoverySheeter)
	if !ok {
		return RecoverySheet{}, errHTTP(eReplicationOff, "replication is off (replica_url is not set): there is no recovery sheet")
	}
	return src.RecoverySheet()
}

// sheetConfirmedError says when and by whom the sheet was confirmed and
// where the key is still printed.
func sheetConfirmedError(c *store.RecoverySheetConfirmation) error {
	return store.Errorf(store.ERecoverySheetConfirmed,
		"%s confirmed at %s that the recovery sheet is printed and stored; the console no longer shows the key: `posbox replica key` on the box prints it",
		c.ByName, ts(c.ConfirmedAt))
}

// getRecoverySheet is GET /api/replica/recovery-sheet: the sheet with the
// key, until an admin confirmed it (410 after).
func (s *Server) getRecoverySheet(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	sh, err := s.recoverySheet()
	if err != nil {
		return err
	}
	c, err := s.store.RecoverySheetConfirmation(r.Context(), sh.PublicKey)
	if err != nil {
		return err
	}
	if c != nil {
		return sheetConfirmedError(c)
	}
	return writeJSON(w, http.StatusOK, envelope{"recovery_sheet": recoverySheetJSON(sh)})
}

// recoverySheetStatus is GET /api/replica/recovery-sheet/status: whether
// the sheet still waits to be printed, without the key (the dashboard's
// prompt asks this).
func (s *Server) recoverySheetStatus(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	out := recoverySheetStatusJSON{}
	if _, on := s.cfg.Replica.(RecoverySheeter); on {
		sh, err := s.recoverySheet()
		if err != nil {
			return err
		}
		c, err := s.store.RecoverySheetConfirmation(r.Context(), sh.PublicKey)
		if err != nil {
			return err
		}
		out.Enabled, out.PublicKey = true, &sh.PublicKey
		if c != nil {
			out.Confirmed, out.ConfirmedAt, out.ConfirmedBy = true, tsPtr(&c.ConfirmedAt), &c.ByName
		}
	}
	return writeJSON(w, http.StatusOK, envelope{"recovery_sheet_status": out})
}

// confirmRecoverySheet is POST /api/replica/recovery-sheet/confirm: the
// admin has printed and stored the sheet of public_key (the one she was
// shown); from now on the console refuses to show the key.
func (s *Server) confirmRecoverySheet(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var in struct {
		PublicKey *string `json:"public_key"`
	}
	if err := decode(r, &in, false); err != nil {
		return err
	}
	if in.PublicKey == nil || *in.PublicKey == "" {
		return store.Invalid("public_key", store.FRequired, "is required: the public key printed on the sheet")
	}
	sh, err := s.recoverySheet()
	if err != nil {
		return err
	}
	if *in.PublicKey != sh.PublicKey {
		return errHTTP(store.EConflict, "the recovery key is not the one on this sheet (a new replica.key was made): show and print the new sheet")
	}
	u := caller(r.Context()).user
	c, err := s.store.ConfirmRecoverySheet(r.Context(), sh.PublicKey, u.ID, u.Name)
	if err != nil {
		if prev, _ := s.store.RecoverySheetConfirmation(r.Context(), sh.PublicKey); prev != nil && store.ErrorCode(err) == store.ERecoverySheetConfirmed {
			return sheetConfirmedError(prev)
		}
		return err
	}
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "recovery sheet confirmed as printed and stored; the console shows the key no more",
		slog.String("public_key", sh.PublicKey), slog.String("user_id", u.ID))
	return writeJSON(w, http.StatusOK, envelope{"recovery_sheet_status": recoverySheetStatusJSON{
		Enabled: true, PublicKey: &sh.PublicKey, Confirmed: true, ConfirmedAt: tsPtr(&c.ConfirmedAt), ConfirmedBy: &c.ByName}})
}
