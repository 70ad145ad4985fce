// The cash counts of a day: per count its register, time, Soll, Ist,
// Differenz and who counted, and whether it was counted by denomination.
// API: GET /api/cash/counts (docs/API.md "The cash book").
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, table, errorLine } from '../ui.js';
import { fmtTime, fmtDay, fmtMoney } from '../format.js';
import { differenceText } from './cash_words.js';

addStrings({
  de: {
    'cash.counts': 'Kassenstürze am {day}', 'cash.no_counts': 'An diesem Tag wurde nicht gezählt.',
    'cash.count_way': 'Gezählt', 'cash.way_pieces': 'nach Scheinen und Münzen', 'cash.way_sum': 'als Summe',
  },
  en: {
    'cash.counts': 'Cash counts on {day}', 'cash.no_counts': 'No count on this day.',
    'cash.count_way': 'Counted', 'cash.way_pieces': 'by notes and coins', 'cash.way_sum': 'as a sum',
  },
});

// countsSection is the card; load(day) shows that day's counts.
export function countsSection() {
  const heading = h('h2', { id: 'cash-counts-heading' });
  const body = h('div', { id: 'cash-count-list' });
  const card = h('section', { class: 'card', id: 'cash-counts', 'aria-labelledby': 'cash-counts-heading' }, heading, body);

  async function load(day) {
    heading.textContent = t('cash.counts', { day: fmtDay(day) });
    try {
      const { counts } = await api.get(`/api/cash/counts${api.query({ from: day, to: day })}`);
      clear(body, table([
        { label: t('cash.register'), cell: (c) => c.client_serial },
        { label: t('cash.no'), class: 'num', cell: (c) => String(c.number) },
        { label: t('cash.time'), cell: (c) => fmtTime(c.created_at) },
        { label: t('cash.expected_then'), class: 'num', cell: (c) => fmtMoney(c.expected) },
        { label: t('cash.counted'), class: 'num', cell: (c) => fmtMoney(c.counted) },
        { label: t('cash.difference'), cell: (c) => h('strong', { class: Number(c.difference) < 0 ? 'bad-text' : null }, differenceText(c.difference)) },
        { label: t('cash.count_way'), cell: (c) => (c.denominations ? t('cash.way_pieces') : t('cash.way_sum')) },
        { label: t('cash.counted_by'), cell: (c) => c.counted_by.name },
      ], counts, { caption: t('cash.counts', { day: fmtDay(day) }), empty: t('cash.no_counts'),
        rowAttrs: (c) => ({ dataset: { register: c.client_serial, no: c.number } }) }));
    } catch (err) {
      clear(body, errorLine(err));
    }
  }
  return { card, load };
}
