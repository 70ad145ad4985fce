// The fiscal page's DSFinV-K export: a ZIP of the closings of a range of
// business days for the tax office's audit software. API: docs/API.md
// section 5; the format: docs/FISCAL.md.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, field, withBusy, showError, clearErrors, download } from '../ui.js';

addStrings({
  de: {
    'fiscal.dsfinvk': 'DSFinV-K-Export',
    'fiscal.dsfinvk_hint': 'Eine ZIP-Datei mit den Abschlüssen, deren Geschäftstag im Zeitraum liegt, für die Prüfsoftware des Finanzamts. Nur abgeschlossene Tage sind enthalten.',
    'fiscal.download_zip': 'ZIP herunterladen',
  },
  en: {
    'fiscal.dsfinvk': 'DSFinV-K export',
    'fiscal.dsfinvk_hint': 'A ZIP file with the closings whose business day lies in the range, for the tax office\'s audit software. Only closed days are in it.',
    'fiscal.download_zip': 'Download ZIP',
  },
});

// dsfinvkSection is the export's card.
export function dsfinvkSection({ today, monthStart }) {
  const zipButton = h('button', { type: 'submit' }, t('fiscal.download_zip'));
  const dsfinvkForm = h('form', { class: 'panel export', id: 'dsfinvk-form', novalidate: true, 'aria-labelledby': 'dsfinvk-heading' },
    field({ name: 'from', label: t('common.from'), type: 'date', value: monthStart, required: true }),
    field({ name: 'to', label: t('common.to'), type: 'date', value: today, required: true }),
    h('p', { class: 'form-error', role: 'alert' }),
    h('div', { class: 'buttons' }, zipButton));
  dsfinvkForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(dsfinvkForm);
    const q = api.query({ from: dsfinvkForm.elements.from.value, to: dsfinvkForm.elements.to.value });
    await withBusy(zipButton, async () => {
      try {
        await download(`/api/fiscal/dsfinvk${q}`);
      } catch (err) {
        showError(dsfinvkForm, err);
      }
    });
  });
  const card = h('section', { class: 'card', id: 'fiscal-dsfinvk', 'aria-labelledby': 'dsfinvk-heading' },
    h('h2', { id: 'dsfinvk-heading' }, t('fiscal.dsfinvk')), h('p', { class: 'muted' }, t('fiscal.dsfinvk_hint')), dsfinvkForm);
  return { card };
}
