// The fiscal page's daily closings: the closings of a range of days (the
// list and its Z-reports: closings_list.js), and taking today's closing
// of a register when the till could not.
// API: docs/API.md section 5; what a closing is: docs/FISCAL.md.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, withBusy, showError, clearErrors, toast, confirmDialog } from '../ui.js';
import { fmtDay, addDays } from '../format.js';
import { closingsList } from './closings_list.js';

addStrings({
  de: {
    'fiscal.no_registers_sold': 'Noch keine Kasse hat verkauft.', 'fiscal.register_last_sale': '{register} (letzter Verkauf {day})',
    'fiscal.register_decommissioned': '{register} (außer Betrieb)',
    'fiscal.take_closing': 'Heutigen Abschluss erstellen',
    'fiscal.take_hint': 'Normalerweise erstellt die Kasse den Abschluss am Ende des Tages, sonst posbox am nächsten Morgen. Hier nur, wenn die Kasse es nicht konnte: Der Abschluss umfasst alle noch nicht abgeschlossenen Verkäufe dieser Kasse bis jetzt und kann nicht geändert werden.',
    'fiscal.take': 'Abschluss erstellen', 'fiscal.closing_register': 'Kasse',
    'fiscal.take_confirm': 'Tagesabschluss für {register} jetzt erstellen? Er kann nicht geändert werden.',
    'fiscal.taken_msg': 'Abschluss Z-Nr. {z} für {register} erstellt.',
    'fiscal.closing_empty': 'Für {register} gibt es nichts abzuschließen: Jeder Verkauf dieser Kasse steht schon in einem Abschluss.',
  },
  en: {
    'fiscal.no_registers_sold': 'No register has sold yet.', 'fiscal.register_last_sale': '{register} (last sale {day})',
    'fiscal.register_decommissioned': '{register} (out of service)',
    'fiscal.take_closing': 'Take today\'s closing',
    'fiscal.take_hint': 'Normally the till takes the closing at the end of the day, otherwise posbox does the next morning. Use this only when the till could not: the closing covers every sale of this register not yet closed, up to now, and cannot be changed.',
    'fiscal.take': 'Take closing', 'fiscal.closing_register': 'Register',
    'fiscal.take_confirm': 'Take the daily closing of {register} now? It cannot be changed.',
    'fiscal.taken_msg': 'Closing Z no. {z} of {register} taken.',
    'fiscal.closing_empty': 'There is nothing to close for {register}: every sale of this register is already in a closing.',
  },
});

// closingsSection is the closings' card; load fetches the closings of
// the chosen range, setRegisters offers the registers posbox knows (the
// registration's list) for a closing.
export function closingsSection({ today, readOnly = false }) {
  const closings = closingsList({ listId: 'closing-list', fallbackId: 'closing-print-fallback' });
  const closingRange = h('form', { class: 'toolbar', id: 'closing-range', novalidate: true },
    field({ name: 'from', label: t('common.from'), type: 'date', value: addDays(today, -30), required: true }),
    field({ name: 'to', label: t('common.to'), type: 'date', value: today, required: true }),
    h('p', { class: 'form-error', role: 'alert' }),
    h('button', { type: 'submit' }, t('common.show')));
  closingRange.addEventListener('submit', (e) => { e.preventDefault(); withBusy(e.submitter, loadClosings); });
  const takeButton = h('button', { type: 'submit' }, t('fiscal.take'));
  // The register is chosen from those posbox knows: every one that sold
  // and every one in the master data (GET /api/fiscal/registration).
  const registerSlot = h('div', { class: 'register-slot' });
  const takeForm = h('form', { class: 'panel export', id: 'take-closing', novalidate: true, 'aria-labelledby': 'take-closing-heading' },
    registerSlot,
    h('p', { class: 'form-error', role: 'alert' }),
    h('div', { class: 'buttons' }, takeButton));
  function setRegisterChoice(regs) {
    const keep = takeForm.elements.client_serial && takeForm.elements.client_serial.value;
    const usable = regs.filter((r) => r.first_sale_on || !r.decommissioned_on)
      .sort((a, b) => a.client_serial.localeCompare(b.client_serial));
    const label = (r) => r.decommissioned_on ? t('fiscal.register_decommissioned', { register: r.client_serial })
      : r.last_sale_on ? t('fiscal.register_last_sale', { register: r.client_serial, day: fmtDay(r.last_sale_on, { day: '2-digit', month: '2-digit', year: 'numeric' }) })
        : r.client_serial;
    clear(registerSlot, usable.length
      ? field({ name: 'client_serial', label: t('fiscal.closing_register'), type: 'select', required: true,
        value: usable.some((r) => r.client_serial === keep) ? keep : usable[0].client_serial,
        options: usable.map((r) => [r.client_serial, label(r)]) })
      : h('p', { class: 'empty', id: 'no-registers' }, t('fiscal.no_registers_sold')));
    takeButton.disabled = !usable.length;
  }
  takeForm.addEventListener('submit', (e) => { e.preventDefault(); takeClosing(); });

  async function loadClosings() {
    clearErrors(closingRange);
    try {
      await closings.load(closingRange.elements.from.value, closingRange.elements.to.value);
    } catch (err) {
      showError(closingRange, err);
    }
  }

  async function takeClosing() {
    clearErrors(takeForm);
    const serial = takeForm.elements.client_serial ? takeForm.elements.client_serial.value : '';
    if (serial && !(await confirmDialog(t('fiscal.take_confirm', { register: serial }), t('fiscal.take')))) return;
    await withBusy(takeButton, async () => {
      try {
        const { closing } = await api.post('/api/tse/closings', { client_serial: serial });
        toast(t('fiscal.taken_msg', { z: closing.z_nr, register: closing.client_serial }));
        if (closingRange.elements.to.value < closing.business_date) closingRange.elements.to.value = closing.business_date;
        await loadClosings();
      } catch (err) {
        // Nothing to close is said in the page's language; the API's
        // sentence names the cut-off in UTC.
        if (err.code === 'closing_empty') takeForm.querySelector('.form-error').textContent = t('fiscal.closing_empty', { register: serial });
        else showError(takeForm, err);
      }
    });
  }

  const card = h('section', { class: 'card', id: 'fiscal-closings', 'aria-labelledby': 'closings-heading' },
    h('h2', { id: 'closings-heading' }, t('fiscal.closings')), closingRange, closings.list, closings.fallback,
    // Taking a closing records one: not for the auditor's read-only view.
    readOnly ? null : [h('h3', { id: 'take-closing-heading' }, t('fiscal.take_closing')), h('p', { class: 'muted' }, t('fiscal.take_hint')), takeForm]);
  return { card, load: loadClosings, setRegisters: setRegisterChoice, stop: closings.stop };
}
