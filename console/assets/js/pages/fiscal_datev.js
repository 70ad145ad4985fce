// The fiscal page's DATEV card: the adviser's consultant and client
// numbers, the chart of accounts (SKR03 or SKR04), the account mapping,
// and the month's booking batch for the adviser to import
// (datev_download.js). Admins only.
// API: docs/API.md section 5; the batch: docs/FISCAL.md "The DATEV batch".
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, field, withBusy, showError, clearErrors, toast, clear, errorLine } from '../ui.js';
import { datevDownloadForm } from './datev_download.js';

addStrings({
  de: {
    'datev.title': 'DATEV-Export für die Steuerberatung',
    'datev.hint': 'Eine Buchungsdatei (DATEV-Format, Buchungsstapel) mit den Tageseinnahmen eines Monats je Steuersatz und Zahlart und den Ein- und Auszahlungen der Kasse, die Ihre Steuerberatung unverändert einliest. Nur abgeschlossene Tage sind enthalten.',
    'datev.consultant': 'Beraternummer',
    'datev.client': 'Mandantennummer',
    'datev.chart': 'Kontenrahmen',
    'datev.length': 'Länge der Sachkonten',
    'datev.accounts': 'Konten',
    'datev.accounts_hint': 'Beim Wechsel des Kontenrahmens werden dessen Standardkonten eingesetzt; Ihre Steuerberatung prüft sie. Ein Monat mit einem Betrag für ein leeres Konto wird nicht exportiert. Geld zur Bank oder aus dem Tresor läuft über das Geldtransitkonto, das Bankkonto wird nicht bebucht. Für Kassendifferenzen gibt es keinen Vorschlag: Das Konto legt Ihre Steuerberatung fest.',
    'datev.save': 'Einstellungen speichern',
    'datev.saved': 'DATEV-Einstellungen gespeichert.',
    'datev.acc.cash': 'Kasse',
    'datev.acc.transit': 'Geldtransit (Tageseinnahmen, Bank, Tresor)',
    'datev.acc.non_cash': 'Kartenzahlungen',
    'datev.acc.revenue_normal': 'Erlöse 19 %',
    'datev.acc.revenue_reduced': 'Erlöse 7 %',
    'datev.acc.revenue_special_1': 'Erlöse 10,7 %',
    'datev.acc.revenue_special_2': 'Erlöse 5,5 %',
    'datev.acc.revenue_null': 'Erlöse ohne Umsatzsteuer',
    'datev.acc.tips': 'Trinkgeld für das Personal',
    'datev.acc.vouchers': 'Mehrzweckgutscheine',
    'datev.acc.bank': 'Bank',
    'datev.acc.private_deposit': 'Privateinlagen',
    'datev.acc.private_withdrawal': 'Privatentnahmen',
    'datev.acc.wages': 'Lohnzahlungen aus der Kasse (Lohn- und Gehaltsverrechnung)',
    'datev.acc.expenses': 'Ausgaben aus der Kasse (sonstige Aufwendungen)',
    'datev.acc.cash_difference': 'Kassendifferenzen (Fehlbetrag und Überschuss)',
  },
  en: {
    'datev.title': 'DATEV export for the tax adviser',
    'datev.hint': 'A booking file (DATEV format, booking batch) of a month\'s daily takings per VAT rate and payment type and the till\'s cash in and out, which your tax adviser imports as it is. Only closed days are in it.',
    'datev.consultant': 'Consultant number',
    'datev.client': 'Client number',
    'datev.chart': 'Chart of accounts',
    'datev.length': 'Length of the ledger accounts',
    'datev.accounts': 'Accounts',
    'datev.accounts_hint': 'Changing the chart of accounts fills in its standard accounts; your tax adviser checks them. A month with an amount for an empty account is not exported. Money to the bank or from the safe passes the transit account; the bank account is not booked. Cash differences have no default: your tax adviser chooses their account.',
    'datev.save': 'Save settings',
    'datev.saved': 'DATEV settings saved.',
    'datev.acc.cash': 'Cash',
    'datev.acc.transit': 'Money in transit (daily takings, bank, safe)',
    'datev.acc.non_cash': 'Card payments',
    'datev.acc.revenue_normal': 'Revenue 19 %',
    'datev.acc.revenue_reduced': 'Revenue 7 %',
    'datev.acc.revenue_special_1': 'Revenue 10.7 %',
    'datev.acc.revenue_special_2': 'Revenue 5.5 %',
    'datev.acc.revenue_null': 'Revenue without VAT',
    'datev.acc.tips': 'Tips for the staff',
    'datev.acc.vouchers': 'Multi-purpose vouchers',
    'datev.acc.bank': 'Bank',
    'datev.acc.private_deposit': 'Owner\'s deposits',
    'datev.acc.private_withdrawal': 'Owner\'s withdrawals',
    'datev.acc.wages': 'Wages paid from the till (payroll clearing)',
    'datev.acc.expenses': 'Expenses paid from the till (other operating expenses)',
    'datev.acc.cash_difference': 'Cash differences (shortage and surplus)',
  },
});

