// HQ's page (posbox hq, docs/HQ.md): the chain's totals, then a card per
// restaurant from HQ's copy of its box: today's sales per VAT rate, who
// is clocked in, this week's hours, the TSE, how old the copy is. A box
// HQ cannot read says so in plain words; the technical text is a detail.
// It refreshes itself every 15 seconds.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, append, badge, errorText } from '../ui.js';
import { fmtTime, fmtDateTime, fmtMoney, fmtNumber } from '../format.js';
import { cause } from '../tse_words.js';
import { ago } from './dashboard_replica.js';

addStrings({
  de: {
    'hq.title': 'Alle Standorte', 'hq.auto': 'Aktualisiert sich alle 15 Sekunden. Die Zahlen kommen aus den Sicherungen der Kassen, nur lesend.',
    'hq.chain': 'Alle Standorte zusammen', 'hq.reporting': '{n} von {total} Standorten melden Zahlen',
    'hq.sales_today': 'Umsatz heute', 'hq.sales_count': '{n} Verkäufe', 'hq.sales_count_one': '1 Verkauf',
    'hq.clocked_in': 'Eingestempelt', 'hq.nobody': 'niemand', 'hq.people': '{n} Personen', 'hq.people_one': '1 Person',
    'hq.week': 'Stunden diese Woche', 'hq.hours': '{hours} Std.',
    'hq.outages': 'Offene TSE-Ausfälle', 'hq.tse': 'TSE', 'hq.tse_ok': 'in Ordnung', 'hq.tse_bad': 'Achtung',
    'hq.tse_outage': 'TSE ausgefallen seit {time}: {reason}', 'hq.tse_unsigned': '{n} Verkäufe warten auf die Signatur',
    'hq.tse_unsigned_one': '1 Verkauf wartet auf die Signatur', 'hq.tse_selftest': 'Der letzte Selbsttest ist fehlgeschlagen.',
    'hq.current': 'aktuell', 'hq.problem': 'Achtung', 'hq.replicated': '{ago} übertragen', 'hq.never': 'noch nichts übertragen',
    'hq.old_figures': 'Die Zahlen zeigen den Stand von {time}.',
    'hq.why.waiting': 'Die erste Kopie dieses Standorts wird gerade geholt.',
    'hq.why.unreachable': 'Die Sicherung dieses Standorts ist nicht erreichbar. Sind NAS oder Server eingeschaltet und im Netz?',
    'hq.why.key': 'Der Schlüssel der Zentrale öffnet die Sicherung dieses Standorts nicht: Die Kasse muss den öffentlichen Schlüssel der Zentrale in replica_recipients eintragen (posbox hq key zeigt ihn).',
    'hq.why.empty': 'In der Sicherung dieses Standorts liegen noch keine Daten. Ist die Sicherung an der Kasse eingerichtet?',
    'hq.why.failed': 'Die Daten dieses Standorts können gerade nicht gelesen werden.',
    'hq.since': 'seit {time}', 'hq.detail': 'Technische Einzelheiten', 'hq.source': 'Sicherung',
    'hq.unknown_name': 'Standort ohne Daten', 'hq.none': 'Es wird noch keine Kasse verfolgt.',
  },
  en: {
    'hq.title': 'All locations', 'hq.auto': 'Refreshes itself every 15 seconds. The figures come from the tills\' replicas, read only.',
    'hq.chain': 'All locations together', 'hq.reporting': '{n} of {total} locations report figures',
    'hq.sales_today': 'Sales today', 'hq.sales_count': '{n} sales', 'hq.sales_count_one': '1 sale',
    'hq.clocked_in': 'Clocked in', 'hq.nobody': 'nobody', 'hq.people': '{n} people', 'hq.people_one': '1 person',
    'hq.week': 'Hours this week', 'hq.hours': '{hours} h',
    'hq.outages': 'Open TSE outages', 'hq.tse': 'TSE', 'hq.tse_ok': 'healthy', 'hq.tse_bad': 'needs attention',
    'hq.tse_outage': 'TSE down since {time}: {reason}', 'hq.tse_unsigned': '{n} sales waiting for their signature',
    'hq.tse_unsigned_one': '1 sale waiting for its signature', 'hq.tse_selftest': 'The last self-test failed.',
    'hq.current': 'current', 'hq.problem': 'Attention', 'hq.replicated': 'copied {ago}', 'hq.never': 'nothing copied yet',
    'hq.old_figures': 'The figures show the state of {time}.',
    'hq.why.waiting': 'The first copy of this location is being fetched.',
    'hq.why.unreachable': 'This location\'s replica cannot be reached. Are the NAS or server switched on and on the network?',
    'hq.why.key': 'HQ\'s key does not open this location\'s replica: the till must list HQ\'s public key in replica_recipients (posbox hq key shows it).',
    'hq.why.empty': 'This location\'s replica holds no data yet. Is the copy off the box set up on the till?',
    'hq.why.failed': 'This location\'s data cannot be read right now.',
    'hq.since': 'since {time}', 'hq.detail': 'Technical details', 'hq.source': 'Replica',
    'hq.unknown_name': 'Location without data', 'hq.none': 'No till is followed yet.',
  },
});

const EVERY = 15000;
const VAT = { NORMAL: '19 %', REDUCED_1: '7 %', SPECIAL_RATE_1: '10,7 %', SPECIAL_RATE_2: '5,5 %', NULL: '0 %' };

