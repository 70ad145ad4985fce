// Reversing a cash movement: a movement is never changed; an admin books
// its counter-entry (Gegenbuchung) with a reason, and both stay.
// API: POST /api/cash/movements/:id/reverse.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { ApiError } from '../api.js';
import { h, field, withBusy, showError, clearErrors, toast } from '../ui.js';
import { kindLabel, fmtSigned } from './cash_words.js';
import { signedText } from './cash_booking.js';

addStrings({
  de: {
    'cash.reverse': 'Stornieren', 'cash.reverse_label': 'Buchung Nr. {no} stornieren',
    'cash.reverse_title': 'Buchung Nr. {no} von {register} stornieren',
    'cash.reverse_hint': 'Die Buchung „{kind}“ über {amount} bleibt stehen; es wird eine Gegenbuchung über {counter} gebucht, mit eigenem Beleg.',
    'cash.reverse_reason': 'Grund der Stornierung',
    'cash.reversed_msg': 'Gegenbuchung Nr. {no} gebucht.',
    'cash.reverse_conflict': 'Eine Gegenbuchung oder eine Kassendifferenz aus einem Kassensturz kann nicht storniert werden. Eine falsche Zählung wird durch neues Zählen berichtigt.',
    'cash.reverse_twice': 'Diese Buchung wurde schon storniert. Eine Buchung kann nur einmal storniert werden.',
  },
  en: {
    'cash.reverse': 'Reverse', 'cash.reverse_label': 'Reverse entry no. {no}',
    'cash.reverse_title': 'Reverse entry no. {no} of {register}',
    'cash.reverse_hint': 'The entry “{kind}” of {amount} stays; a counter-entry of {counter} is booked, with its own receipt.',
    'cash.reverse_reason': 'Reason for the reversal',
    'cash.reversed_msg': 'Counter-entry no. {no} booked.',
    'cash.reverse_conflict': 'A counter-entry or a cash count\'s difference cannot be reversed. A wrong count is corrected by counting again.',
    'cash.reverse_twice': 'This entry has already been reversed. An entry can be reversed only once.',
  },
});

// reverseDialog asks for the reason and books the counter-entry of m;
// done runs after it was booked.
export function reverseDialog(m, done) {
  const submit = h('button', { type: 'submit', class: 'danger' }, t('cash.reverse'));
  const form = h('form', { class: 'panel', novalidate: true },
    h('p', { class: 'wide' }, t('cash.reverse_hint', { kind: kindLabel(m.kind), amount: fmtSigned(m.amount), counter: fmtSigned(-Number(m.amount)) })),
    field({ name: 'reason', label: t('cash.reverse_reason'), required: true, attrs: { maxlength: 200, autocomplete: 'off' } }),
    h('p', { class: 'form-error', role: 'alert' }),
    h('div', { class: 'buttons' }, submit, h('button', { type: 'button', class: 'secondary', onclick: () => dlg.close() }, t('common.cancel'))));
  const dlg = h('dialog', { class: 'reverse-dialog', 'aria-labelledby': 'reverse-title' },
    h('h2', { id: 'reverse-title' }, t('cash.reverse_title', { no: m.number, register: m.client_serial })), form);
  dlg.addEventListener('close', () => dlg.remove());
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    const reason = form.elements.reason.value.trim();
    if (!reason) {
      showError(form, new ApiError(422, { errors: [{ field: 'reason', code: 'required' }] }));
      return;
    }
    await withBusy(submit, async () => {
      try {
        const { movement } = await api.post(`/api/cash/movements/${encodeURIComponent(m.id)}/reverse`, { reason });
        toast(`${t('cash.reversed_msg', { no: movement.number })} ${signedText(movement)}`, movement.receipt_without_tse ? 'warn' : 'ok');
        dlg.close();
        await done();
      } catch (err) {
        // The two refusals of a reversal, said for a movement (the
        // general texts speak of receipts and of editing at once).
        if (err.code === 'conflict') form.querySelector('.form-error').textContent = t('cash.reverse_conflict');
        else if (err.code === 'already_cancelled') form.querySelector('.form-error').textContent = t('cash.reverse_twice');
        else showError(form, err);
      }
    });
  });
  document.body.append(dlg);
  dlg.showModal();
  form.elements.reason.focus();
}
