// A list of daily closings with their Z-reports ("Z-Bon drucken" on A4,
// "Bon 80 mm" for a receipt printer): the fiscal page's closings card and
// the cash page's closings of the day show it.
// API: docs/API.md section 5; what a closing is: docs/FISCAL.md.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, badge, table, openPrintPage } from '../ui.js';
import { fmtDateTime, fmtDay, fmtMoney } from '../format.js';
import { payment } from '../tse_words.js';

addStrings({
  de: {
    'fiscal.closings': 'Tagesabschlüsse', 'fiscal.register': 'Kasse', 'fiscal.business_day': 'Geschäftstag', 'fiscal.z_nr': 'Z-Nr.',
    'fiscal.tx_count': 'Vorgänge', 'fiscal.total': 'Alle Belege', 'fiscal.cash': 'Bar', 'fiscal.per_rate': 'Je Steuersatz',
    'fiscal.payments': 'Zahlungen', 'fiscal.cash_unknown': 'nicht bekannt: einer Zahlung in Fremdwährung fehlt der Euro-Wert',
    'fiscal.taken': 'Erstellt', 'fiscal.automatic': 'automatisch', 'fiscal.no_closings': 'Keine Abschlüsse in diesem Zeitraum.',
    'fiscal.z_report': 'Z-Bon', 'fiscal.z_print_a4': 'Z-Bon drucken', 'fiscal.z_print_receipt': 'Bon 80 mm',
    'fiscal.z_print_a4_label': 'Z-Bon Nr. {z} von {register} drucken (A4)',
    'fiscal.z_print_receipt_label': 'Z-Bon Nr. {z} von {register} als 80-mm-Bon drucken',
    'fiscal.z_print_blocked': 'Das Fenster wurde blockiert: Z-Bon hier öffnen.',
  },
  en: {
    'fiscal.closings': 'Daily closings', 'fiscal.register': 'Register', 'fiscal.business_day': 'Business day', 'fiscal.z_nr': 'Z no.',
    'fiscal.tx_count': 'Transactions', 'fiscal.total': 'All receipts', 'fiscal.cash': 'Cash', 'fiscal.per_rate': 'Per VAT rate',
    'fiscal.payments': 'Payments', 'fiscal.cash_unknown': 'not known: a foreign-currency payment lacks its euro value',
    'fiscal.taken': 'Taken', 'fiscal.automatic': 'automatic', 'fiscal.no_closings': 'No closings in this range.',
    'fiscal.z_report': 'Z report', 'fiscal.z_print_a4': 'Print Z report', 'fiscal.z_print_receipt': '80 mm receipt',
    'fiscal.z_print_a4_label': 'Print Z report no. {z} of {register} (A4)',
    'fiscal.z_print_receipt_label': 'Print Z report no. {z} of {register} as an 80 mm receipt',
    'fiscal.z_print_blocked': 'The window was blocked: open the Z report here.',
  },
});

const VAT = { NORMAL: '19 %', REDUCED_1: '7 %', SPECIAL_RATE_1: '10,7 %', SPECIAL_RATE_2: '5,5 %', NULL: '0 %' };

// closingsList is the list (list, with id listId) and the link a blocked
// report window leaves (fallback, with id fallbackId); load(from, to)
// fetches the closings of those business days and throws what failed;
// stop closes a report window still waiting for its page.
export function closingsList({ listId, fallbackId, empty = t('fiscal.no_closings') }) {
  const list = h('div', { id: listId });
  // A Z-report opens in a new window (ui.openPrintPage); a blocked one
  // leaves a link here.
  const fallback = h('p', { id: fallbackId, hidden: true });
  let waiting = null; // a report's window while its page is fetched
  function printButtons(c) {
    const open = (layout, label, text) => {
      const button = h('button', { type: 'button', class: 'secondary small', dataset: { layout }, 'aria-label': t(label, { z: c.z_nr, register: c.client_serial }) }, t(text));
      button.addEventListener('click', () => openPrintPage(`/api/tse/closings/${encodeURIComponent(c.id)}/report${layout === 'a4' ? '' : '?layout=receipt'}`,
        { button, fallback, blockedText: t('fiscal.z_print_blocked'), track: (w) => { waiting = w; } }));
      return button;
    };
    return h('div', { class: 'buttons z-print' }, open('a4', 'fiscal.z_print_a4_label', 'fiscal.z_print_a4'),
      open('receipt', 'fiscal.z_print_receipt_label', 'fiscal.z_print_receipt'));
  }

  async function load(from, to) {
    const closings = (await api.get(`/api/tse/closings${api.query({ from, to })}`)).closings;
    clear(list, table([
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
    ], closings, { caption: t('fiscal.closings'), empty, rowAttrs: (c) => ({ dataset: { id: c.id, register: c.client_serial, z: c.z_nr } }) }));
  }
  return { list, fallback, load, stop: () => { if (waiting) waiting.close(); } };
}
