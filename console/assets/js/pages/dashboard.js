// The dashboard: who is clocked in, today's hours, the TSE's health, the
// copy off the box (dashboard_replica.js), failed notifications, and
// whatever waits for the owner (a restore's missing sales, old working
// times held back, dashboard_retention.js); it refreshes itself every 30
// seconds.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, append, badge, errorText } from '../ui.js';
import { fmtTime, fmtDateTime, fmtNumber, fmtDuration, fmtDay } from '../format.js';
import { problems, certWarning } from '../tse_words.js';
import { replicaCard } from './dashboard_replica.js';
import { afterRestoreCard } from './tse_after_restore.js';
import { retentionCard } from './dashboard_retention.js';
import { dueCard } from './fiscal_registration_elster.js';
import { recoverySheetPrompt } from './recovery_sheet.js';

addStrings({
  de: {
    'dash.title': 'Übersicht', 'dash.clocked_in': 'Jetzt eingestempelt', 'dash.nobody': 'Niemand ist eingestempelt.',
    'dash.since': 'seit {time}', 'dash.today': 'Heute gearbeitet', 'dash.hours': '{hours} Std.', 'dash.entries': '{n} Einträge', 'dash.entries_one': '1 Eintrag',
    'dash.tse': 'TSE', 'dash.tse_ok': 'in Ordnung', 'dash.tse_bad': 'Achtung', 'dash.queue': 'Warteschlange',
    'dash.attention': 'Zu prüfen', 'dash.no_outage': 'Kein offener Ausfall',
    'dash.cert': 'Zertifikat', 'dash.cert_days': 'läuft in {days} Tagen ab', 'dash.cert_expired': 'abgelaufen',
    'dash.cert_days_one': 'läuft in einem Tag ab',
    'dash.notifications': 'Benachrichtigungen', 'dash.failed': 'In 24 Std. fehlgeschlagen', 'dash.queued': 'Wartend',
    'dash.auto': 'Aktualisiert sich alle 30 Sekunden.', 'dash.tse_unavailable': 'TSE nicht erreichbar: {reason}',
    'dash.details': 'Details',
  },
  en: {
    'dash.title': 'Dashboard', 'dash.clocked_in': 'Clocked in now', 'dash.nobody': 'Nobody is clocked in.',
    'dash.since': 'since {time}', 'dash.today': 'Worked today', 'dash.hours': '{hours} h', 'dash.entries': '{n} entries', 'dash.entries_one': '1 entry',
    'dash.tse': 'TSE', 'dash.tse_ok': 'healthy', 'dash.tse_bad': 'needs attention', 'dash.queue': 'Queue',
    'dash.attention': 'Attention', 'dash.no_outage': 'No open outage',
    'dash.cert': 'Certificate', 'dash.cert_days': 'expires in {days} days', 'dash.cert_expired': 'expired',
    'dash.cert_days_one': 'expires in one day',
    'dash.notifications': 'Notifications', 'dash.failed': 'Failed in 24 h', 'dash.queued': 'Queued',
    'dash.auto': 'Refreshes itself every 30 seconds.', 'dash.tse_unavailable': 'TSE unavailable: {reason}',
    'dash.details': 'Details',
  },
});

const EVERY = 30000;

export default {
  async render(main, { navigate }) {
    const stamp = h('span', { class: 'stamp', role: 'status', 'aria-live': 'polite' });
    const body = h('div', { class: 'grid' });
    const refresh = h('button', { type: 'button', class: 'secondary', onclick: () => load() }, t('common.refresh'));
    main.append(h('div', { class: 'page-head' }, h('h1', {}, t('dash.title')), stamp, refresh),
      h('p', { class: 'muted' }, t('dash.auto')), recoverySheetPrompt(navigate), body);

    async function load() {
      const [dash, tse, rep, ar, ret, due] = await Promise.allSettled([api.get('/api/dashboard'), api.get('/api/tse/status'), api.get('/api/replica'),
        api.get('/api/tse/after-restore'), api.get('/api/retention'), api.get('/api/fiscal/registration/due')]);
      if (dash.status === 'rejected') {
        clear(body, h('p', { role: 'alert', class: 'form-error' }, errorText(dash.reason)));
        return;
      }
      const d = dash.value.dashboard;
      clear(body, afterRestoreCard(ar, navigate), retentionCard(ret, load), dueCard(due, navigate), clockedIn(d), today(d), tseCard(tse, navigate), replicaCard(rep), notifications(d, navigate));
      stamp.textContent = t('common.updated_at', { time: fmtTime(new Date().toISOString()) });
      stamp.dataset.generatedAt = d.generated_at;
    }

    await load();
    const timer = setInterval(() => { if (!document.hidden) load().catch(() => {}); }, EVERY);
    return () => clearInterval(timer);
  },
};

