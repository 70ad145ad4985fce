// The fiscal page's daily closings: the closings of a range of days, and
// taking today's closing of a register when the till could not.
// API: docs/API.md section 5; what a closing is: docs/FISCAL.md.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, badge, table, field, withBusy, showError, clearErrors, toast, confirmDialog, openPrintPage } from '../ui.js';
import { fmtDateTime, fmtDay, fmtMoney, addDays } from '../format.js';
import { payment } from '../tse_words.js';

addStrings({
  de: {
    'fiscal.no_registers_sold': 'Noch keine Kasse hat verkauft.', 'fiscal.register_last_sale': '{register} (letzter Verkauf {day})',
    'fiscal.register_decommissioned': '{register} (außer Betrieb)',
    'fiscal.closings': 'Tagesabschlüsse', 'fiscal.register': 'Kasse', 'fiscal.business_day': 'Geschäftstag', 'fiscal.z_nr': 'Z-Nr.',
    'fiscal.tx_count': 'Vorgänge', 'fiscal.total': 'Umsatz', 'fiscal.cash': 'Bar', 'fiscal.per_rate': 'Je Steuersatz',
    'fiscal.payments': 'Zahlungen', 'fiscal.cash_unknown': 'nicht bekannt: einer Zahlung in Fremdwährung fehlt der Euro-Wert',
    'fiscal.taken': 'Erstellt', 'fiscal.automatic': 'automatisch', 'fiscal.no_closings': 'Keine Abschlüsse in diesem Zeitraum.',
    'fiscal.take_closing': 'Heutigen Abschluss erstellen',
    'fiscal.take_hint': 'Normalerweise erstellt die Kasse den Abschluss am Ende des Tages, sonst posbox am nächsten Morgen. Hier nur, wenn die Kasse es nicht konnte: Der Abschluss umfasst alle noch nicht abgeschlossenen Verkäufe dieser Kasse bis jetzt und kann nicht geändert werden.',
    'fiscal.take': 'Abschluss erstellen', 'fiscal.closing_register': 'Kasse',
    'fiscal.take_confirm': 'Tagesabschluss für {register} jetzt erstellen? Er kann nicht geändert werden.',
    'fiscal.taken_msg': 'Abschluss Z-Nr. {z} für {register} erstellt.',
    'fiscal.closing_empty': 'Für {register} gibt es nichts abzuschließen: Jeder Verkauf dieser Kasse steht schon in einem Abschluss.',
    'fiscal.z_report': 'Z-Bon', 'fiscal.z_print_a4': 'Z-Bon drucken', 'fiscal.z_print_receipt': 'Bon 80 mm',
    'fiscal.z_print_a4_label': 'Z-Bon Nr. {z} von {register} drucken (A4)',
    'fiscal.z_print_receipt_label': 'Z-Bon Nr. {z} von {register} als 80-mm-Bon drucken',
    'fiscal.z_print_blocked': 'Das Fenster wurde blockiert: Z-Bon hier öffnen.',
  },
  en: {
    'fiscal.no_registers_sold': 'No register has sold yet.', 'fiscal.register_last_sale': '{register} (last sale {day})',
    'fiscal.register_decommissioned': '{register} (out of service)',
    'fiscal.closings': 'Daily closings', 'fiscal.register': 'Register', 'fiscal.business_day': 'Business day', 'fiscal.z_nr': 'Z no.',
    'fiscal.tx_count': 'Transactions', 'fiscal.total': 'Total', 'fiscal.cash': 'Cash', 'fiscal.per_rate': 'Per VAT rate',
    'fiscal.payments': 'Payments', 'fiscal.cash_unknown': 'not known: a foreign-currency payment lacks its euro value',
    'fiscal.taken': 'Taken', 'fiscal.automatic': 'automatic', 'fiscal.no_closings': 'No closings in this range.',
    'fiscal.take_closing': 'Take today\'s closing',
    'fiscal.take_hint': 'Normally the till takes the closing at the end of the day, otherwise posbox does the next morning. Use this only when the till could not: the closing covers every sale of this register not yet closed, up to now, and cannot be changed.',
    'fiscal.take': 'Take closing', 'fiscal.closing_register': 'Register',
    'fiscal.take_confirm': 'Take the daily closing of {register} now? It cannot be changed.',
    'fiscal.taken_msg': 'Closing Z no. {z} of {register} taken.',
    'fiscal.closing_empty': 'There is nothing to close for {register}: every sale of this register is already in a closing.',
    'fiscal.z_report': 'Z report', 'fiscal.z_print_a4': 'Print Z report', 'fiscal.z_print_receipt': '80 mm receipt',
    'fiscal.z_print_a4_label': 'Print Z report no. {z} of {register} (A4)',
    'fiscal.z_print_receipt_label': 'Print Z report no. {z} of {register} as an 80 mm receipt',
    'fiscal.z_print_blocked': 'The window was blocked: open the Z report here.',
  },
});

