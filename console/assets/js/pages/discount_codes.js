// The codes of one discount (docs/API.md, "Discount codes"): make a
// batch (how many, uses per code, once per guest), the codes with their
// uses, the CSV file and the printable list. The discounts page opens it
// below its list with the row's "Codes" button.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, values, showError, clearErrors, withBusy, table, toast, download, openPrintPage, errorText } from '../ui.js';
import { fmtDateTime } from '../format.js';

addStrings({
  de: {
    'codes.title': 'Codes: {name}',
    'codes.intro': 'Jeder Code ist ein eigener Gutschein: Die Kasse sendet ihn beim Einlösen mit. Groß- und Kleinschreibung spielt keine Rolle; 0, O, 1, I und L kommen nicht vor.',
    'codes.required': 'Dieser Rabatt ist nur mit einem Code einlösbar.',
    'codes.optional': 'Dieser Rabatt ist auch ohne Code einlösbar. Zum Einschränken unter „Bearbeiten“ „Nur mit Code einlösbar“ einschalten.',
    'codes.count': 'Anzahl Codes', 'codes.count_hint': '1 bis 1000 Codes auf einmal.',
    'codes.uses': 'Einlösungen je Code', 'codes.uses_hint': '1: jeder Code gilt einmal.',
    'codes.once_per_guest': 'Je Gast nur einmal', 'codes.once_per_guest_hint': 'Die Kasse nennt den Gast, z. B. mit der Nummer seiner Kundenkarte.',
    'codes.make': 'Codes erzeugen', 'codes.made': '{count} Codes wurden erzeugt.',
    'codes.csv': 'Als CSV herunterladen', 'codes.print': 'Liste drucken', 'codes.print_blocked': 'Die Liste öffnen (der Browser hat das neue Fenster blockiert)',
    'codes.list': 'Codes', 'codes.none': 'Dieser Rabatt hat noch keine Codes.',
    'codes.col.code': 'Code', 'codes.col.used': 'Eingelöst', 'codes.col.guest': 'Je Gast einmal', 'codes.col.last': 'Zuletzt eingelöst', 'codes.col.batch': 'Erzeugt am',
    'codes.used_of': '{uses} von {max}', 'codes.summary': '{count} Codes, davon eingelöst: {used}',
    'codes.bad_integer': 'Bitte eine ganze Zahl eingeben.',
  },
  en: {
    'codes.title': 'Codes: {name}',
    'codes.intro': 'Each code is a voucher of its own: the till sends it with the redemption. Case does not matter; 0, O, 1, I and L do not occur.',
    'codes.required': 'This discount is redeemed with a code only.',
    'codes.optional': 'This discount is also redeemed without a code. To restrict it, switch on “Redeemed with a code only” under “Edit”.',
    'codes.count': 'Number of codes', 'codes.count_hint': '1 to 1000 codes at once.',
    'codes.uses': 'Redemptions per code', 'codes.uses_hint': '1: each code is valid once.',
    'codes.once_per_guest': 'Once per guest', 'codes.once_per_guest_hint': 'The till names the guest, e.g. by their customer card\'s number.',
    'codes.make': 'Make codes', 'codes.made': '{count} codes were made.',
    'codes.csv': 'Download as CSV', 'codes.print': 'Print list', 'codes.print_blocked': 'Open the list (the browser blocked the new window)',
    'codes.list': 'Codes', 'codes.none': 'This discount has no codes yet.',
    'codes.col.code': 'Code', 'codes.col.used': 'Used', 'codes.col.guest': 'Once per guest', 'codes.col.last': 'Last used', 'codes.col.batch': 'Made on',
    'codes.used_of': '{uses} of {max}', 'codes.summary': '{count} codes, redeemed: {used}',
    'codes.bad_integer': 'Please enter a whole number.',
  },
});

