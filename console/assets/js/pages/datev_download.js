// The DATEV file of a month, for the adviser to import: a month and a
// download button. The fiscal page's DATEV card (with the settings) and
// the cash page show it. API: docs/API.md section 5; the batch:
// docs/FISCAL.md "The DATEV batch".
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, field, withBusy, showError, clearErrors, download } from '../ui.js';

addStrings({
  de: { 'datev.month': 'Monat', 'datev.download': 'DATEV-Datei herunterladen' },
  en: { 'datev.month': 'Month', 'datev.download': 'Download DATEV file' },
});

// datevDownloadForm is the form (with id) for the month of today; a
// refusal (numbers or accounts missing) is said in it.
export function datevDownloadForm({ id, today }) {
  const downloadButton = h('button', { type: 'submit' }, t('datev.download'));
  const form = h('form', { class: 'panel export', id, novalidate: true },
    field({ name: 'month', label: t('datev.month'), type: 'month', value: today.slice(0, 7), required: true }),
    h('p', { class: 'form-error', role: 'alert' }),
    h('div', { class: 'buttons' }, downloadButton));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    await withBusy(downloadButton, async () => {
      try {
        await download(`/api/fiscal/datev${api.query({ month: form.elements.month.value })}`);
      } catch (err) {
        showError(form, err);
      }
    });
  });
  return form;
}