const VAT = { NORMAL: '19 %', REDUCED_1: '7 %', SPECIAL_RATE_1: '10,7 %', SPECIAL_RATE_2: '5,5 %', NULL: '0 %' };

// closingsSection is the closings' card; load fetches the closings of
// the chosen range, setRegisters offers the registers posbox knows (the
// registration's list) for a closing.
export function closingsSection({ today, readOnly = false }) {
  const closingList = h('div', { id: 'closing-list' });
  // A Z-report opens in a new window (ui.openPrintPage); a blocked one
  // leaves a link here.
  const printFallback = h('p', { id: 'closing-print-fallback', hidden: true });
  let waiting = null; // a report's window while its page is fetched
  function printButtons(c) {
    const open = (layout, label, text) => {
      const button = h('button', { type: 'button', class: 'secondary small', dataset: { layout }, 'aria-label': t(label, { z: c.z_nr, register: c.client_serial }) }, t(text));
      button.addEventListener('click', () => openPrintPage(`/api/tse/closings/${encodeURIComponent(c.id)}/report${layout === 'a4' ? '' : '?layout=receipt'}`,
        { button, fallback: printFallback, blockedText: t('fiscal.z_print_blocked'), track: (w) => { waiting = w; } }));
      return button;
    };
    return h('div', { class: 'buttons z-print' }, open('a4', 'fiscal.z_print_a4_label', 'fiscal.z_print_a4'),
      open('receipt', 'fiscal.z_print_receipt_label', 'fiscal.z_print_receipt'));
  }
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
      const q = api.query({ from: closingRange.elements.from.value, to: closingRange.elements.to.value });
      const list = (await api.get(`/api/tse/closings${q}`)).closings;
      clear(closingList, table([
        { label: t('fiscal.register'), cell: (c) => c.client_serial },
        { label: t('fiscal.business_day'), cell: (c) => fmtDay(c.business_date) },
        { label: t('fiscal.z_nr'), class: 'num', cell: (c) => String(c.z_nr) },
        { label: t('fiscal.tx_count'), class: 'num', cell: (c) => String(c.transactions) },
        { label: t('fiscal.total'), class: 'num', cell: (c) => fmtMoney(c.total) },
        // Cash is in euro, foreign cash at its euro value; the payments
        // show each currency in its own and in euro.
        { label: t('fiscal.cash'), class: 'num', cell: (c) => c.cash === null ? h('span', { class: 'muted small-text' }, t('fiscal.cash_unknown')) : fmtMoney(c.cash) },
        { label: t('fiscal.payments'), cell: (c) => h('ul', { class: 'plain small-text' },
          c.amounts_per_payment_type.map((p) => h('li', {}, payment(p)))) },
        { label: t('fiscal.per_rate'), cell: (c) => h('ul', { class: 'plain small-text' },
          c.amounts_per_vat_rate.map((v) => h('li', {}, `${VAT[v.vat_rate] || v.vat_rate}: ${fmtMoney(v.amount)}`))) },
        { label: t('fiscal.taken'), cell: (c) => [fmtDateTime(c.created_at), c.automatic ? [' ', badge(t('fiscal.automatic'))] : null] },
        { label: t('fiscal.z_report'), cell: printButtons },
      ], list, { caption: t('fiscal.closings'), empty: t('fiscal.no_closings'), rowAttrs: (c) => ({ dataset: { id: c.id, register: c.client_serial, z: c.z_nr } }) }));
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
    h('h2', { id: 'closings-heading' }, t('fiscal.closings')), closingRange, closingList, printFallback,
    // Taking a closing records one: not for the auditor's read-only view.
    readOnly ? null : [h('h3', { id: 'take-closing-heading' }, t('fiscal.take_closing')), h('p', { class: 'muted' }, t('fiscal.take_hint')), takeForm]);
  return { card, load: loadClosings, setRegisters: setRegisterChoice, stop: () => { if (waiting) waiting.close(); } };
}