export default {
  async render(main) {
    const stamp = h('span', { class: 'stamp', role: 'status', 'aria-live': 'polite' });
    const body = h('div', {});
    const refresh = h('button', { type: 'button', class: 'secondary', onclick: () => load() }, t('common.refresh'));
    main.append(h('div', { class: 'page-head' }, h('h1', {}, t('hq.title')), stamp, refresh),
      h('p', { class: 'muted' }, t('hq.auto')), body);

    async function load() {
      let chain;
      try {
        chain = (await api.get('/api/hq/restaurants')).chain;
      } catch (err) {
        clear(body, h('p', { role: 'alert', class: 'form-error' }, errorText(err)));
        return;
      }
      const now = new Date(chain.generated_at).getTime();
      clear(body, totalsCard(chain.totals),
        chain.restaurants.length ? h('div', { class: 'grid', id: 'restaurants' }, chain.restaurants.map((r) => restaurantCard(r, now))) :
          h('p', { class: 'empty' }, t('hq.none')));
      stamp.textContent = t('common.updated_at', { time: fmtTime(new Date().toISOString()) });
      stamp.dataset.generatedAt = chain.generated_at;
    }

    await load();
    const timer = setInterval(() => { if (!document.hidden) load().catch(() => {}); }, EVERY);
    return () => clearInterval(timer);
  },
};

function vatList(sales) {
  if (!sales.by_vat_rate.length) return null;
  return h('ul', { class: 'plain vat' }, sales.by_vat_rate.map((v) =>
    h('li', { dataset: { vat: v.vat_rate } }, `${VAT[v.vat_rate] || v.vat_rate}: ${fmtMoney(v.gross)}`)));
}

function salesCount(n) { return n === 1 ? t('hq.sales_count_one') : t('hq.sales_count', { n }); }

function totalsCard(tot) {
  return h('section', { class: 'card', id: 'chain' }, h('h2', {}, t('hq.chain')),
    h('p', { class: 'muted' }, t('hq.reporting', { n: tot.reporting, total: tot.restaurants })),
    h('dl', { class: 'facts' },
      h('dt', {}, t('hq.sales_today')), h('dd', { id: 'chain-sales' }, h('strong', {}, fmtMoney(tot.sales.gross)), ' · ', salesCount(tot.sales.count),
        vatList(tot.sales)),
      h('dt', {}, t('hq.clocked_in')), h('dd', {}, tot.clocked_in === 1 ? t('hq.people_one') : t('hq.people', { n: tot.clocked_in })),
      h('dt', {}, t('hq.week')), h('dd', {}, t('hq.hours', { hours: fmtNumber(tot.week_hours) })),
      h('dt', {}, t('hq.outages')), h('dd', {}, tot.open_outages ? badge(String(tot.open_outages), 'bad') : '0')));
}

function restaurantCard(r, now) {
  const state = r.error ? 'bad' : 'ok';
  const card = h('section', { class: 'card restaurant', dataset: { state, source: r.source } },
    h('h2', {}, r.name || t('hq.unknown_name')),
    h('p', {}, state === 'ok' ? badge(t('hq.current'), 'ok') : badge(t('hq.problem'), 'bad'), ' ',
      h('span', { class: 'lag', title: r.replicated_at ? fmtDateTime(r.replicated_at) : '' },
        r.replicated_at ? t('hq.replicated', { ago: ago(r.replicated_at, now) }) : t('hq.never'))));
  if (r.error) {
    append(card, h('p', { class: 'notice bad why' }, t(`hq.why.${r.error_kind || 'failed'}`),
      r.error_since ? ` (${t('hq.since', { time: fmtDateTime(r.error_since) })})` : ''),
    r.sales && r.replicated_at ? h('p', { class: 'muted' }, t('hq.old_figures', { time: fmtDateTime(r.replicated_at) })) : null,
    h('details', {}, h('summary', {}, t('hq.detail')), h('code', { class: 'wrap-anywhere' }, r.error)));
  }
  if (r.sales) {
    const people = r.clocked_in.length ? r.clocked_in.map((c) => `${c.user_name} (${t('hq.since', { time: fmtTime(c.since) })})`).join(', ') : t('hq.nobody');
    append(card, h('dl', { class: 'facts' },
      h('dt', {}, t('hq.sales_today')), h('dd', { class: 'sales' }, h('strong', {}, fmtMoney(r.sales.gross)), ' · ', salesCount(r.sales.count), vatList(r.sales)),
      h('dt', {}, t('hq.clocked_in')), h('dd', { class: 'people' }, people),
      h('dt', {}, t('hq.week')), h('dd', {}, t('hq.hours', { hours: fmtNumber(r.week.hours) })),
      h('dt', {}, t('hq.tse')), h('dd', { class: 'tse' }, r.tse.healthy ? badge(t('hq.tse_ok'), 'ok') : badge(t('hq.tse_bad'), 'bad'))),
    tseIssues(r));
  }
  append(card, h('p', { class: 'muted wrap-anywhere' }, `${t('hq.source')}: ${r.source}`));
  return card;
}

// tseIssues are the TSE's problems in words, under the card's facts
// (the facts' column is too narrow for sentences on a phone).
function tseIssues(r) {
  const issues = [];
  for (const o of r.open_outages) issues.push(t('hq.tse_outage', { time: fmtDateTime(o.started_at), reason: cause(o.reason_code) }));
  if (r.tse.unsigned) issues.push(t('hq.tse_unsigned', { n: r.tse.unsigned }));
  if (r.tse.self_test && r.tse.self_test.state === 'FAILED') issues.push(t('hq.tse_selftest'));
  return issues.length ? h('ul', { class: 'problems' }, issues.map((i) => h('li', {}, i))) : null;
}
