// The TSE: health, self-test, device, the receipts signed (one row per
// sale, with what it contained), the forwarding queue in plain words and
// the outage record (docs/API.md section 5). For the tax office's auditor
// (readOnly) the same page without the self-test and the queue, which act
// on the TSE: the receipts, the TSE's state and device, the outages.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, append, badge, table, field, values, withBusy, showError, errorText, errorLine, confirmDialog, toast } from '../ui.js';
import { fmtDateTime, fmtDay, fmtMoney, fmtNumber, localDate, addDays, instantOf } from '../format.js';
import { replaceSection } from './tse_replace.js';
import { cause, problems, receiptType, payment, certWarning } from '../tse_words.js';

addStrings({
  de: {
    'tse.title': 'TSE', 'tse.status': 'Zustand', 'tse.healthy': 'in Ordnung', 'tse.unhealthy': 'Achtung',
    'tse.provider': 'Anbieter', 'tse.provider.simulator': 'Simulator (keine echte TSE)', 'tse.provider.fiskaly': 'fiskaly (Cloud-TSE)',
    'tse.circuit': 'Verbindung', 'tse.circuit_closed': 'verbunden', 'tse.circuit_open': 'unterbrochen',
    'tse.queue_depth': 'Warteschlange', 'tse.attention': 'Zu prüfen', 'tse.cert_days': 'Zertifikat gültig noch',
    'tse.days': '{n} Tage', 'tse.last_error': 'Letzter Fehler', 'tse.self_test': 'Selbsttest', 'tse.run_self_test': 'Selbsttest starten',
    'tse.self_test_none': 'Noch kein Selbsttest.', 'tse.state.RUNNING': 'läuft', 'tse.state.PASSED': 'bestanden', 'tse.state.FAILED': 'fehlgeschlagen',
    'tse.checks': 'Prüfungen', 'tse.started': 'Gestartet {time}',
    'tse.check.ok': 'in Ordnung', 'tse.check.warning': 'Hinweis', 'tse.check.failed': 'fehlgeschlagen', 'tse.check.skipped': 'übersprungen',
    'tse.check.tss_reachable': 'TSE erreichbar', 'tse.check.tss_state': 'TSE betriebsbereit', 'tse.check.certificate': 'Zertifikat gültig',
    'tse.check.clients': 'Kassen angemeldet', 'tse.check.active_transactions': 'Offene Vorgänge unter der Grenze',
    'tse.check.queue': 'Warteschlange ohne Stau', 'tse.check.clock_skew': 'Uhrzeit stimmt', 'tse.check.signature': 'Letzte Signatur prüfbar',
    'tse.check.other': 'Prüfung',
    'tse.device': 'Gerät', 'tse.serial': 'Seriennummer', 'tse.public_key': 'Öffentlicher Schlüssel', 'tse.tss_state': 'Zustand der TSE',
    'tse.tss.INITIALIZED': 'betriebsbereit', 'tse.tss.DISABLED': 'nicht eingerichtet', 'tse.tss.DECOMMISSIONED': 'außer Betrieb',
    'tse.cert_expiry': 'Zertifikat läuft ab', 'tse.cached': 'Zwischengespeichert vom {time} (Anbieter nicht erreichbar)',
    'tse.transactions': 'Belege', 'tse.time': 'Zeit', 'tse.terminal': 'Kasse', 'tse.type': 'Art', 'tse.amount': 'Betrag',
    'tse.payment': 'Zahlung', 'tse.tx_state': 'Zustand', 'tse.details': 'Inhalt',
    'tse.tx.signed': 'signiert', 'tse.tx.signed_late': 'nachsigniert: der Beleg ging mit „TSE ausgefallen“ hinaus',
    'tse.tx.aborted': 'bei der TSE abgebrochen', 'tse.tx.open': 'begonnen, noch nicht abgeschlossen',
    'tse.cancelled_receipt': 'storniert', 'tse.storno_of': 'Storno des Belegs von {time}',
    'tse.show_content': 'Positionen und Signatur', 'tse.line_text': 'Position', 'tse.qty': 'Menge', 'tse.unit_price': 'Einzelpreis',
    'tse.line_total': 'Summe', 'tse.vat': 'MwSt.', 'tse.no_lines': 'Die Kasse hat keine Positionen geschickt.',
    'tse.per_rate': 'Je Steuersatz', 'tse.tse_number': 'TSE-Vorgangsnummer', 'tse.counter': 'Signaturzähler', 'tse.signed_at': 'Signiert',
    'tse.no_detail': 'posbox kennt diesen Vorgang nur von der TSE, nicht von der Kasse.',
    'tse.no_transactions': 'Keine signierten Belege in diesem Zeitraum.',
    'tse.queue': 'Warteschlange', 'tse.pending': '{n} wartend', 'tse.attention_n': '{n} zu prüfen', 'tse.queue_empty': 'Nichts wartet: jeder Beleg ist signiert.',
    'tse.waiting_since': 'Wartet seit', 'tse.what': 'Was passiert', 'tse.next_attempt': 'Nächster Versuch {time}',
    'tse.q.waiting': 'Wartet auf die TSE – die Kasse arbeitet weiter; der Beleg wird nachsigniert, sobald die Verbindung zurück ist. Sie müssen nichts tun.',
    'tse.q.refused': 'Von der TSE abgelehnt: {cause}. Wenn die Ursache behoben ist: „Erneut senden“. Kann der Beleg nie signiert werden: „Abbrechen“ (docs/TSE.md).',
    'tse.q.outage': 'Die TSE ist gerade nicht erreichbar. Die Kassen verkaufen weiter und drucken „TSE ausgefallen“ auf die Belege; posbox signiert alles von selbst nach, sobald die Verbindung zurück ist. Dauert es länger, die Internetverbindung der posbox prüfen.',
    'tse.retry': 'Erneut senden', 'tse.cancel_tx': 'Abbrechen',
    'tse.cancel_confirm': 'Den Beleg der Kasse {register} vom {time} bei der TSE als abgebrochen abschließen? Das lässt sich nicht rückgängig machen.',
    'tse.retried': 'Wird erneut gesendet.', 'tse.cancelled': 'Der Abbruch wird signiert.',
    'tse.days_one': '1 Tag',
    'tse.outages': 'Ausfälle', 'tse.outage_start': 'Beginn', 'tse.outage_end': 'Ende', 'tse.reason': 'Grund',
    'tse.affected': 'Belege ohne TSE', 'tse.open': 'dauert an', 'tse.no_outages': 'Keine Ausfälle.',
    'tse.not_configured': 'Für dieses Restaurant ist keine TSE eingerichtet.',
  },
  en: {
    'tse.title': 'TSE', 'tse.status': 'Health', 'tse.healthy': 'healthy', 'tse.unhealthy': 'needs attention',
    'tse.provider': 'Provider', 'tse.provider.simulator': 'Simulator (no real TSE)', 'tse.provider.fiskaly': 'fiskaly (cloud TSE)',
    'tse.circuit': 'Connection', 'tse.circuit_closed': 'connected', 'tse.circuit_open': 'interrupted',
    'tse.queue_depth': 'Queue', 'tse.attention': 'Attention', 'tse.cert_days': 'Certificate valid for',
    'tse.days': '{n} days', 'tse.days_one': '1 day', 'tse.last_error': 'Last error', 'tse.self_test': 'Self-test', 'tse.run_self_test': 'Run self-test',
    'tse.self_test_none': 'No self-test yet.', 'tse.state.RUNNING': 'running', 'tse.state.PASSED': 'passed', 'tse.state.FAILED': 'failed',
    'tse.checks': 'Checks', 'tse.started': 'Started {time}',
    'tse.check.ok': 'ok', 'tse.check.warning': 'note', 'tse.check.failed': 'failed', 'tse.check.skipped': 'skipped',
    'tse.check.tss_reachable': 'TSE reachable', 'tse.check.tss_state': 'TSE ready', 'tse.check.certificate': 'Certificate valid',
    'tse.check.clients': 'Tills registered', 'tse.check.active_transactions': 'Open transactions below the limit',
    'tse.check.queue': 'Queue not stuck', 'tse.check.clock_skew': 'Clock right', 'tse.check.signature': 'Latest signature verifies',
    'tse.check.other': 'Check',
    'tse.device': 'Device', 'tse.serial': 'Serial number', 'tse.public_key': 'Public key', 'tse.tss_state': 'TSE state',
    'tse.tss.INITIALIZED': 'ready', 'tse.tss.DISABLED': 'not set up', 'tse.tss.DECOMMISSIONED': 'out of service',
    'tse.cert_expiry': 'Certificate expires', 'tse.cached': 'Cached from {time} (provider unreachable)',
    'tse.transactions': 'Receipts', 'tse.time': 'Time', 'tse.terminal': 'Till', 'tse.type': 'Type', 'tse.amount': 'Amount',
    'tse.payment': 'Payment', 'tse.tx_state': 'State', 'tse.details': 'Content',
    'tse.tx.signed': 'signed', 'tse.tx.signed_late': 'signed late: the receipt went out marked "TSE ausgefallen"',
    'tse.tx.aborted': 'aborted at the TSE', 'tse.tx.open': 'started, not finished',
    'tse.cancelled_receipt': 'cancelled', 'tse.storno_of': 'Cancels the receipt of {time}',
    'tse.show_content': 'Items and signature', 'tse.line_text': 'Item', 'tse.qty': 'Qty', 'tse.unit_price': 'Unit price',
    'tse.line_total': 'Total', 'tse.vat': 'VAT', 'tse.no_lines': 'The till sent no items.',
    'tse.per_rate': 'Per VAT rate', 'tse.tse_number': 'TSE transaction number', 'tse.counter': 'Signature counter', 'tse.signed_at': 'Signed',
    'tse.no_detail': 'posbox knows this transaction from the TSE only, not from the till.',
    'tse.no_transactions': 'No signed receipts in this range.',
    'tse.queue': 'Forwarding queue', 'tse.pending': '{n} pending', 'tse.attention_n': '{n} need attention', 'tse.queue_empty': 'Nothing is waiting: every receipt is signed.',
    'tse.waiting_since': 'Waiting since', 'tse.what': 'What happens', 'tse.next_attempt': 'Next attempt {time}',
    'tse.q.waiting': 'Waiting for the TSE – the till keeps working; the receipt is signed late once the connection is back. Nothing to do.',
    'tse.q.refused': 'Refused by the TSE: {cause}. Once the cause is fixed: "Retry". If it can never be signed: "Abort" (docs/TSE.md).',
    'tse.q.outage': 'The TSE cannot be reached right now. The tills keep selling and print "TSE ausgefallen" on the receipts; posbox signs everything by itself once the connection is back. If it lasts, check the posbox\'s internet connection.',
    'tse.retry': 'Retry', 'tse.cancel_tx': 'Abort',
    'tse.cancel_confirm': 'Close the receipt of till {register} from {time} at the TSE as aborted? This cannot be undone.',
    'tse.retried': 'Queued again.', 'tse.cancelled': 'The abort is being signed.',
    'tse.outages': 'Outages', 'tse.outage_start': 'Start', 'tse.outage_end': 'End', 'tse.reason': 'Reason',
    'tse.affected': 'Receipts without TSE', 'tse.open': 'ongoing', 'tse.no_outages': 'No outages.',
    'tse.not_configured': 'No TSE is set up for this restaurant.',
  },
});

