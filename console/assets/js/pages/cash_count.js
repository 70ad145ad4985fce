// The cash count (Kassensturz): the drawer counted note by note and coin
// by coin (the sum shown while typing) or entered as one sum; posbox
// compares it with the expected cash and books the difference. The
// result says Soll, Ist and Differenz in words.
// API: POST /api/cash/counts (docs/API.md "The cash book").
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { ApiError } from '../api.js';
import { h, clear, field, withBusy, showError, clearErrors } from '../ui.js';
import { fmtMoney } from '../format.js';
import { euroCents, registerField } from './cash_words.js';
import { countFacts } from './cash_registers.js';

addStrings({
  de: {
    'cash.count': 'Kassensturz (Bargeld zählen)',
    'cash.count_hint': 'Zählen Sie das Bargeld in der Schublade. posbox vergleicht es mit dem Soll-Bestand und bucht eine Differenz als Kassendifferenz.',
    'cash.count_none': 'Gezählt werden kann eine Kasse, deren Kassenbuch begonnen hat: zuerst den Anfangsbestand buchen.',
    'cash.count_how': 'Wie zählen?', 'cash.by_piece': 'Nach Scheinen und Münzen', 'cash.as_sum': 'Nur die Summe',
    'cash.notes': 'Scheine', 'cash.coins': 'Münzen', 'cash.pieces': 'Anzahl {name}',
    'cash.count_sum': 'Gezählt: {amount}', 'cash.counted_sum': 'Gezählter Betrag (€)',
    'cash.pieces_bad': 'Bitte eine ganze Zahl von 0 bis 100000.',
    'cash.count_submit': 'Kassensturz buchen', 'cash.count_result': 'Kassensturz Nr. {no} an {register} gebucht.',
    'cash.count_difference_booked': 'Die Differenz ist als Kassendifferenz gebucht; der Soll-Bestand ist jetzt der gezählte Betrag.',
  },
  en: {
    'cash.count': 'Cash count',
    'cash.count_hint': 'Count the cash in the drawer. posbox compares it with the expected cash and books a difference as a cash difference.',
    'cash.count_none': 'A register can be counted once its cash book has begun: book the opening float first.',
    'cash.count_how': 'How to count?', 'cash.by_piece': 'By notes and coins', 'cash.as_sum': 'The sum only',
    'cash.notes': 'Notes', 'cash.coins': 'Coins', 'cash.pieces': 'Number of {name}',
    'cash.count_sum': 'Counted: {amount}', 'cash.counted_sum': 'Counted amount (€)',
    'cash.pieces_bad': 'Please a whole number from 0 to 100000.',
    'cash.count_submit': 'Book cash count', 'cash.count_result': 'Cash count no. {no} of {register} booked.',
    'cash.count_difference_booked': 'The difference is booked as a cash difference; the expected cash is now the counted amount.',
  },
});

// Every euro note and coin, in cents (fiscal/cashbook/count.go).
const NOTES = [50000, 20000, 10000, 5000, 2000, 1000, 500];
const COINS = [200, 100, 50, 20, 10, 5, 2, 1];
const key = (cents) => (cents / 100).toFixed(2); // the API's "50.00"
const pieceName = (cents) => (cents >= 100 ? `${cents / 100} €` : `${cents} ct`);

