// The TSE archive's declared start: for a TSS that signed before posbox
// archived it (the TSE provider deletes after three months, so its first
// signature counters can never be archived), the admin names the first
// counter to archive from and why. Kept for good, only forward; shown in
// the procedure document. API: docs/API.md, "POST /api/tse/archive-starts".
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, withBusy, showError, clearErrors, toast, confirmDialog } from '../ui.js';
import { fmtDateTime } from '../format.js';

addStrings({
  de: {
    'astart.title': 'Archiv beginnt erst bei einem späteren Signaturzähler',
    'astart.none': 'Das Archiv beginnt beim ersten Signaturzähler der TSE.',
    'astart.current': 'Das Archiv beginnt bei Signaturzähler {first}. Festgelegt von {who} am {time}. Grund: {reason}',
    'astart.earlier': 'Frühere Festlegung: ab Signaturzähler {first}, von {who} am {time}. Grund: {reason}',
    'astart.open': 'Späteren Beginn festlegen',
    'astart.hint': 'Nur nötig, wenn die TSE schon signiert hat, bevor posbox sie archivierte: Der TSE-Anbieter löscht die Daten nach drei Monaten, die ersten Signaturzähler lassen sich dann nie mehr archivieren. Der Grund wird dauerhaft gespeichert und in der Verfahrensdokumentation gezeigt. Der Beginn kann nur nach hinten verschoben werden, nie zurück.',
    'astart.first': 'Erster Signaturzähler, der archiviert wird',
    'astart.reason': 'Grund (für das Finanzamt)',
    'astart.submit': 'Beginn festlegen',
    'astart.confirm': 'Signaturzähler vor {first} werden nicht mehr archiviert. Das lässt sich nicht rückgängig machen. Fortfahren?',
    'astart.done': 'Der Beginn des Archivs ist festgelegt.',
  },
  en: {
    'astart.title': 'Archive starts at a later signature counter',
    'astart.none': 'The archive starts at the TSE\'s first signature counter.',
    'astart.current': 'The archive starts at signature counter {first}. Set by {who} on {time}. Reason: {reason}',
    'astart.earlier': 'Earlier declaration: from signature counter {first}, by {who} on {time}. Reason: {reason}',
    'astart.open': 'Declare a later start',
    'astart.hint': 'Only needed when the TSE signed before posbox archived it: the TSE provider deletes its data after three months, so the first signature counters can never be archived. The reason is kept for good and shown in the procedure document. The start only moves forward, never back.',
    'astart.first': 'First signature counter to archive',
    'astart.reason': 'Reason (for the tax office)',
    'astart.submit': 'Declare the start',
    'astart.confirm': 'Signature counters before {first} will no longer be archived. This cannot be undone. Continue?',
    'astart.done': 'The archive\'s start is declared.',
  },
});

// archiveStartSection shows the declared start and its history and the
// form to declare a later one; onChange reloads the archive's state. The
// tax office's auditor (readOnly) reads the declarations, without the form.
export function archiveStartSection(onChange, { readOnly = false } = {}) {
  const box = h('div', { id: 'archive-start', 'aria-live': 'polite' });
  const button = h('button', { type: 'submit' }, t('astart.submit'));
  const form = h('form', { class: 'panel', id: 'archive-start-form', novalidate: true },
    h('p', { class: 'muted' }, t('astart.hint')),
    field({ name: 'first_signature_counter', label: t('astart.first'), type: 'number', required: true, attrs: { min: 2, step: 1, inputmode: 'numeric' } }),
    field({ name: 'reason', label: t('astart.reason'), type: 'textarea', required: true, attrs: { maxlength: 1000 } }),
    h('p', { class: 'form-error', role: 'alert' }),
    h('div', { class: 'buttons' }, button));
  const details = h('details', { id: 'archive-start-details' }, h('summary', {}, t('astart.open')), form);
  form.addEventListener('submit', (e) => { e.preventDefault(); submit(); });

  const said = (key, s) => t(key, { first: s.first_signature_counter, who: s.set_by_name, time: fmtDateTime(s.set_at), reason: s.reason });

  function show(starts) {
    const last = starts[starts.length - 1];
    clear(box,
      h('p', { id: 'archive-start-current', class: last ? 'notice' : 'muted' }, last ? said('astart.current', last) : t('astart.none')),
      starts.length > 1 ? h('ul', { class: 'plain small-text' }, starts.slice(0, -1).reverse().map((s) => h('li', {}, said('astart.earlier', s)))) : null);
  }

  async function load() {
    try { show((await api.get('/api/tse/archive-starts')).archive_starts); } catch { clear(box); }
  }

  async function submit() {
    clearErrors(form);
    const raw = form.elements.first_signature_counter.value;
    const first = raw === '' ? null : Number(raw);
    if (first !== null && form.elements.reason.value.trim() && !(await confirmDialog(t('astart.confirm', { first }), t('astart.submit')))) return;
    await withBusy(button, async () => {
      try {
        await api.post('/api/tse/archive-starts', { first_signature_counter: first, reason: form.elements.reason.value });
        toast(t('astart.done'));
        form.reset();
        details.open = false;
        await Promise.all([load(), onChange()]);
      } catch (err) { showError(form, err); }
    });
  }

  return { el: h('div', {}, h('h3', {}, t('astart.title')), box, readOnly ? null : details), load };
}