const VAT = { NORMAL: '19 %', REDUCED_1: '7 %', SPECIAL_RATE_1: '10,7 %', SPECIAL_RATE_2: '5,5 %', NULL: '0 %' };
const vat = (r) => VAT[r] || r;

// word is a translated code, or the fallback's text.
function word(prefix, code, fallback) {
  const s = t(prefix + code);
  return s === prefix + code ? t(fallback) : s;
}

// txState is a receipt's final state in words.
function txState(x) {
  if (x.state === 'CANCELLED') return badge(t('tse.tx.aborted'), 'warn');
  if (x.state === 'ACTIVE') return badge(t('tse.tx.open'), 'neutral');
  if (x.signed_late || x.receipt_without_tse) return h('span', { class: 'badge warn wrap' }, t('tse.tx.signed_late'));
  return badge(t('tse.tx.signed'), 'ok');
}

// txContent is a receipt's expandable detail: its items, its amounts per
// VAT rate and its TSE signature.
function txContent(x) {
  const lines = x.line_items || [];
  return h('details', { class: 'tx-detail' }, h('summary', {}, t('tse.show_content')),
    x.kind === null ? h('p', { class: 'muted' }, t('tse.no_detail')) : null,
    lines.length ? h('table', { class: 'tx-lines' },
      h('thead', {}, h('tr', {}, [t('tse.line_text'), t('tse.qty'), t('tse.unit_price'), t('tse.line_total'), t('tse.vat')].map((l, i) =>
        h('th', { scope: 'col', class: i > 0 && i < 4 ? 'num' : null }, l)))),
      h('tbody', {}, lines.map((l) => h('tr', {}, h('td', {}, l.text), h('td', { class: 'num' }, fmtNumber(l.quantity, 3)),
        h('td', { class: 'num' }, fmtMoney(l.unit_price)), h('td', { class: 'num' }, fmtMoney(l.total)), h('td', {}, vat(l.vat_rate))))))
      : x.kind !== null ? h('p', { class: 'muted' }, t('tse.no_lines')) : null,
    h('dl', { class: 'facts' },
      (x.amounts_per_vat_rate || []).length ? [h('dt', {}, t('tse.per_rate')),
        h('dd', {}, x.amounts_per_vat_rate.map((v) => `${vat(v.vat_rate)}: ${fmtMoney(v.amount)}`).join(' · '))] : null,
      h('dt', {}, t('tse.tse_number')), h('dd', {}, String(x.number)),
      h('dt', {}, t('tse.counter')), h('dd', {}, x.signature_counter === null ? '–' : String(x.signature_counter)),
      h('dt', {}, t('tse.signed_at')), h('dd', {}, fmtDateTime(x.time_end || x.time_start))));
}

