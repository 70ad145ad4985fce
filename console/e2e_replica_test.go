package console_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/server"
)

// fakeReplica is replication as the server sees it (server.Replica): what
// is outside the box, the replica, is what the test says it is.
type fakeReplica struct {
	mu sync.Mutex
	st func() server.ReplicaStatus
}

func (f *fakeReplica) ReplicaStatus() server.ReplicaStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.st()
}

func (f *fakeReplica) set(st func() server.ReplicaStatus) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.st = st
}

// Without replica_url the dashboard says plainly that the data is on the
// box only, and where the copy is set up.
func TestConsoleReplicaOff(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	b.open("/")
	b.login("chef@linde.test", adminPassword)
	b.wait("the replica card", `document.querySelector('#replica')`)
	got := b.text("#replica")
	for _, want := range []string{"Datensicherung außer Haus", "Nicht eingerichtet", "nur auf diesem Gerät", "replica_url", "docs/REPLICATION.md"} {
		if !strings.Contains(got, want) {
			t.Errorf("card without replication lacks %q: %q", want, got)
		}
	}
	if eval[int](b, `document.querySelectorAll('#replica .badge.ok').length`) != 0 {
		t.Fatal("a green badge without replication")
	}
	b.screenshot("dashboard-replica-off")
}

// With replication on: where to (no password), the last copy in words;
// then an error that persists says the data is not safe, in plain German,
// with the client's text only as a detail; changes waiting too long say
// the same; in English too.
func TestConsoleReplicaStates(t *testing.T) {
	fake := &fakeReplica{}
	fake.set(func() server.ReplicaStatus {
		return server.ReplicaStatus{URL: "sftp://backup@nas.local:22/posbox", PublicKey: "age1qqexample",
			ReplicatedAt: time.Now().Add(-3 * time.Second)}
	})
	a := newApplianceWith(t, nil, fake)
	b := newBrowser(t, a)
	b.open("/")
	b.login("chef@linde.test", adminPassword)
	b.wait("the replica card", `document.querySelector('#replica')?.dataset.state === 'ok'`)
	got := b.text("#replica")
	for _, want := range []string{"in Ordnung", "sftp://backup@nas.local:22/posbox", "vor ", "Sekunden", "Alles übertragen"} {
		if !strings.Contains(got, want) {
			t.Errorf("healthy card lacks %q: %q", want, got)
		}
	}
	b.screenshot("dashboard-replica-ok")

	since := time.Now().Add(-10 * time.Minute)
	fake.set(func() server.ReplicaStatus {
		return server.ReplicaStatus{URL: "sftp://backup@nas.local:22/posbox", PublicKey: "age1qqexample",
			ReplicatedAt: since.Add(-time.Second), LagSeconds: 601, BacklogFiles: 3, BacklogBytes: 12 << 20, BacklogLimit: 2 << 30,
			LastError: "dial tcp 192.168.1.9:22: connect: connection refused", ErrorSince: since}
	})
	b.click(".page-head button.secondary")
	b.wait("the failing state", `document.querySelector('#replica').dataset.state === 'bad'`)
	got = b.text("#replica")
	for _, want := range []string{"nicht gesichert", "schlägt seit", "nicht erreichbar", "3 Dateien, 12 MB, Grenze 2", "GB", "Technische Einzelheiten"} {
		if !strings.Contains(got, want) {
			t.Errorf("failing card lacks %q: %q", want, got)
		}
	}
	if strings.Contains(got, "dial tcp") || strings.Contains(got, "last_error") {
		t.Errorf("the client's text outside the details: %q", got)
	}
	b.click("#replica details summary")
	b.wait("the detail", `document.querySelector('#replica').innerText.includes('connection refused')`)
	b.screenshot("dashboard-replica-error")

	// No error, but changes have waited ten minutes: not safe either.
	fake.set(func() server.ReplicaStatus {
		return server.ReplicaStatus{URL: "file:///mnt/nas/posbox", ReplicatedAt: time.Now().Add(-10 * time.Minute), LagSeconds: 600, BacklogFiles: 1, BacklogBytes: 4096}
	})
	b.click(".page-head button.secondary")
	b.wait("the lagging state", `document.querySelector('#replica').innerText.includes('warten seit')`)
	if st := eval[string](b, `document.querySelector('#replica').dataset.state`); st != "bad" {
		t.Fatalf("ten minutes behind: state %s", st)
	}

	b.clickText("header .lang button", "EN")
	b.wait("English card", `document.querySelector('#replica').innerText.includes('Off-site copy')`)
	if got := b.text("#replica"); !strings.Contains(got, "not safe") || !strings.Contains(got, "1 file") {
		t.Errorf("English card %q", got)
	}
	b.clickText("header .lang button", "DE")
	b.wait("the German page", `document.querySelector('#replica')?.innerText.includes('Datensicherung') && document.querySelector('.page-head button.secondary') !== null`)

	// Away for days: the backlog outgrew its bound and was given up.
	givenUp := time.Date(2026, 11, 26, 9, 30, 0, 0, time.UTC)
	fake.set(func() server.ReplicaStatus {
		return server.ReplicaStatus{URL: "sftp://backup@nas.local:22/posbox", ReplicatedAt: givenUp.Add(-72 * time.Hour),
			LastError: "replica not answering: upload made no progress for 30s", ErrorSince: givenUp.Add(-71 * time.Hour),
			BacklogLimit: 2 << 30, BacklogGivenUpAt: givenUp, BacklogGivenUpReason: "limit"}
	})
	b.click(".page-head button.secondary")
	b.wait("the given-up state", `document.querySelector('#replica-given-up') !== null`)
	got = b.text("#replica")
	for _, want := range []string{"nicht gesichert", "zu lange nicht erreichbar", "26.11.2026", "Alle Verkäufe sind auf dem Gerät gespeichert",
		"arbeitet normal weiter", "wird eine vollständige Kopie übertragen", "antwortet nicht mehr", "alles auf dem Gerät gespeichert, eine vollständige Kopie folgt"} {
		if !strings.Contains(got, want) {
			t.Errorf("given-up card lacks %q: %q", want, got)
		}
	}
	if strings.Contains(got, "backlog") || strings.Contains(got, "given_up") || strings.Contains(got, "Alles übertragen") {
		t.Errorf("a field name on the card: %q", got)
	}
	if strings.Contains(got, "verworfen") { // read as sales lost; every sale is on the box
		t.Errorf("the given-up card reads as lost data: %q", got)
	}
	b.screenshot("dashboard-replica-given-up")

	b.clickText("header .lang button", "EN")
	b.wait("English given-up card", `document.querySelector('#replica').innerText.includes('Every sale is kept on this box')`)
	b.clickText("header .lang button", "DE")
	b.wait("the German page", `document.querySelector('#replica')?.innerText.includes('Datensicherung') && document.querySelector('.page-head button.secondary') !== null`)

	// The box's own disk nearly full: said so by the reason, whatever
	// the last error says, not blamed on the target.
	fake.set(func() server.ReplicaStatus {
		return server.ReplicaStatus{URL: "sftp://backup@nas.local:22/posbox", ReplicatedAt: givenUp.Add(-time.Minute),
			LastError: "list: dial tcp 192.168.1.9:22: connect: connection refused", ErrorSince: givenUp,
			BacklogLimit: 20 << 20, BacklogGivenUpAt: givenUp, BacklogGivenUpReason: "disk_full"}
	})
	b.click(".page-head button.secondary")
	b.wait("the full-disk state", `document.querySelector('#replica').innerText.includes('fast voll')`)
	if got := b.text("#replica"); strings.Contains(got, "Ziel war zu lange") || strings.Contains(got, "nicht erreichbar") || !strings.Contains(got, "Bitte Platz schaffen") || strings.Contains(got, "verworfen") {
		t.Errorf("full-disk card %q", got)
	}

	// Started without the local state while the replica holds files.
	fake.set(func() server.ReplicaStatus {
		return server.ReplicaStatus{URL: "sftp://backup@nas.local:22/posbox", BacklogLimit: 20 << 20, BacklogGivenUpAt: givenUp, BacklogGivenUpReason: "restart"}
	})
	b.click(".page-head button.secondary")
	b.wait("the restart state", `document.querySelector('#replica').innerText.includes('gestartet')`)
	if got := b.text("#replica"); strings.Contains(got, "Ziel war zu lange") || !strings.Contains(got, "vollständige Kopie übertragen") {
		t.Errorf("restart card %q", got)
	}
}