// codesPanel fills container with the codes of discount d; onClose runs
// when the admin closes it.
export async function codesPanel(container, d, onClose) {
  const base = `/api/discounts/${d.id}`;
  const listBox = h('div', { id: 'codes-list' });
  const summary = h('p', { class: 'muted', id: 'codes-summary' });
  const fallback = h('p', { hidden: true });
  const submit = h('button', { type: 'submit' }, t('codes.make'));
  const form = h('form', { class: 'panel', id: 'codes-form', novalidate: true },
    field({ name: 'count', label: t('codes.count'), required: true, value: '10', hint: t('codes.count_hint'), attrs: { inputmode: 'numeric', autocomplete: 'off' } }),
    field({ name: 'uses_per_code', label: t('codes.uses'), required: true, value: '1', hint: t('codes.uses_hint'), attrs: { inputmode: 'numeric', autocomplete: 'off' } }),
    field({ name: 'once_per_guest', label: t('codes.once_per_guest'), type: 'checkbox', value: false, hint: t('codes.once_per_guest_hint') }),
    h('p', { class: 'form-error', role: 'alert' }),
    h('div', { class: 'buttons' }, submit));
  form.querySelector('[data-field="once_per_guest"]').classList.add('wide');
  const csvButton = h('button', { type: 'button', class: 'secondary', id: 'codes-csv' }, t('codes.csv'));
  csvButton.addEventListener('click', () => withBusy(csvButton, async () => {
    try { await download(`${base}/codes.csv`); } catch (err) { toast(errorText(err), 'error'); }
  }));
  const printButton = h('button', { type: 'button', class: 'secondary', id: 'codes-print' }, t('codes.print'));
  printButton.addEventListener('click', () => openPrintPage(`${base}/codes/print`, { button: printButton, fallback, blockedText: t('codes.print_blocked') }));
  const closeButton = h('button', { type: 'button', class: 'secondary', id: 'codes-close', onclick: () => { clear(container); onClose(); } }, t('common.close'));

  async function load() {
    let codes;
    try {
      codes = (await api.get(`${base}/codes`)).codes;
    } catch (err) {
      clear(listBox, h('p', { class: 'form-error', role: 'alert' }, errorText(err)));
      return;
    }
    summary.textContent = t('codes.summary', { count: codes.length, used: codes.reduce((n, c) => n + c.uses, 0) });
    csvButton.disabled = printButton.disabled = !codes.length;
    clear(listBox, table(codeColumns(), codes, { caption: t('codes.list'), empty: t('codes.none'), rowAttrs: (c) => ({ dataset: { code: c.code } }) }));
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    const v = values(form);
    const errors = [];
    const int = (name) => {
      if (/^\s*\d{1,4}\s*$/.test(v[name])) return Number(v[name]);
      errors.push({ field: name, message: t('codes.bad_integer') });
      return null;
    };
    const body = { count: int('count'), uses_per_code: int('uses_per_code'), once_per_guest: !!v.once_per_guest };
    if (errors.length) {
      showError(form, new api.ApiError(422, { detail: t('error.fields'), errors }));
      return;
    }
    await withBusy(submit, async () => {
      try {
        const res = await api.post(`${base}/code-batches`, body);
        toast(t('codes.made', { count: res.batch.count }));
      } catch (err) {
        showError(form, err);
        return;
      }
      await load();
    });
  });

  clear(container, h('section', { class: 'card', id: 'discount-codes' },
    h('h2', {}, t('codes.title', { name: d.name })),
    h('p', { class: 'hint' }, t('codes.intro')),
    h('p', { class: d.requires_code ? 'notice' : 'hint', id: 'codes-requirement' }, t(d.requires_code ? 'codes.required' : 'codes.optional')),
    form,
    h('div', { class: 'buttons' }, csvButton, printButton, closeButton),
    fallback, summary, listBox));
  await load();
  container.scrollIntoView({ block: 'start' });
}

function codeColumns() {
  return [
    { label: t('codes.col.code'), cell: (c) => h('span', { class: 'mono code-text' }, c.code) },
    { label: t('codes.col.used'), class: 'num', cell: (c) => t('codes.used_of', { uses: c.uses, max: c.max_uses }) },
    { label: t('codes.col.guest'), cell: (c) => t(c.once_per_guest ? 'common.yes' : 'common.no') },
    { label: t('codes.col.last'), cell: (c) => (c.last_used_at ? fmtDateTime(c.last_used_at) : '–') },
    { label: t('codes.col.batch'), cell: (c) => fmtDateTime(c.batch_created_at) },
  ];
}
