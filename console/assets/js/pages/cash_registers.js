// The cash page's overview: per register the cash that should be in the
// drawer now (Soll-Bestand) and its last count (Kassensturz).
// API: GET /api/cash/registers (docs/API.md "The cash book").
import { t, addStrings } from '../i18n.js';
import { h, clear } from '../ui.js';
import { fmtDateTime, fmtMoney } from '../format.js';
import { differenceText } from './cash_words.js';

addStrings({
  de: {
    'cash.registers': 'Bestand je Kasse', 'cash.no_registers': 'Noch keine Kasse hat verkauft oder gebucht.',
    'cash.expected': 'Soll-Bestand', 'cash.expected_at': '{amount} (Stand {time})',
    'cash.not_started': 'Kassenbuch noch nicht begonnen – zuerst den Anfangsbestand buchen',
    'cash.last_count': 'Letzter Kassensturz', 'cash.no_count': 'Noch kein Kassensturz.',
    'cash.counted': 'Ist (gezählt)', 'cash.expected_then': 'Soll', 'cash.difference': 'Differenz',
    'cash.counted_by': 'Gezählt von', 'cash.counted_at': 'Gezählt am',
  },
  en: {
    'cash.registers': 'Cash per register', 'cash.no_registers': 'No register has sold or booked yet.',
    'cash.expected': 'Expected cash', 'cash.expected_at': '{amount} (as of {time})',
    'cash.not_started': 'Cash book not begun yet – book the opening float first',
    'cash.last_count': 'Last cash count', 'cash.no_count': 'No cash count yet.',
    'cash.counted': 'Counted', 'cash.expected_then': 'Expected', 'cash.difference': 'Difference',
    'cash.counted_by': 'Counted by', 'cash.counted_at': 'Counted at',
  },
});

// countFacts are a count's figures: Ist, Soll, Differenz, who, when.
export function countFacts(c, { who = true } = {}) {
  const row = (label, value) => [h('dt', {}, label), h('dd', {}, value)];
  return h('dl', { class: 'facts' },
    row(t('cash.counted'), fmtMoney(c.counted)), row(t('cash.expected_then'), fmtMoney(c.expected)),
    row(t('cash.difference'), h('strong', { class: Number(c.difference) < 0 ? 'bad-text' : null }, differenceText(c.difference))),
    who ? row(t('cash.counted_by'), c.counted_by.name) : null, row(t('cash.counted_at'), fmtDateTime(c.created_at)));
}

// registersSection is the overview card; show draws the registers of
// GET /api/cash/registers.
export function registersSection() {
  const body = h('div', { id: 'cash-register-list', class: 'grid' });
  const card = h('section', { class: 'card', id: 'cash-registers', 'aria-labelledby': 'cash-registers-heading' },
    h('h2', { id: 'cash-registers-heading' }, t('cash.registers')), body);

  function show(registers) {
    if (!registers.length) { clear(body, h('p', { class: 'empty' }, t('cash.no_registers'))); return; }
    clear(body, registers.map((r) => h('div', { class: 'cash-register', dataset: { register: r.client_serial } },
      h('h3', {}, r.client_serial),
      r.book_started
        ? h('p', { class: 'expected' }, h('span', { class: 'muted' }, `${t('cash.expected')}: `),
          h('strong', { class: 'big-amount' }, t('cash.expected_at', { amount: fmtMoney(r.expected), time: fmtDateTime(r.as_of) })))
        : h('p', { class: 'notice not-started' }, t('cash.not_started')),
      r.book_started ? [h('h4', {}, t('cash.last_count')),
        r.last_count ? countFacts(r.last_count) : h('p', { class: 'empty' }, t('cash.no_count'))] : null)));
  }
  return { card, show };
}
