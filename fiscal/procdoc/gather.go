package procdoc

import (
	"context"
	"slices"
	"strings"
	"time"

	"posbox/fiscal"
	"posbox/store"
	"posbox/tse"
)

// TSE is what the document needs of the signer (fiscal/queue's Queue):
// the TSS as last known, and the provider's kind.
type TSE interface {
	TSS(ctx context.Context, restaurantID string) (info store.TSEInfo, fresh bool, err error)
	Kind() string
}

// Setup is the box's configuration as main knows it: the program, and
// how the archive, the backups and replication are set up.
type Setup struct {
	Version, Build string
	Archive        fiscal.ProcDocArchive // FirstCounter stays nil: Builder.ArchiveStart fills it
	Backups        fiscal.ProcDocBackups
	Replication    fiscal.ProcDocReplication
	Retention      fiscal.ProcDocRetention
}

// Builder makes and records the documents of a box.
type Builder struct {
	St    *store.Store
	TSE   TSE // nil: nothing signs on this box
	Setup Setup
	// ArchiveStart is the signature counter the TSE archive starts from
	// and why, when it does not start at the first; ok false when it
	// does. nil until the store keeps it: the document then names none.
	ArchiveStart func(ctx context.Context, restaurantID string) (first int64, reason string, ok bool, err error)
}

