// The cash page's movements of a day, per register: number, time, kind,
// signed amount, reason, receipt number, who booked it, and what became
// of it (reversed, a counter-entry, a receipt without TSE signature);
// admins reverse a movement here (cash_reverse.js).
// API: GET /api/cash/movements (docs/API.md "The cash book").
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, table, badge, errorLine } from '../ui.js';
import { fmtTime, fmtDay, addDays } from '../format.js';
import { kindLabel, fmtSigned } from './cash_words.js';
import { reverseDialog } from './cash_reverse.js';

addStrings({
  de: {
    'cash.movements': 'Kassenbewegungen am {day}', 'cash.no_movements': 'An diesem Tag wurde nichts gebucht.',
    'cash.movements_of': 'Kassenbewegungen von {register}',
    'cash.no': 'Nr.', 'cash.time': 'Uhrzeit', 'cash.amount_col': 'Betrag', 'cash.booked_by': 'Gebucht von', 'cash.note': 'Hinweis',
    'cash.reversed_by': 'storniert durch Nr. {no}', 'cash.reversed': 'storniert',
    'cash.reverses': 'Gegenbuchung zu Nr. {no}', 'cash.counter_entry': 'Gegenbuchung',
    'cash.from_count': 'aus Kassensturz', 'cash.no_tse': 'ohne TSE-Signatur',
  },
  en: {
    'cash.movements': 'Cash movements on {day}', 'cash.no_movements': 'Nothing was booked on this day.',
    'cash.movements_of': 'Cash movements of {register}',
    'cash.no': 'No.', 'cash.time': 'Time', 'cash.amount_col': 'Amount', 'cash.booked_by': 'Booked by', 'cash.note': 'Note',
    'cash.reversed_by': 'reversed by no. {no}', 'cash.reversed': 'reversed',
    'cash.reverses': 'counter-entry to no. {no}', 'cash.counter_entry': 'Counter-entry',
    'cash.from_count': 'from a cash count', 'cash.no_tse': 'without TSE signature',
  },
});

// numbersOf maps the movements a day's list names but does not hold (a
// reversal booked on a later day, an original of an earlier one) to their
// numbers; a range is at most 366 days, so older ones stay unnamed.
async function numbersOf(list, day, today) {
  const known = new Map(list.map((m) => [m.id, m.number]));
  const ranges = [];
  if (list.some((m) => m.reverses && !known.has(m.reverses))) ranges.push([addDays(day, -365), addDays(day, -1)]);
  if (list.some((m) => m.reversed_by && !known.has(m.reversed_by)) && day < today) {
    ranges.push([addDays(day, 1), [addDays(day, 366), today].sort()[0]]);
  }
  for (const [from, to] of ranges) {
    for (const m of (await api.get(`/api/cash/movements${api.query({ from, to })}`)).movements) known.set(m.id, m.number);
  }
  return known;
}

// movementsSection is the card; load(day) shows that day's movements.
export function movementsSection({ today, mayReverse, onChanged }) {
  const heading = h('h2', { id: 'cash-movements-heading' });
  const body = h('div', { id: 'cash-movement-list' });
  const card = h('section', { class: 'card', id: 'cash-movements', 'aria-labelledby': 'cash-movements-heading' }, heading, body);

  async function load(day) {
    heading.textContent = t('cash.movements', { day: fmtDay(day) });
    let list, numbers;
    try {
      list = (await api.get(`/api/cash/movements${api.query({ from: day, to: day })}`)).movements;
      numbers = await numbersOf(list, day, today);
    } catch (err) {
      clear(body, errorLine(err));
      return;
    }
    const note = (m) => [
      m.reverses ? badge(numbers.has(m.reverses) ? t('cash.reverses', { no: numbers.get(m.reverses) }) : t('cash.counter_entry')) : null,
      m.reversed_by ? badge(numbers.has(m.reversed_by) ? t('cash.reversed_by', { no: numbers.get(m.reversed_by) }) : t('cash.reversed'), 'warn') : null,
      m.count_id ? badge(t('cash.from_count')) : null,
      m.receipt_without_tse ? badge(t('cash.no_tse'), 'warn') : null,
    ].filter(Boolean).flatMap((b, i) => (i ? [' ', b] : [b]));
    // A count's difference is corrected by counting again, a counter-entry
    // by booking again; a movement is reversed once.
    const reversible = (m) => mayReverse && !m.reverses && !m.count_id && !m.reversed_by;
    const columns = [
      { label: t('cash.no'), class: 'num', cell: (m) => String(m.number) },
      { label: t('cash.time'), cell: (m) => fmtTime(m.created_at) },
      { label: t('cash.kind'), cell: (m) => kindLabel(m.kind) },
      { label: t('cash.amount_col'), class: 'num', cell: (m) => h('span', { class: Number(m.amount) < 0 ? 'out' : 'in' }, fmtSigned(m.amount)) },
      // A difference's reason is the receipt line's figures, which the
      // count's own list says in the page's words.
      { label: t('cash.reason'), cell: (m) => (m.count_id ? '' : m.reason) },
      { label: t('cash.voucher'), cell: (m) => m.voucher_no },
      { label: t('cash.booked_by'), cell: (m) => m.booked_by.name },
      { label: t('cash.note'), cell: note },
      { label: t('common.actions'), cell: (m) => reversible(m) ? h('button', { type: 'button', class: 'secondary small reverse',
        'aria-label': t('cash.reverse_label', { no: m.number }), onclick: () => reverseDialog(m, onChanged) }, t('cash.reverse')) : null },
    ];
    const registers = [...new Set(list.map((m) => m.client_serial))].sort();
    clear(body, registers.length ? registers.map((r) => h('div', { class: 'cash-day', dataset: { register: r } }, h('h3', {}, r),
      table(columns, list.filter((m) => m.client_serial === r), { caption: t('cash.movements_of', { register: r }),
        rowAttrs: (m) => ({ dataset: { no: m.number } }) })))
      : h('p', { class: 'empty' }, t('cash.no_movements')));
  }
  return { card, load };
}