// countSection is the card; setRegisters offers the registers whose book
// has begun, onCounted runs after a count.
export function countSection({ onCounted }) {
  const registerSlot = h('div', { class: 'wide register-slot' });
  const sum = h('p', { class: 'count-sum wide', id: 'cash-count-sum', 'aria-live': 'polite' });
  const pieces = (title, list) => h('fieldset', { class: 'denominations wide' }, h('legend', {}, t(title)),
    list.map((c) => field({ name: `denominations.${key(c)}`, label: pieceName(c), type: 'number',
      attrs: { min: 0, max: 100000, step: 1, inputmode: 'numeric', 'aria-label': t('cash.pieces', { name: pieceName(c) }) } })));
  const byPiece = h('div', { class: 'wide by-piece' }, pieces('cash.notes', NOTES), pieces('cash.coins', COINS), sum);
  const asSum = h('div', { class: 'wide as-sum', hidden: true },
    field({ name: 'counted', label: t('cash.counted_sum'), required: true, attrs: { inputmode: 'decimal', autocomplete: 'off' } }));
  const how = h('fieldset', { class: 'count-how wide' }, h('legend', {}, t('cash.count_how')),
    // checked as an attribute, so form.reset() returns to counting pieces.
    [['pieces', 'cash.by_piece'], ['sum', 'cash.as_sum']].map(([v, label]) => h('label', { class: 'choice' },
      h('input', { type: 'radio', name: 'how', value: v, checked: v === 'pieces' ? 'checked' : null }), ` ${t(label)}`)));
  const submit = h('button', { type: 'submit' }, t('cash.count_submit'));
  const form = h('form', { class: 'panel', id: 'cash-count-form', novalidate: true }, registerSlot, how, byPiece, asSum,
    h('p', { class: 'form-error', role: 'alert' }), h('div', { class: 'buttons' }, submit));
  const none = h('p', { class: 'empty', hidden: true }, t('cash.count_none'));
  const result = h('div', { class: 'count-result', id: 'cash-count-result', role: 'status', hidden: true });

  const piecesOf = () => [...NOTES, ...COINS].map((c) => [c, form.elements[`denominations.${key(c)}`].value.trim()]);
  const showSum = () => {
    const cents = piecesOf().reduce((s, [c, v]) => s + (/^\d{1,6}$/.test(v) ? c * Number(v) : 0), 0);
    sum.textContent = t('cash.count_sum', { amount: fmtMoney(cents / 100) });
  };
  byPiece.addEventListener('input', showSum);
  showSum();
  how.addEventListener('change', () => {
    const bySum = form.elements.how.value === 'sum';
    byPiece.hidden = bySum;
    asSum.hidden = !bySum;
  });

  // body is the request, or null after saying what is wrong.
  function body() {
    const out = { client_serial: form.elements.client_serial.value };
    const errors = [];
    if (form.elements.how.value === 'sum') {
      const cents = euroCents(form.elements.counted.value);
      if (Number.isNaN(cents)) errors.push({ field: 'counted', message: t('cash.amount_bad') });
      out.counted = cents / 100;
    } else {
      out.denominations = {};
      for (const [c, v] of piecesOf()) {
        if (v === '') continue;
        if (!/^\d{1,6}$/.test(v) || Number(v) > 100000) errors.push({ field: `denominations.${key(c)}`, message: t('cash.pieces_bad') });
        else out.denominations[key(c)] = Number(v);
      }
    }
    if (!errors.length) return out;
    showError(form, new ApiError(422, { errors }));
    return null;
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    result.hidden = true;
    const req = body();
    if (!req) return;
    await withBusy(submit, async () => {
      try {
        const { count } = await api.post('/api/cash/counts', req);
        clear(result, h('p', { class: 'notice ok' }, t('cash.count_result', { no: count.number, register: count.client_serial })),
          countFacts(count, { who: false }),
          Number(count.difference) !== 0 ? h('p', { class: 'muted' }, t('cash.count_difference_booked')) : null);
        result.hidden = false;
        form.reset();
        showSum();
        byPiece.hidden = false;
        asSum.hidden = true;
        await onCounted(count);
      } catch (err) {
        showError(form, err);
      }
    });
  });

  const card = h('section', { class: 'card', id: 'cash-count', 'aria-labelledby': 'cash-count-heading' },
    h('h2', { id: 'cash-count-heading' }, t('cash.count')), h('p', { class: 'muted' }, t('cash.count_hint')), none, form, result);
  function setRegisters(serials) {
    const keep = form.elements.client_serial && form.elements.client_serial.value;
    clear(registerSlot, registerField(serials, { keep }));
    none.hidden = serials.length > 0;
    form.hidden = !serials.length;
  }
  return { card, setRegisters };
}
