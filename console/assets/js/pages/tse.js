// The TSE: health, self-test, device, transactions, the forwarding queue
// and the outage record (docs/API.md section 5).
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, append, badge, table, field, values, withBusy, showError, errorText, confirmDialog, toast } from '../ui.js';
import { fmtDateTime, fmtDay, localDate, addDays, instantOf } from '../format.js';

addStrings({
  de: {
    'tse.title': 'TSE', 'tse.status': 'Zustand', 'tse.healthy': 'in Ordnung', 'tse.unhealthy': 'Achtung',
    'tse.provider': 'Anbieter', 'tse.circuit': 'Verbindung', 'tse.circuit_closed': 'verbunden', 'tse.circuit_open': 'unterbrochen',
    'tse.queue_depth': 'Warteschlange', 'tse.attention': 'Zu prüfen', 'tse.cert_days': 'Zertifikat noch gültig',
    'tse.days': '{n} Tage', 'tse.days_one': '1 Tag', 'tse.last_error': 'Letzter Fehler', 'tse.self_test': 'Selbsttest', 'tse.run_self_test': 'Selbsttest starten',
    'tse.self_test_none': 'Noch kein Selbsttest.', 'tse.state.RUNNING': 'läuft', 'tse.state.PASSED': 'bestanden', 'tse.state.FAILED': 'fehlgeschlagen',
    'tse.checks': 'Prüfungen', 'tse.started': 'Gestartet am {time}',
    'tse.device': 'Gerät', 'tse.serial': 'Seriennummer', 'tse.public_key': 'Öffentlicher Schlüssel', 'tse.tss_state': 'Zustand der TSS',
    'tse.cert_expiry': 'Zertifikat läuft ab', 'tse.cached': 'Gespeicherter Stand vom {time} (Anbieter nicht erreichbar)',
    'tse.transactions': 'Transaktionen', 'tse.number': 'Nr.', 'tse.start': 'Beginn', 'tse.end': 'Ende', 'tse.state': 'Zustand',
    'tse.terminal': 'Kasse', 'tse.counter': 'Signaturzähler', 'tse.late': 'Nachsigniert', 'tse.source': 'Quelle',
    'tse.queue': 'Warteschlange', 'tse.pending': '{n} wartend', 'tse.attention_n': '{n} zu prüfen', 'tse.revision': 'Revision',
    'tse.job_status': 'Status', 'tse.attempts': 'Versuche', 'tse.next_attempt': 'Nächster Versuch', 'tse.retry': 'Erneut senden',
    'tse.cancel_tx': 'Stornieren', 'tse.cancel_confirm': 'Transaktion {id} bei der TSE abbrechen? Sie wird als ABORT signiert.',
    'tse.retried': 'Wird erneut gesendet.', 'tse.cancelled': 'Abbruch wird signiert.', 'tse.queue_empty': 'Nichts wartet.',
    'tse.outages': 'Ausfälle', 'tse.outage_start': 'Beginn', 'tse.outage_end': 'Ende', 'tse.reason': 'Grund',
    'tse.affected': 'Belege ohne TSE', 'tse.open': 'offen', 'tse.no_outages': 'Keine Ausfälle.', 'tse.total': 'Summe',
    'tse.not_configured': 'Für dieses Restaurant ist keine TSE eingerichtet.',
  },
  en: {
    'tse.title': 'TSE', 'tse.status': 'Health', 'tse.healthy': 'healthy', 'tse.unhealthy': 'needs attention',
    'tse.provider': 'Provider', 'tse.circuit': 'Connection', 'tse.circuit_closed': 'connected', 'tse.circuit_open': 'interrupted',
    'tse.queue_depth': 'Queue', 'tse.attention': 'Attention', 'tse.cert_days': 'Certificate valid for',
    'tse.days': '{n} days', 'tse.days_one': '1 day', 'tse.last_error': 'Last error', 'tse.self_test': 'Self-test', 'tse.run_self_test': 'Run self-test',
    'tse.self_test_none': 'No self-test yet.', 'tse.state.RUNNING': 'running', 'tse.state.PASSED': 'passed', 'tse.state.FAILED': 'failed',
    'tse.checks': 'Checks', 'tse.started': 'Started {time}',
    'tse.device': 'Device', 'tse.serial': 'Serial number', 'tse.public_key': 'Public key', 'tse.tss_state': 'TSS state',
    'tse.cert_expiry': 'Certificate expires', 'tse.cached': 'Cached from {time} (provider unreachable)',
    'tse.transactions': 'Transactions', 'tse.number': 'No.', 'tse.start': 'Start', 'tse.end': 'End', 'tse.state': 'State',
    'tse.terminal': 'Till', 'tse.counter': 'Signature counter', 'tse.late': 'Signed late', 'tse.source': 'Source',
    'tse.queue': 'Forwarding queue', 'tse.pending': '{n} pending', 'tse.attention_n': '{n} need attention', 'tse.revision': 'Revision',
    'tse.job_status': 'Status', 'tse.attempts': 'Attempts', 'tse.next_attempt': 'Next attempt', 'tse.retry': 'Retry',
    'tse.cancel_tx': 'Cancel', 'tse.cancel_confirm': 'Cancel transaction {id} at the TSE? It is signed as ABORT.',
    'tse.retried': 'Queued again.', 'tse.cancelled': 'The cancellation is being signed.', 'tse.queue_empty': 'Nothing is waiting.',
    'tse.outages': 'Outages', 'tse.outage_start': 'Start', 'tse.outage_end': 'End', 'tse.reason': 'Reason',
    'tse.affected': 'Receipts without TSE', 'tse.open': 'open', 'tse.no_outages': 'No outages.', 'tse.total': 'Total',
    'tse.not_configured': 'No TSE is set up for this restaurant.',
  },
});

