// Prüfzugriffe: every request of the tax office's auditor, allowed or
// refused, newest first, as the append-only log keeps it (GET
// /api/audit-log, docs/API.md; what an auditor may see: docs/FISCAL.md,
// "The auditor's access"). The owner reads what was looked at in words;
// the exact request is one click away for her tax adviser.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, badge, table, withBusy, errorLine } from '../ui.js';
import { fmtDateTime } from '../format.js';

addStrings({
  de: {
    'audit.title': 'Prüfzugriffe',
    'audit.intro': 'Jeder Aufruf einer Prüferin oder eines Prüfers vom Finanzamt, ob gezeigt oder abgelehnt. Die Liste kann niemand ändern oder löschen, auch kein Administrator. Prüfzugänge legen Sie unter „Benutzer“ an.',
    'audit.list': 'Aufrufe, neueste zuerst', 'audit.when': 'Zeit', 'audit.who': 'Prüfer/in', 'audit.what': 'Aufgerufen', 'audit.result': 'Ergebnis',
    'audit.exact': 'Genaue Anfrage', 'audit.more': 'Ältere laden', 'audit.none': 'Noch keine Aufrufe von Prüfern.',
    'audit.shown': 'gezeigt', 'audit.refused': 'abgelehnt', 'audit.not_found': 'nicht gefunden',
    'audit.failed': 'Fehler', 'audit.invalid': 'ungültige Angaben',
    'audit.w.receipts': 'Belege', 'audit.w.closings': 'Tagesabschlüsse', 'audit.w.archive': 'TSE-Archiv', 'audit.w.archive_file': 'TSE-Export (Datei)',
    'audit.w.dsfinvk': 'DSFinV-K-Export', 'audit.w.master': 'Stammdaten', 'audit.w.registration': 'Meldung nach §146a AO',
    'audit.w.tse': 'TSE-Zustand und Gerät', 'audit.w.outages': 'TSE-Ausfälle', 'audit.w.login': 'Anmeldung', 'audit.w.account': 'Eigenes Konto',
    'audit.w.restaurant': 'Name und Zeitzone des Betriebs', 'audit.w.other': 'Andere Daten (nicht für Prüfer)',
    'audit.w.health': 'Erreichbarkeit der posbox (keine Daten)', 'audit.w.api_doc': 'Beschreibung der Schnittstelle (keine Daten)',
  },
  en: {
    'audit.title': 'Audit access log',
    'audit.intro': 'Every request of a tax office auditor, shown or refused. Nobody can change or delete this list, not even an admin. Audit accesses are created under "Users".',
    'audit.list': 'Requests, newest first', 'audit.when': 'Time', 'audit.who': 'Auditor', 'audit.what': 'Requested', 'audit.result': 'Result',
    'audit.exact': 'Exact request', 'audit.more': 'Load older', 'audit.none': 'No requests by auditors yet.',
    'audit.shown': 'shown', 'audit.refused': 'refused', 'audit.not_found': 'not found',
    'audit.failed': 'error', 'audit.invalid': 'invalid input',
    'audit.w.receipts': 'Receipts', 'audit.w.closings': 'Daily closings', 'audit.w.archive': 'TSE archive', 'audit.w.archive_file': 'TSE export (file)',
    'audit.w.dsfinvk': 'DSFinV-K export', 'audit.w.master': 'Master data', 'audit.w.registration': '§146a AO registration',
    'audit.w.tse': 'TSE state and device', 'audit.w.outages': 'TSE outages', 'audit.w.login': 'Login', 'audit.w.account': 'Own account',
    'audit.w.restaurant': 'Business name and timezone', 'audit.w.other': 'Other data (not for auditors)',
    'audit.w.health': 'Whether the posbox answers (no data)', 'audit.w.api_doc': 'Description of the API (no data)',
  },
});

// WHAT names a request's target in words, by its path (first match).
const WHAT = [
  [/^\/api\/tse\/transactions/, 'receipts'], [/^\/api\/tse\/closings/, 'closings'], [/^\/api\/tse\/archives\/[^/?]+\/file/, 'archive_file'],
  [/^\/api\/tse\/archives/, 'archive'], [/^\/api\/fiscal\/dsfinvk/, 'dsfinvk'], [/^\/api\/fiscal\/master-data/, 'master'],
  [/^\/api\/fiscal\/registration/, 'registration'], [/^\/api\/tse\/(status|info)/, 'tse'], [/^\/api\/tse\/outages/, 'outages'],
  [/^\/api\/health/, 'health'], [/^\/api\/openapi\.json/, 'api_doc'], [/^\/api\/auth\/login/, 'login'], [/^\/api\/auth\//, 'account'], [/^\/api\/restaurant(\?|$)/, 'restaurant'],
];

function what(target) {
  const hit = WHAT.find(([re]) => re.test(target));
  return t(`audit.w.${hit ? hit[1] : 'other'}`);
}

function result(status) {
  if (status < 400) return badge(t('audit.shown'), 'ok');
  if (status === 403) return badge(t('audit.refused'), 'bad');
  if (status === 404) return badge(t('audit.not_found'), 'neutral');
  if (status === 422 || status === 400) return badge(t('audit.invalid'), 'neutral');
  return badge(`${t('audit.failed')} (${status})`, 'warn');
}

const PAGE = 100;

export default {
  async render(main) {
    const listBox = h('div', { id: 'audit-list' });
    const more = h('button', { type: 'button', class: 'secondary', id: 'audit-more', hidden: true }, t('audit.more'));
    let rows = [];
    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('audit.title')),
        h('button', { type: 'button', class: 'secondary', onclick: (e) => withBusy(e.currentTarget, () => load(true)) }, t('common.refresh'))),
      h('p', { class: 'muted' }, t('audit.intro')),
      h('section', { class: 'card', id: 'audit-log' }, h('h2', {}, t('audit.list')), listBox, h('div', { class: 'buttons' }, more)));
    more.addEventListener('click', () => withBusy(more, () => load(false)));

    // load fetches the newest page (fresh) or the page after the last row.
    async function load(fresh) {
      const before = !fresh && rows.length ? rows[rows.length - 1].seq : null;
      let page;
      try {
        page = (await api.get('/api/audit-log' + api.query({ limit: PAGE, before }))).requests;
      } catch (err) {
        clear(listBox, errorLine(err));
        return;
      }
      rows = fresh ? page : rows.concat(page);
      more.hidden = page.length < PAGE;
      clear(listBox, table([
        { label: t('audit.when'), cell: (x) => fmtDateTime(x.at) },
        { label: t('audit.who'), class: 'wrap-anywhere', cell: (x) => h('div', {}, h('strong', {}, x.user_name), h('br'), h('span', { class: 'muted small-text' }, x.user_email)) },
        { label: t('audit.what'), class: 'wrap-anywhere', cell: (x) => h('details', {}, h('summary', {}, what(x.target)),
          h('p', { class: 'muted small-text' }, t('audit.exact'), ': ', h('code', {}, `${x.method} ${x.target}`))) },
        { label: t('audit.result'), cell: (x) => result(x.status) },
      ], rows, { caption: t('audit.list'), empty: t('audit.none'), rowAttrs: (x) => ({ dataset: { status: String(x.status) } }) }));
    }
    await load(true);
  },
};
