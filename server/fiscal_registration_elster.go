package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/fiscal/registration"
	"posbox/store"
)

// elsterReport is the registration as the ELSTER file reports it.
func elsterReport(rep *registrationJSON) registration.Report {
	val := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	var out registration.Report
	for _, r := range rep.CashRegisters {
		out.Registers = append(out.Registers, registration.Register{Serial: r.ClientSerial, Software: r.Software,
			SoftwareVersion: r.SoftwareVersion, Brand: r.Brand, Model: r.Model, AcquiredOn: val(r.AcquiredOn),
			InServiceOn: val(r.InServiceOn), DecommissionedOn: val(r.DecommissionedOn)})
	}
	if len(rep.TSEs) > 0 {
		t := rep.TSEs[0]
		out.TSE = &registration.TSE{Serial: t.SerialNumber, BSICertificationID: t.BSICertificationID, InServiceOn: val(t.InServiceOn),
			Simulated: t.Simulated}
	}
	return out
}

// elsterFile is the upload file of the registration as it is now.
func (s *Server) elsterFile(r *http.Request) ([]byte, error) {
	rep, err := s.registration(r.Context())
	if err != nil {
		return nil, err
	}
	return registration.ELSTER(elsterReport(rep))
}

// writeELSTER answers with an upload file as a download.
func writeELSTER(w http.ResponseWriter, name string, file []byte) error {
	h := w.Header()
	h.Set("Content-Type", "application/xml; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(file)
	return err
}

// getRegistrationELSTER is GET /api/fiscal/registration/elster.xml: the
// file to upload in Mein ELSTER, or registration_incomplete naming what
// the master data lacks.
func (s *Server) getRegistrationELSTER(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	file, err := s.elsterFile(r)
	if err != nil {
		return err
	}
	day := s.store.Now().In(caller(r.Context()).restaurant.Location()).Format(store.DateFormat)
	return writeELSTER(w, "aufzeichnung146a_"+day+".xml", file)
}

// registrationChangeJSON is one change that makes a registration due.
type registrationChangeJSON struct {
	Change  string `json:"change"`
	Subject string `json:"subject"`
	Date    string `json:"date"`
	DueBy   string `json:"due_by"`
}

func registrationChangesView(list []store.RegistrationChange) []registrationChangeJSON {
	out := []registrationChangeJSON{}
	for _, c := range list {
		out = append(out, registrationChangeJSON{c.Change, c.Subject, c.On, c.DueOn})
	}
	return out
}

// getRegistrationDue is GET /api/fiscal/registration/due: the changes no
// submission covers yet, and the earliest deadline (null when none).
func (s *Server) getRegistrationDue(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	list, err := s.store.OpenRegistrationChanges(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	var dueBy *string
	if len(list) > 0 {
		dueBy = &list[0].DueOn
	}
	return writeJSON(w, http.StatusOK, envelope{"due": envelope{"due_by": dueBy, "changes": registrationChangesView(list)}})
}

// submissionJSON is a registration marked as submitted.
type submissionJSON struct {
	ID          string                   `json:"id"`
	SubmittedOn string                   `json:"submitted_on"`
	SHA256      string                   `json:"sha256"`
	CreatedBy   string                   `json:"created_by"`
	CreatedAt   string                   `json:"created_at"`
	Changes     []registrationChangeJSON `json:"changes"`
}

func submissionView(x *store.RegistrationSubmission) submissionJSON {
	return submissionJSON{x.ID, x.SubmittedOn, x.SHA256, x.CreatedBy, ts(x.CreatedAt), registrationChangesView(x.Changes)}
}

// postRegistrationSubmitted is POST /api/fiscal/registration/submitted:
// the owner uploaded the file in Mein ELSTER on submitted_on. The file
// as it is now is kept unchanged as proof, and every open change is
// covered (the banner goes). Refused like the file when it cannot be made.
func (s *Server) postRegistrationSubmitted(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req struct {
		SubmittedOn string `json:"submitted_on"`
	}
	if err := decode(r, &req, false); err != nil {
		return err
	}
	if req.SubmittedOn == "" {
		return store.Invalid("submitted_on", store.FRequired, "missing or empty")
	}
	file, err := s.elsterFile(r)
	if err != nil {
		return err
	}
	who := caller(r.Context())
	sub, err := s.store.SubmitRegistration(r.Context(), who.restaurant.ID, req.SubmittedOn, string(file), who.user.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, envelope{"submission": submissionView(sub)})
}

// listRegistrationSubmissions is GET /api/fiscal/registration/submissions.
func (s *Server) listRegistrationSubmissions(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	list, err := s.store.RegistrationSubmissions(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	out := []submissionJSON{}
	for i := range list {
		out = append(out, submissionView(&list[i]))
	}
	return writeJSON(w, http.StatusOK, envelope{"submissions": out})
}

// getRegistrationSubmissionFile is GET
// /api/fiscal/registration/submissions/{id}/elster.xml: the file kept
// when the registration was marked as submitted.
func (s *Server) getRegistrationSubmissionFile(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	sub, err := s.store.RegistrationSubmission(r.Context(), caller(r.Context()).restaurant.ID, ps.ByName("id"))
	if err != nil {
		return err
	}
	return writeELSTER(w, "aufzeichnung146a_"+sub.SubmittedOn+".xml", []byte(sub.File))
}