function clockedIn(d) {
  const now = new Date(d.generated_at);
  return h('section', { class: 'card', id: 'clocked-in' }, h('h2', {}, t('dash.clocked_in')),
    d.clocked_in.length === 0 ? h('p', { class: 'empty' }, t('dash.nobody')) :
      h('ul', { class: 'plain' }, d.clocked_in.map((e) => h('li', { dataset: { user: e.user_name } },
        h('strong', {}, e.user_name), ' ',
        h('span', {}, t('dash.since', { time: fmtDateTime(e.clock_in) })), ' · ',
        h('span', { class: 'muted' }, fmtDuration(now - new Date(e.clock_in)))))));
}

function today(d) {
  return h('section', { class: 'card', id: 'today' }, h('h2', {}, t('dash.today'), ' · ', fmtDay(d.date)),
    h('p', { class: 'big-number' }, t('dash.hours', { hours: fmtNumber(d.today.worked_hours) })),
    h('p', { class: 'muted' }, d.today.entries === 1 ? t('dash.entries_one') : t('dash.entries', { n: d.today.entries })),
    d.today.by_user.length ? h('ul', { class: 'plain' }, d.today.by_user.map((u) =>
      h('li', {}, u.user_name, ': ', t('dash.hours', { hours: fmtNumber(u.worked_hours) })))) : null);
}

// tseCard is green only when a certified TSE signs and all is well: the
// simulator has a state of its own, and every problem is said in words.
function tseCard(res, navigate) {
  const card = h('section', { class: 'card', id: 'tse' }, h('h2', {}, t('dash.tse')));
  if (res.status === 'rejected') {
    card.append(h('p', {}, badge(t('dash.tse_bad'), 'bad'), ' ', t('dash.tse_unavailable', { reason: errorText(res.reason) })));
    return card;
  }
  const s = res.value.status;
  const issues = problems(s);
  const state = s.simulated ? badge(t('tsew.simulated'), 'sim') : s.healthy ? badge(t('dash.tse_ok'), 'ok') : badge(t('dash.tse_bad'), 'bad');
  append(card,
    h('p', { id: 'tse-state', dataset: { state: s.simulated ? 'simulated' : s.healthy ? 'ok' : 'bad' } }, state),
    s.simulated ? h('p', { class: 'notice bad' }, t('tsew.banner_title'), ' ', t('tsew.banner_todo')) : null,
    certWarning(s),
    issues.length ? h('ul', { class: 'problems' }, issues.map((p) => h('li', {}, p))) : null,
    h('dl', { class: 'facts' },
      h('dt', {}, t('dash.queue')), h('dd', { id: 'tse-queue-depth' }, String(s.queue_depth)),
      h('dt', {}, t('dash.attention')), h('dd', {}, String(s.attention_count)),
      h('dt', {}, t('dash.cert')), h('dd', {}, s.days_to_certificate_expiry === null ? '–' :
        s.days_to_certificate_expiry < 0 ? t('dash.cert_expired') : t('dash.cert_days', { days: s.days_to_certificate_expiry, n: s.days_to_certificate_expiry }))),
    s.open_outage ? null : h('p', {}, h('span', { class: 'muted' }, t('dash.no_outage'))),
    h('a', { href: '/tse', onclick: (e) => { e.preventDefault(); navigate('/tse'); } }, t('dash.details')));
  return card;
}

function notifications(d, navigate) {
  const n = d.notifications;
  return h('section', { class: 'card', id: 'notifications' }, h('h2', {}, t('dash.notifications')),
    h('dl', { class: 'facts' },
      h('dt', {}, t('dash.failed')), h('dd', {}, n.failed_last_24h ? badge(String(n.failed_last_24h), 'bad') : '0'),
      h('dt', {}, t('dash.queued')), h('dd', {}, String(n.queued))),
    h('a', { href: '/notifications', onclick: (e) => { e.preventDefault(); navigate('/notifications'); } }, t('dash.details')));
}
