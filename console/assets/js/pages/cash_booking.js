// The cash page's booking form: a cash movement of a register (float,
// tips paid out, money to or from the bank, deposits, withdrawals, wages,
// expenses), its amount positive and the kind saying which way it moves.
// Every movement is a receipt the TSE signs; without the TSE it still
// goes out, and the page says so. API: POST /api/cash/movements.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { ApiError } from '../api.js';
import { h, clear, field, withBusy, showError, clearErrors } from '../ui.js';
import { KINDS, kindLabel, fmtSigned, euroCents, registerField, registerOf } from './cash_words.js';

addStrings({
  de: {
    'cash.book': 'Geld in die Kasse oder aus der Kasse buchen', 'cash.kind': 'Art', 'cash.amount': 'Betrag (€)',
    'cash.reason': 'Grund', 'cash.reason_wage': 'Grund (an wen)', 'cash.reason_expense': 'Wofür',
    'cash.voucher': 'Belegnummer', 'cash.voucher_hint': 'Die Nummer auf der Quittung oder Rechnung.',
    'cash.in': 'Der Betrag kommt in die Kasse: Der Soll-Bestand steigt.',
    'cash.out': 'Der Betrag wird aus der Kasse genommen: Der Soll-Bestand sinkt.',
    'cash.submit': 'Buchen',
    'cash.booked': 'Gebucht: Nr. {no} an {register}, {kind}, {amount}.',
    'cash.signed': 'Der Beleg ist von der TSE signiert.',
    'cash.without_tse': 'Beleg ohne TSE-Signatur ausgegeben – die TSE war nicht erreichbar. posbox signiert ihn nach, sobald die TSE wieder erreichbar ist.',
  },
  en: {
    'cash.book': 'Book money into or out of the register', 'cash.kind': 'Kind', 'cash.amount': 'Amount (€)',
    'cash.reason': 'Reason', 'cash.reason_wage': 'Reason (paid to whom)', 'cash.reason_expense': 'What for',
    'cash.voucher': 'Receipt number', 'cash.voucher_hint': 'The number on the receipt or invoice.',
    'cash.in': 'The amount goes into the register: the expected cash rises.',
    'cash.out': 'The amount is taken out of the register: the expected cash falls.',
    'cash.submit': 'Book',
    'cash.booked': 'Booked: no. {no} at {register}, {kind}, {amount}.',
    'cash.signed': 'The TSE signed the receipt.',
    'cash.without_tse': 'Receipt issued without TSE signature – the TSE could not be reached. posbox signs it as soon as the TSE is back.',
  },
});

// signedText says whether a movement's receipt was signed (plainly, the
// 202 case included).
export function signedText(m) {
  return m.receipt_without_tse || !m.signed ? t('cash.without_tse') : t('cash.signed');
}

// bookingSection is the form; setRegisters offers the known registers,
// onBooked runs after a booking.
export function bookingSection({ onBooked }) {
  const registerSlot = h('div', { class: 'wide register-slot' });
  const submit = h('button', { type: 'submit' }, t('cash.submit'));
  const direction = h('p', { class: 'hint wide', id: 'cash-direction', 'aria-live': 'polite' });
  const result = h('p', { class: 'notice ok wide', id: 'cash-book-result', role: 'status', hidden: true });
  const form = h('form', { class: 'panel', id: 'cash-book', novalidate: true, 'aria-labelledby': 'cash-book-heading' },
    registerSlot,
    field({ name: 'kind', label: t('cash.kind'), type: 'select', required: true, value: 'opening_float',
      options: KINDS.map((k) => [k.name, kindLabel(k.name)]) }),
    field({ name: 'amount', label: t('cash.amount'), required: true, attrs: { inputmode: 'decimal', autocomplete: 'off' } }),
    direction,
    field({ name: 'reason', label: t('cash.reason'), attrs: { maxlength: 200, autocomplete: 'off' } }),
    field({ name: 'voucher_no', label: t('cash.voucher'), hint: t('cash.voucher_hint'), attrs: { maxlength: 50, autocomplete: 'off' } }),
    h('p', { class: 'form-error', role: 'alert' }),
    h('div', { class: 'buttons' }, submit), result);

  // The kind decides the sign and what else is required.
  function kindChanged() {
    const k = KINDS.find((x) => x.name === form.elements.kind.value) || KINDS[0];
    direction.textContent = k.sign > 0 ? t('cash.in') : t('cash.out');
    mark('reason', k.reason, k.name === 'wage' ? 'cash.reason_wage' : k.name === 'expense' ? 'cash.reason_expense' : 'cash.reason');
    mark('voucher_no', k.voucher, 'cash.voucher');
  }
  function mark(name, required, labelKey) {
    const label = form.querySelector(`[data-field=${name}] label`);
    clear(label, t(labelKey), required ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : null);
    form.elements[name].required = !!required;
  }
  form.elements.kind.addEventListener('change', kindChanged);
  kindChanged();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    result.hidden = true;
    const el = form.elements;
    const cents = euroCents(el.amount.value);
    if (!(cents > 0)) {
      showError(form, new ApiError(422, { errors: [{ field: 'amount', message: t('cash.amount_bad') }] }));
      return;
    }
    const body = { client_serial: registerOf(form), kind: el.kind.value, amount: cents / 100,
      reason: el.reason.value.trim(), voucher_no: el.voucher_no.value.trim() };
    await withBusy(submit, async () => {
      try {
        const { movement: m } = await api.post('/api/cash/movements', body);
        result.textContent = `${t('cash.booked', { no: m.number, register: m.client_serial, kind: kindLabel(m.kind), amount: fmtSigned(m.amount) })} ${signedText(m)}`;
        result.className = `notice wide ${m.receipt_without_tse ? 'warn' : 'ok'}`;
        result.hidden = false;
        for (const n of ['amount', 'reason', 'voucher_no']) el[n].value = '';
        await onBooked(m);
      } catch (err) {
        showError(form, err);
      }
    });
  });

  const card = h('section', { class: 'card', id: 'cash-booking', 'aria-labelledby': 'cash-book-heading' },
    h('h2', { id: 'cash-book-heading' }, t('cash.book')), form);
  return { card, setRegisters: (serials) => clear(registerSlot, registerField(serials, { keep: registerOf(form), other: true })) };
}