export default {
  async render(main, { readOnly = false } = {}) {
    const statusBox = h('div');
    const deviceBox = h('div');
    const queueBox = h('div');
    const outageBox = h('div');
    const txBox = h('div');
    let polling = null;
    let outageOpen = false;
    const replace = replaceSection();
    let simulated = false;

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
        (s.checks || []).length ? h('details', {}, h('summary', {}, t('tse.checks')),
          h('ul', {}, s.checks.map((c) => h('li', {},
            badge(word('tse.check.', c.result, 'tse.check.warning'), c.result === 'ok' ? 'ok' : c.result === 'failed' ? 'bad' : 'neutral'), ' ',
            word('tse.check.', c.name, 'tse.check.other'), c.result === 'failed' && c.code ? `: ${cause(c.code)}` : '')))) : null);
    }

    function showStatus(s) {
      outageOpen = !!s.open_outage || s.circuit === 'open';
      const issues = problems(s);
      clear(statusBox,
        h('p', { id: 'tse-health', dataset: { state: s.simulated ? 'simulated' : s.healthy ? 'ok' : 'bad' } },
          s.simulated ? badge(t('tsew.simulated'), 'sim') : s.healthy ? badge(t('tse.healthy'), 'ok') : badge(t('tse.unhealthy'), 'bad')),
        s.simulated ? h('p', { class: 'notice bad', id: 'tse-simulated' }, t('tsew.banner_title'), ' ', t('tsew.banner_todo')) : null,
        certWarning(s),
        issues.length ? h('ul', { class: 'problems' }, issues.map((p) => h('li', {}, p))) : null,
        h('dl', { class: 'facts' },
          h('dt', {}, t('tse.provider')), h('dd', {}, word('tse.provider.', s.provider, 'tse.provider.fiskaly')),
          h('dt', {}, t('tse.circuit')), h('dd', {}, s.circuit === 'open' ? badge(t('tse.circuit_open'), 'bad') : t('tse.circuit_closed')),
          h('dt', {}, t('tse.queue_depth')), h('dd', {}, String(s.queue_depth)),
          h('dt', {}, t('tse.attention')), h('dd', {}, s.attention_count ? badge(String(s.attention_count), 'bad') : '0'),
          h('dt', {}, t('tse.cert_days')), h('dd', {}, s.days_to_certificate_expiry === null ? '–' : t('tse.days', { n: s.days_to_certificate_expiry })),
          s.last_error ? [h('dt', {}, t('tse.last_error')), h('dd', {}, cause(s.last_error.code))] : null));
      showSelfTest(s.last_self_test);
    }

    async function loadStatus() {
      try {
        const st = (await api.get('/api/tse/status')).status;
        simulated = st.simulated;
        showStatus(st);
      } catch (err) { clear(statusBox, errorLine(err)); }
    }

    async function loadDevice() {
      try {
        const i = (await api.get('/api/tse/info')).info;
        clear(deviceBox, h('dl', { class: 'facts' },
          h('dt', {}, t('tse.serial')), h('dd', { class: 'mono' }, i.serial_number),
          h('dt', {}, t('tse.tss_state')), h('dd', {}, word('tse.tss.', i.state, 'tse.tss.DECOMMISSIONED')),
          h('dt', {}, t('tse.cert_expiry')), h('dd', { id: 'cert-expiry' }, i.certificate_expiry ? fmtDateTime(i.certificate_expiry) : '–'),
          h('dt', {}, t('tse.provider')), h('dd', {}, word('tse.provider.', i.provider, 'tse.provider.fiskaly')),
          h('dt', {}, t('tse.public_key')), h('dd', { class: 'mono small' }, i.public_key)),
        i.cached ? h('p', { class: 'notice' }, t('tse.cached', { time: fmtDateTime(i.fetched_at) })) : null);
      } catch (err) { clear(deviceBox, h('p', { class: 'form-error' }, errorText(err))); }
    }

    // The queue holds revisions (a sale's start and its finish); she sees
    // one row per sale, with what happens to it in words.
    async function loadQueue() {
      try {
        const q = (await api.get('/api/tse/queue')).queue;
        const sales = new Map();
        for (const j of q.items) {
          const s = sales.get(j.tx_id);
          if (!s) sales.set(j.tx_id, { ...j });
          else if (j.status === 'attention') Object.assign(s, { status: 'attention', last_error_code: j.last_error_code });
        }
        const rows = [...sales.values()];
        clear(queueBox,
          h('p', {}, t('tse.pending', { n: rows.filter((r) => r.status !== 'attention').length }), ' · ',
            q.attention ? badge(t('tse.attention_n', { n: rows.filter((r) => r.status === 'attention').length }), 'bad') : t('tse.attention_n', { n: 0 })),
          outageOpen && rows.length ? h('p', { class: 'notice queue-what', id: 'queue-outage' }, t('tse.q.outage')) : null,
          table([
            { label: t('tse.terminal'), cell: (j) => j.client_serial },
            { label: t('tse.waiting_since'), cell: (j) => fmtDateTime(j.queued_at) },
            { label: t('tse.what'), cell: (j) => j.status === 'attention'
              ? h('span', { class: 'error-text' }, t('tse.q.refused', { cause: cause(j.last_error_code) }))
              : [t('tse.q.waiting'), j.next_attempt_at ? [h('br'), h('span', { class: 'muted small-text' }, t('tse.next_attempt', { time: fmtDateTime(j.next_attempt_at) }))] : null] },
            // Actions only where the TSE refused a receipt: waiting ones need none.
            rows.some((r) => r.status === 'attention') ? { label: t('common.actions'), cell: (j) => j.status !== 'attention' ? '' : h('div', { class: 'buttons' },
              h('button', { type: 'button', class: 'small', onclick: (e) => act(e.target, j, 'retry') }, t('tse.retry')),
              h('button', { type: 'button', class: 'small danger', onclick: (e) => act(e.target, j, 'cancel') }, t('tse.cancel_tx'))) } : null,
          ].filter(Boolean), rows, { caption: t('tse.queue'), empty: t('tse.queue_empty'), rowAttrs: (j) => ({ dataset: { status: j.status } }) }));
      } catch (err) { clear(queueBox, h('p', { class: 'form-error' }, errorText(err))); }
    }

    async function act(button, job, action) {
      if (action === 'cancel' && !(await confirmDialog(t('tse.cancel_confirm', { register: job.client_serial, time: fmtDateTime(job.queued_at) }), t('tse.cancel_tx')))) return;
      await withBusy(button, async () => {
        try {
          await api.post(`/api/tse/queue/${job.tx_id}/${action}`);
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
          { label: t('tse.reason'), cell: (o) => cause(o.reason_code) },
          { label: t('tse.affected'), cell: (o) => String(o.affected_transactions), class: 'num' },
        ], os, { caption: t('tse.outages'), empty: t('tse.no_outages') }));
      } catch (err) { clear(outageBox, h('p', { class: 'form-error' }, errorText(err))); }
    }

    // Receipts of a range of local dates: one row per sale in its final
    // state, newest first; a cancelled one says so.
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
          const byID = new Map(list.map((x) => [x.id, x]));
          const cancelled = new Set(list.filter((x) => x.cancels).map((x) => x.cancels));
          const rows = [...list].reverse();
          clear(txBox, table([
            { label: t('tse.time'), cell: (x) => fmtDateTime(x.time_end || x.time_start) },
            { label: t('tse.terminal'), cell: (x) => h('span', { class: 'nowrap' }, x.client_serial) },
            { label: t('tse.type'), cell: (x) => [receiptType(x.receipt_type, x.cancels),
              x.cancelled_by || cancelled.has(x.id) ? [' ', badge(t('tse.cancelled_receipt'), 'warn')] : null,
              x.cancels && byID.has(x.cancels) ? [h('br'), h('span', { class: 'muted small-text' }, t('tse.storno_of', { time: fmtDateTime(byID.get(x.cancels).time_start) }))] : null] },
            { label: t('tse.amount'), cell: (x) => fmtMoney(x.total), class: 'num' },
            { label: t('tse.payment'), cell: (x) => (x.amounts_per_payment_type || []).map(payment).join(', ') },
            { label: t('tse.tx_state'), cell: (x) => txState(x) },
            { label: t('tse.details'), cell: (x) => txContent(x) },
          ], rows, { caption: `${t('tse.transactions')} ${fmtDay(v.from)} – ${fmtDay(v.to)}`, empty: t('tse.no_transactions'),
            rowAttrs: (x) => ({ class: cancelled.has(x.id) || x.cancelled_by ? 'tx-cancelled' : null, dataset: { id: x.id } }) }));
          const wrap = txBox.querySelector('table');
          if (wrap) wrap.classList.add('tx-list');
        } catch (err) { showError(txForm, err); }
      });
    }

    append(main,
      h('div', { class: 'page-head' }, h('h1', {}, t('tse.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => refresh() }, t('common.refresh'))),
      h('div', { class: 'grid' },
        h('section', { class: 'card', id: 'tse-status' }, h('h2', {}, t('tse.status')), statusBox),
        readOnly ? null : h('section', { class: 'card' }, h('h2', {}, t('tse.self_test')), selfTestBox, testButton),
        h('section', { class: 'card', id: 'tse-device' }, h('h2', {}, t('tse.device')), deviceBox)),
      readOnly ? null : h('section', { class: 'card', id: 'tse-queue' }, h('h2', {}, t('tse.queue')), queueBox),
      readOnly ? null : replace.card,
      h('section', { class: 'card', id: 'tse-transactions' }, h('h2', {}, t('tse.transactions')), txForm, txBox),
      h('section', { class: 'card', id: 'tse-outages' }, h('h2', {}, t('tse.outages')), outageBox));

    async function refresh() { await loadStatus(); await Promise.all([loadDevice(), readOnly ? null : loadQueue(), loadOutages(), readOnly ? null : replace.load(simulated)]); }
    await refresh();
    await loadTransactions(txForm.querySelector('button'));
    return () => { clearInterval(polling); replace.stop(); };
  },
};