// datevSection is the card; load fills it from the settings.
export function datevSection({ today }) {
  const settingsForm = h('form', { class: 'panel', id: 'datev-settings', novalidate: true });
  const saveButton = h('button', { type: 'submit' }, t('datev.save'));
  const monthForm = datevDownloadForm({ id: 'datev-download', today });
  let accounts = [];

  function fill(d) {
    accounts = d.accounts;
    const num = (v) => (v == null ? '' : String(v));
    clear(settingsForm,
      field({ name: 'consultant_number', label: t('datev.consultant'), type: 'text', value: num(d.consultant_number), attrs: { inputmode: 'numeric' } }),
      field({ name: 'client_number', label: t('datev.client'), type: 'text', value: num(d.client_number), attrs: { inputmode: 'numeric' } }),
      field({ name: 'chart', label: t('datev.chart'), type: 'select', value: d.chart, options: [['SKR03', 'SKR 03'], ['SKR04', 'SKR 04']] }),
      field({ name: 'account_length', label: t('datev.length'), type: 'select', value: d.account_length,
        options: [4, 5, 6, 7, 8].map((n) => [n, String(n)]) }),
      h('fieldset', { class: 'accounts wide', id: 'datev-accounts' }, h('legend', {}, t('datev.accounts')),
        h('p', { class: 'muted wide' }, t('datev.accounts_hint')),
        ...d.accounts.map((a) => field({ name: `accounts.${a.key}`, label: t(`datev.acc.${a.key}`), type: 'text', value: a.account,
          required: a.required, attrs: { inputmode: 'numeric' } }))),
      h('p', { class: 'form-error', role: 'alert' }),
      h('div', { class: 'buttons' }, saveButton));
    settingsForm.elements.chart.addEventListener('change', () => {
      const chart = settingsForm.elements.chart.value.toLowerCase();
      for (const a of accounts) settingsForm.elements[`accounts.${a.key}`].value = a[chart];
    });
  }

  settingsForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(settingsForm);
    const el = settingsForm.elements;
    const num = (v) => (v.trim() === '' ? null : (/^\d+$/.test(v.trim()) ? Number(v.trim()) : -1));
    const body = { consultant_number: num(el.consultant_number.value), client_number: num(el.client_number.value),
      chart: el.chart.value, account_length: Number(el.account_length.value), accounts: {} };
    for (const a of accounts) body.accounts[a.key] = el[`accounts.${a.key}`].value.trim();
    await withBusy(saveButton, async () => {
      try {
        const { datev } = await api.put('/api/fiscal/datev/accounts', body);
        fill(datev);
        toast(t('datev.saved'));
      } catch (err) {
        showError(settingsForm, err);
      }
    });
  });

  const card = h('section', { class: 'card', id: 'fiscal-datev', 'aria-labelledby': 'datev-heading' },
    h('h2', { id: 'datev-heading' }, t('datev.title')), h('p', { class: 'muted' }, t('datev.hint')), settingsForm, monthForm);

  async function load() {
    try {
      const { datev } = await api.get('/api/fiscal/datev/accounts');
      fill(datev);
    } catch (err) {
      clear(settingsForm, errorLine(err));
    }
  }
  return { card, load };
}