export default {
  async render(main) {
    const statusBox = h('div');
    const deviceBox = h('div');
    const queueBox = h('div');
    const outageBox = h('div');
    const txBox = h('div');
    let polling = null;

    const testButton = h('button', { type: 'button', id: 'run-self-test' }, t('tse.run_self_test'));
    testButton.addEventListener('click', () => withBusy(testButton, async () => {
      try {
        const res = await api.post('/api/tse/self-test');
        showSelfTest(res.self_test);
        watch(res.self_test.id);
      } catch (err) { toast(errorText(err), 'error'); }
    }));
    const selfTestBox = h('div', { id: 'self-test', 'aria-live': 'polite' });

    // The self-test runs in the background: poll the status until it ends.
    function watch(id) {
      clearInterval(polling);
      polling = setInterval(async () => {
        try {
          const st = (await api.get('/api/tse/status')).status;
          const last = st.last_self_test;
          if (last && last.id === id && last.state !== 'RUNNING') {
            clearInterval(polling);
            polling = null;
            showStatus(st);
          }
        } catch { clearInterval(polling); polling = null; }
      }, 1000);
    }

    function showSelfTest(s) {
      if (!s) { clear(selfTestBox, h('p', { class: 'muted' }, t('tse.self_test_none'))); return; }
      const kind = s.state === 'PASSED' ? 'ok' : s.state === 'FAILED' ? 'bad' : 'warn';
      clear(selfTestBox,
        h('p', {}, badge(t(`tse.state.${s.state}`), kind), ' ', h('span', { class: 'muted' }, t('tse.started', { time: fmtDateTime(s.started_at) }))),
        s.error ? h('p', { class: 'form-error' }, s.error) : null,
        (s.checks || []).length ? h('details', {}, h('summary', {}, t('tse.checks')),
          h('ul', {}, s.checks.map((c) => h('li', {}, badge(c.result, c.result === 'ok' ? 'ok' : c.result === 'failed' ? 'bad' : 'neutral'), ' ', c.name, c.detail ? `: ${c.detail}` : '')))) : null);
    }

    function showStatus(s) {
      clear(statusBox,
        h('p', { id: 'tse-health' }, s.healthy ? badge(t('tse.healthy'), 'ok') : badge(t('tse.unhealthy'), 'bad')),
        s.problems.length ? h('ul', { class: 'problems' }, s.problems.map((p) => h('li', {}, p))) : null,
        h('dl', { class: 'facts' },
          h('dt', {}, t('tse.provider')), h('dd', {}, s.provider),
          h('dt', {}, t('tse.circuit')), h('dd', {}, s.circuit === 'open' ? badge(t('tse.circuit_open'), 'bad') : t('tse.circuit_closed')),
          h('dt', {}, t('tse.queue_depth')), h('dd', {}, String(s.queue_depth)),
          h('dt', {}, t('tse.attention')), h('dd', {}, s.attention_count ? badge(String(s.attention_count), 'bad') : '0'),
          h('dt', {}, t('tse.cert_days')), h('dd', {}, s.days_to_certificate_expiry === null ? '–' : t('tse.days', { n: s.days_to_certificate_expiry })),
          s.last_error ? [h('dt', {}, t('tse.last_error')), h('dd', {}, `${s.last_error.code}: ${s.last_error.message}`)] : null));
      showSelfTest(s.last_self_test);
    }

    async function loadStatus() {
      try { showStatus((await api.get('/api/tse/status')).status); } catch (err) { clear(statusBox, h('p', { class: 'form-error', role: 'alert' }, errorText(err))); }
    }

    async function loadDevice() {
      try {
        const i = (await api.get('/api/tse/info')).info;
        clear(deviceBox, h('dl', { class: 'facts' },
          h('dt', {}, t('tse.serial')), h('dd', { class: 'mono' }, i.serial_number),
          h('dt', {}, t('tse.tss_state')), h('dd', {}, i.state),
          h('dt', {}, t('tse.cert_expiry')), h('dd', { id: 'cert-expiry' }, i.certificate_expiry ? fmtDateTime(i.certificate_expiry) : '–'),
          h('dt', {}, t('tse.provider')), h('dd', {}, i.provider),
          h('dt', {}, t('tse.public_key')), h('dd', { class: 'mono small' }, i.public_key)),
        i.cached ? h('p', { class: 'notice' }, t('tse.cached', { time: fmtDateTime(i.fetched_at) })) : null);
      } catch (err) { clear(deviceBox, h('p', { class: 'form-error' }, errorText(err))); }
    }

    async function loadQueue() {
      try {
        const q = (await api.get('/api/tse/queue')).queue;
        clear(queueBox, h('p', {}, t('tse.pending', { n: q.pending }), ' · ', q.attention ? badge(t('tse.attention_n', { n: q.attention }), 'bad') : t('tse.attention_n', { n: 0 })),
          table([
            { label: t('tse.terminal'), cell: (j) => j.client_serial },
            { label: t('tse.revision'), cell: (j) => `${j.revision} (${j.target_state})` },
            { label: t('tse.job_status'), cell: (j) => badge(j.status, j.status === 'attention' ? 'bad' : 'neutral') },
            { label: t('tse.attempts'), cell: (j) => String(j.attempts), class: 'num' },
            { label: t('tse.last_error'), cell: (j) => j.last_error ? `${j.last_error_code}: ${j.last_error}` : '' },
            { label: t('tse.next_attempt'), cell: (j) => fmtDateTime(j.next_attempt_at) },
            { label: t('common.actions'), cell: (j) => j.status !== 'attention' ? '' : h('div', { class: 'buttons' },
              h('button', { type: 'button', class: 'small', onclick: (e) => act(e.target, j.tx_id, 'retry') }, t('tse.retry')),
              h('button', { type: 'button', class: 'small danger', onclick: (e) => act(e.target, j.tx_id, 'cancel') }, t('tse.cancel_tx'))) },
          ], q.items, { caption: t('tse.queue'), empty: t('tse.queue_empty') }));
      } catch (err) { clear(queueBox, h('p', { class: 'form-error' }, errorText(err))); }
    }

    async function act(button, txID, action) {
      if (action === 'cancel' && !(await confirmDialog(t('tse.cancel_confirm', { id: txID }), t('tse.cancel_tx')))) return;
      await withBusy(button, async () => {
        try {
          await api.post(`/api/tse/queue/${txID}/${action}`);
          toast(t(action === 'retry' ? 'tse.retried' : 'tse.cancelled'));
          await Promise.all([loadQueue(), loadStatus()]);
        } catch (err) { toast(errorText(err), 'error'); }
      });
    }

    async function loadOutages() {
      try {
        const os = (await api.get('/api/tse/outages')).outages;
        clear(outageBox, table([
          { label: t('tse.outage_start'), cell: (o) => fmtDateTime(o.started_at) },
          { label: t('tse.outage_end'), cell: (o) => o.ended_at ? fmtDateTime(o.ended_at) : badge(t('tse.open'), 'warn') },
          { label: t('tse.reason'), cell: (o) => `${o.reason} (${o.reason_code})` },
          { label: t('tse.affected'), cell: (o) => String(o.affected_transactions), class: 'num' },
        ], os, { caption: t('tse.outages'), empty: t('tse.no_outages') }));
      } catch (err) { clear(outageBox, h('p', { class: 'form-error' }, errorText(err))); }
    }

    // Transactions of a range of local dates.
    const today = localDate();
    const txForm = h('form', { class: 'toolbar', id: 'tx-range' },
      field({ name: 'from', label: t('common.from'), type: 'date', value: addDays(today, -6), required: true }),
      field({ name: 'to', label: t('common.to'), type: 'date', value: today, required: true }),
      h('button', { type: 'submit' }, t('common.show')));
    txForm.addEventListener('submit', (e) => { e.preventDefault(); loadTransactions(e.submitter); });
    async function loadTransactions(button) {
      const v = values(txForm);
      await withBusy(button, async () => {
        try {
          const list = await api.get('/api/tse/transactions' + api.query({ from: instantOf(v.from), to: instantOf(addDays(v.to, 1)) }));
          clear(txBox, table([
            { label: t('tse.number'), cell: (x) => String(x.number), class: 'num' },
            { label: t('tse.start'), cell: (x) => fmtDateTime(x.time_start) },
            { label: t('tse.end'), cell: (x) => fmtDateTime(x.time_end) },
            { label: t('tse.state'), cell: (x) => x.state },
            { label: t('tse.terminal'), cell: (x) => x.client_serial },
            { label: t('tse.counter'), cell: (x) => x.signature_counter === null ? '' : String(x.signature_counter), class: 'num' },
            { label: t('tse.late'), cell: (x) => x.signed_late ? badge(t('common.yes'), 'warn') : '' },
            { label: t('tse.source'), cell: (x) => x.source },
          ], list, { caption: `${t('tse.transactions')} ${fmtDay(v.from)} – ${fmtDay(v.to)}` }));
        } catch (err) { showError(txForm, err); }
      });
    }

    append(main,
      h('div', { class: 'page-head' }, h('h1', {}, t('tse.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => refresh() }, t('common.refresh'))),
      h('div', { class: 'grid' },
        h('section', { class: 'card', id: 'tse-status' }, h('h2', {}, t('tse.status')), statusBox),
        h('section', { class: 'card' }, h('h2', {}, t('tse.self_test')), selfTestBox, testButton),
        h('section', { class: 'card', id: 'tse-device' }, h('h2', {}, t('tse.device')), deviceBox)),
      h('section', { class: 'card', id: 'tse-queue' }, h('h2', {}, t('tse.queue')), queueBox),
      h('section', { class: 'card', id: 'tse-transactions' }, h('h2', {}, t('tse.transactions')), txForm, txBox),
      h('section', { class: 'card', id: 'tse-outages' }, h('h2', {}, t('tse.outages')), outageBox));

    async function refresh() { await Promise.all([loadStatus(), loadDevice(), loadQueue(), loadOutages()]); }
    await refresh();
    await loadTransactions(txForm.querySelector('button'));
    return () => clearInterval(polling);
  },
};