// Gather collects the restaurant's document from the box as it is now.
func (b *Builder) Gather(ctx context.Context, restaurantID string) (*fiscal.ProcedureDocument, error) {
	rest, err := b.St.Restaurant(ctx, restaurantID)
	if err != nil {
		return nil, err
	}
	m, err := b.St.FiscalMasterData(ctx, restaurantID)
	if err != nil {
		return nil, err
	}
	loc := rest.Location()
	day := func(t time.Time) *string { v := t.In(loc).Format(store.DateFormat); return &v }
	d := &fiscal.ProcedureDocument{
		Restaurant: rest.Name, Timezone: rest.Timezone,
		Taxpayer: fiscal.ProcDocAddress{Name: m.BusinessName, Street: m.Street, Postcode: m.Postcode, City: m.City, Country: m.Country,
			TaxNumber: m.TaxNumber, VATID: m.VATID},
		Location: fiscal.ProcDocAddress{Name: m.LocationName, Street: m.LocationStreet, Postcode: m.LocationPostcode,
			City: m.LocationCity, Country: m.LocationCountry},
		Software:    fiscal.ProcDocSoftware{Name: "posbox", Version: b.Setup.Version, Build: b.Setup.Build, SchemaVersion: b.St.SchemaVersion()},
		Archive:     b.Setup.Archive,
		Backups:     b.Setup.Backups,
		Replication: b.Setup.Replication,
		Retention:   b.Setup.Retention,
	}
	if d.Location.Name == "" && d.Location.Street == "" {
		d.Location = fiscal.ProcDocAddress{Name: m.BusinessName, Street: m.Street, Postcode: m.Postcode, City: m.City, Country: m.Country}
	}
	steps := []func() error{
		func() (err error) { d.ProgramChanges, err = b.changes(ctx); return err },
		func() (err error) { d.Registers, err = b.registers(ctx, restaurantID, m, day); return err },
		func() (err error) { d.TSEs, err = b.tses(ctx, restaurantID, m, day); return err },
		func() (err error) { d.Roles, err = b.roles(ctx, restaurantID); return err },
		func() (err error) { d.OwnerText, err = b.ownerText(ctx, restaurantID); return err },
		func() error { return b.archiveStart(ctx, restaurantID, &d.Archive) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (b *Builder) changes(ctx context.Context) ([]fiscal.ProcDocChange, error) {
	rows, err := b.St.ProgramChanges(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]fiscal.ProcDocChange, 0, len(rows))
	for _, c := range rows {
		out = append(out, fiscal.ProcDocChange{Version: c.Version, Build: c.Build, SchemaVersion: c.SchemaVersion,
			SchemaFrom: c.SchemaFrom, FirstSeenAt: store.FormatTime(c.FirstSeenAt)})
	}
	return out, nil
}

// registers are the owner's registers and those that sold, by serial;
// a register's first sale is its date of service when none was entered.
// The last sale is left out: it changes every day.
func (b *Builder) registers(ctx context.Context, restaurantID string, m *store.FiscalMasterData, day func(time.Time) *string) ([]fiscal.ProcDocRegister, error) {
	sold, err := b.St.Registers(ctx, restaurantID)
	if err != nil {
		return nil, err
	}
	first := map[string]*string{}
	for _, r := range sold {
		first[r.ClientSerial] = day(r.FirstSaleAt)
	}
	owner := map[string]store.FiscalRegister{}
	for _, r := range m.Registers {
		owner[r.ClientSerial] = r
		if _, ok := first[r.ClientSerial]; !ok {
			first[r.ClientSerial] = nil
		}
	}
	out := []fiscal.ProcDocRegister{}
	for serial, firstSale := range first {
		r := owner[serial]
		sw, ver := r.SoftwareBrand, r.SoftwareVersion
		if sw == "" {
			sw, ver = "posbox", b.Setup.Version
		}
		in := opt(r.InServiceOn)
		if in == nil {
			in = firstSale
		}
		out = append(out, fiscal.ProcDocRegister{ClientSerial: serial, Type: r.Type, Brand: r.Brand, Model: r.Model, Software: sw,
			SoftwareVersion: ver, AcquiredOn: opt(r.AcquiredOn), InServiceOn: in, DecommissionedOn: opt(r.DecommissionedOn)})
	}
	slices.SortFunc(out, func(a, b fiscal.ProcDocRegister) int { return strings.Compare(a.ClientSerial, b.ClientSerial) })
	return out, nil
}

// tses are the TSSs the box replaced, oldest first, then the one it
// signs with. A TSS the provider never described (unreachable since the
// first start) is an error rather than a document without its TSE; a
// restaurant the TSE does not serve has none.
func (b *Builder) tses(ctx context.Context, restaurantID string, m *store.FiscalMasterData, day func(time.Time) *string) ([]fiscal.ProcDocTSE, error) {
	out, err := b.replacedTSEs(ctx, restaurantID, day)
	if err != nil || b.TSE == nil {
		return out, err
	}
	info, _, err := b.TSE.TSS(ctx, restaurantID)
	if store.ErrorCode(err) == store.ETSENotConfigured {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	x := fiscal.ProcDocTSE{SerialNumber: info.SerialNumber, BSICertificationID: info.BSICertificationID, Provider: b.TSE.Kind(),
		Simulated: b.TSE.Kind() == tse.KindSimulator, InServiceOn: opt(m.TSEInServiceOn), OutOfServiceOn: opt(m.TSEOutOfServiceOn)}
	if !info.CertNotAfter.IsZero() {
		x.CertificateExpires = day(info.CertNotAfter)
	}
	if x.InServiceOn == nil {
		first, ok, err := b.St.FirstSignedAt(ctx, restaurantID, info.ID)
		if err != nil {
			return nil, err
		}
		if ok {
			x.InServiceOn = day(first)
		}
	}
	return append(out, x), nil
}

// replacedTSEs are the TSSs a finished replacement took out of service
// (docs/TSE.md, "Replacing the TSS"): serial, first signature, the day it
// was disabled, and its certificate's end when a warning recorded it.
func (b *Builder) replacedTSEs(ctx context.Context, restaurantID string, day func(time.Time) *string) ([]fiscal.ProcDocTSE, error) {
	out := []fiscal.ProcDocTSE{}
	reps, err := b.St.TSEReplacements(ctx, restaurantID)
	if err != nil {
		return nil, err
	}
	for _, r := range reps {
		if r.SwitchedAt == nil {
			continue // under way: the old TSS is still the one in service
		}
		x := fiscal.ProcDocTSE{SerialNumber: r.OldSerial, Provider: tse.KindFiskaly}
		if b.TSE != nil {
			x.Provider = b.TSE.Kind()
		}
		x.Simulated = x.Provider == tse.KindSimulator
		outAt := r.SwitchedAt
		if r.DisabledAt != nil {
			outAt = r.DisabledAt
		}
		x.OutOfServiceOn = day(*outAt)
		first, ok, err := b.St.FirstSignedAt(ctx, restaurantID, r.OldTSSID)
		if err != nil {
			return nil, err
		}
		if ok {
			x.InServiceOn = day(first)
		}
		warns, err := b.St.TSECertificateWarnings(ctx, r.OldTSSID)
		if err != nil {
			return nil, err
		}
		if len(warns) > 0 {
			x.CertificateExpires = day(warns[len(warns)-1].NotAfter)
		}
		out = append(out, x)
	}
	return out, nil
}

// roles are the active users by role: every holder of a role that may
// change the records or read them all by name (admins today), the staff
// who sell at the tills as a count (GoBD asks who may do what, not a list
// of the staff: docs/FISCAL.md). Names and roles only.
func (b *Builder) roles(ctx context.Context, restaurantID string) ([]fiscal.ProcDocRole, error) {
	users, err := b.St.Users(ctx, restaurantID)
	if err != nil {
		return nil, err
	}
	byRole := map[string]*fiscal.ProcDocRole{}
	var order []string
	for _, u := range users {
		if !u.IsActive {
			continue
		}
		r := byRole[u.Role]
		if r == nil {
			r = &fiscal.ProcDocRole{Role: u.Role, Names: []string{}}
			byRole[u.Role] = r
			order = append(order, u.Role)
		}
		r.Count++
		if u.Role != store.RoleStaff {
			r.Names = append(r.Names, u.Name)
		}
	}
	slices.SortFunc(order, func(a, b string) int { return roleRank(a) - roleRank(b) })
	out := make([]fiscal.ProcDocRole, 0, len(order))
	for _, role := range order {
		r := byRole[role]
		slices.Sort(r.Names)
		out = append(out, *r)
	}
	return out, nil
}

// roleRank orders roles: admins, then others by name, then staff.
func roleRank(role string) int {
	switch role {
	case store.RoleAdmin:
		return 0
	case store.RoleStaff:
		return 2
	}
	return 1
}

func (b *Builder) ownerText(ctx context.Context, restaurantID string) (fiscal.ProcDocOwnerText, error) {
	o, err := b.St.OwnerText(ctx, restaurantID)
	if err != nil || o == nil {
		return fiscal.ProcDocOwnerText{}, err
	}
	at := store.FormatTime(o.SavedAt)
	return fiscal.ProcDocOwnerText{Version: o.Version, OwnerSections: o.OwnerSections, SavedAt: &at, SavedByName: o.SavedByName}, nil
}

func (b *Builder) archiveStart(ctx context.Context, restaurantID string, a *fiscal.ProcDocArchive) error {
	if b.ArchiveStart == nil || !a.Enabled {
		return nil
	}
	first, reason, ok, err := b.ArchiveStart(ctx, restaurantID)
	if err != nil || !ok {
		return err
	}
	a.FirstCounter, a.FirstCounterReason = &first, reason
	return nil
}

// opt is a local date, nil for none.
func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
