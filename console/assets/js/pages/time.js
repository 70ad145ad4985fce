// Time entries: one day's clock-ins and clock-outs of all staff, an
// admin's corrections (close a forgotten entry, correct one, each with a
// reason kept in the entry's history), and a range as a CSV file for the
// accountant. API: GET /api/time-entries?date=, POST
// /api/time-entries/:id/close, PATCH /api/time-entries/:id, GET
// /api/time-entries/export?from=&to=&lang= (docs/API.md, section 3;
// docs/TIMECLOCK.md).
import { t, addStrings, lang } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, values, showError, clearErrors, errorText, withBusy, toast, table, badge } from '../ui.js';
import { fmtDay, fmtTime, fmtNumber, localDate, addDays, instantOfLocal, wallClockOf } from '../format.js';
import { warningsBox } from '../labour.js';

addStrings({
  de: {
    'time.title': 'Arbeitszeiten', 'time.day': 'Tag', 'time.prev': 'Vortag', 'time.next': 'Folgetag',
    'time.today': 'Heute', 'time.entries_of': 'Einträge vom {day}', 'time.person': 'Mitarbeiter',
    'time.in': 'Beginn', 'time.out': 'Ende', 'time.break': 'Pause', 'time.worked': 'Arbeitszeit',
    'time.minutes': '{n} Min.', 'time.hours': '{hours} Std.', 'time.open': 'noch eingestempelt',
    'time.none': 'An diesem Tag hat niemand eingestempelt.',
    'time.total': 'Summe: {hours} Std.', 'time.count': '{n} Einträge', 'time.count_one': '1 Eintrag',
    'time.count_open': 'davon {n} offen (zählt bis jetzt)',
    'time.export': 'CSV-Export', 'time.export_hint': 'Für Excel: Semikolon-getrennt, deutsche Zahlen. Höchstens 366 Tage.',
    'time.download': 'CSV herunterladen', 'time.downloaded': '{file} wurde heruntergeladen.',
    'time.actions': 'Korrektur', 'time.close': 'Schließen', 'time.correct': 'Korrigieren', 'time.corrected': 'korrigiert',
    'time.warnings': '{n} ArbZG-Hinweise', 'time.warning_one': '1 ArbZG-Hinweis',
    'time.close_title': 'Vergessenen Eintrag von {name} schließen', 'time.correct_title': 'Eintrag von {name} korrigieren',
    'time.reason': 'Grund', 'time.reason_hint': 'Bleibt im Verlauf des Eintrags, für immer sichtbar.',
    'time.break_minutes': 'Pause (Minuten)', 'time.save': 'Speichern', 'time.cancel': 'Abbrechen',
    'time.closed_msg': 'Der Eintrag wurde geschlossen.', 'time.corrected_msg': 'Der Eintrag wurde korrigiert.',
  },
  en: {
    'time.title': 'Time entries', 'time.day': 'Day', 'time.prev': 'Previous day', 'time.next': 'Next day',
    'time.today': 'Today', 'time.entries_of': 'Entries of {day}', 'time.person': 'Staff member',
    'time.in': 'Clock-in', 'time.out': 'Clock-out', 'time.break': 'Break', 'time.worked': 'Worked',
    'time.minutes': '{n} min', 'time.hours': '{hours} h', 'time.open': 'still clocked in',
    'time.none': 'Nobody clocked in on this day.',
    'time.total': 'Total: {hours} h', 'time.count': '{n} entries', 'time.count_one': '1 entry',
    'time.count_open': '{n} of them open (counted up to now)',
    'time.export': 'CSV export', 'time.export_hint': 'For Excel: semicolon-separated, German number format. At most 366 days.',
    'time.download': 'Download CSV', 'time.downloaded': '{file} was downloaded.',
    'time.actions': 'Correction', 'time.close': 'Close', 'time.correct': 'Correct', 'time.corrected': 'corrected',
    'time.warnings': '{n} ArbZG notes', 'time.warning_one': '1 ArbZG note',
    'time.close_title': 'Close the forgotten entry of {name}', 'time.correct_title': 'Correct the entry of {name}',
    'time.reason': 'Reason', 'time.reason_hint': 'Kept in the entry\'s history for good.',
    'time.break_minutes': 'Break (minutes)', 'time.save': 'Save', 'time.cancel': 'Cancel',
    'time.closed_msg': 'The entry was closed.', 'time.corrected_msg': 'The entry was corrected.',
  },
});

function validDate(s) {
  return typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && addDays(s, 0) === s ? s : '';
}

export default {
  async render(main) {
    let date = validDate(new URLSearchParams(location.search).get('date')) || localDate();
    let seq = 0;

    const dayField = field({ name: 'date', label: t('time.day'), type: 'date', value: date });
    const dayInput = dayField.querySelector('input');
    dayInput.addEventListener('change', () => { if (validDate(dayInput.value)) setDate(dayInput.value); });
    const heading = h('h2', { id: 'day-heading', 'aria-live': 'polite' });
    const list = h('div', { id: 'entries' });
    const total = h('p', { class: 'time-total', id: 'day-total' });

    // One form for both corrections; shown under the list for one entry.
    let editing = null;
    const editHeading = h('h3', { id: 'correct-heading' });
    const saveButton = h('button', { type: 'submit' }, t('time.save'));
    const editForm = h('form', { class: 'panel', id: 'correct-form', novalidate: true, hidden: true, 'aria-labelledby': 'correct-heading' },
      editHeading,
      field({ name: 'clock_in', label: t('time.in'), type: 'datetime-local' }),
      field({ name: 'clock_out', label: t('time.out'), type: 'datetime-local', required: true }),
      field({ name: 'break_minutes', label: t('time.break_minutes'), type: 'number', attrs: { min: 0, step: 1 } }),
      field({ name: 'reason', label: t('time.reason'), required: true, hint: t('time.reason_hint'), attrs: { maxlength: 500 } }),
      h('p', { class: 'form-error', role: 'alert' }),
      h('div', { class: 'buttons' }, saveButton,
        h('button', { type: 'button', class: 'secondary', onclick: () => { editing = null; editForm.hidden = true; } }, t('time.cancel'))));
    editForm.addEventListener('submit', (e) => { e.preventDefault(); save(); });

    const today = localDate();
    const exportButton = h('button', { type: 'submit' }, t('time.download'));
    const exportForm = h('form', { class: 'panel export', novalidate: true, 'aria-labelledby': 'export-heading' },
      field({ name: 'from', label: t('common.from'), type: 'date', value: `${today.slice(0, 8)}01`, required: true }),
      field({ name: 'to', label: t('common.to'), type: 'date', value: today, required: true }),
      h('p', { class: 'form-error', role: 'alert' }),
      h('div', { class: 'buttons' }, exportButton));
    exportForm.addEventListener('submit', (e) => { e.preventDefault(); download(); });

    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('time.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => load() }, t('common.refresh'))),
      h('section', { class: 'card' },
        h('div', { class: 'toolbar time-day', role: 'group', 'aria-label': t('time.day') },
          dayField,
          h('div', { class: 'buttons' },
            h('button', { type: 'button', class: 'secondary', id: 'prev-day', onclick: () => setDate(addDays(date, -1)) },
              h('span', { 'aria-hidden': 'true' }, '‹ '), t('time.prev')),
            h('button', { type: 'button', class: 'secondary', id: 'today', onclick: () => setDate(localDate()) }, t('time.today')),
            h('button', { type: 'button', class: 'secondary', id: 'next-day', onclick: () => setDate(addDays(date, 1)) },
              t('time.next'), h('span', { 'aria-hidden': 'true' }, ' ›')))),
        heading, list, total, editForm),
      h('section', { class: 'card', id: 'export' }, h('h2', { id: 'export-heading' }, t('time.export')),
        h('p', { class: 'muted' }, t('time.export_hint')), exportForm));

    function setDate(d) {
      date = d;
      dayInput.value = d;
      history.replaceState(null, '', d === localDate() ? '/time' : `/time?date=${d}`);
      return load();
    }

    async function load() {
      const my = ++seq;
      list.setAttribute('aria-busy', 'true');
      try {
        const res = await api.get(`/api/time-entries${api.query({ date })}`);
        if (my !== seq) return;
        draw(res.time_entries);
      } catch (err) {
        if (my !== seq || err.status === 401) return;
        clear(list, h('p', { class: 'form-error', role: 'alert' }, errorText(err)));
        total.textContent = '';
      } finally {
        if (my === seq) list.removeAttribute('aria-busy');
      }
    }

    function draw(entries) {
      const day = fmtDay(date);
      heading.textContent = date === localDate() ? `${t('time.today')}, ${day}` : day;
      // A clock-out on a later day shows that day too.
      const outCell = (e) => {
        if (!e.clock_out) return badge(t('time.open'), 'warn');
        const outDay = localDate(new Date(e.clock_out));
        return outDay === date ? fmtTime(e.clock_out) : `${fmtDay(outDay, { weekday: 'short', day: '2-digit', month: '2-digit' })} ${fmtTime(e.clock_out)}`;
      };
      clear(list, table([
        { label: t('time.person'), cell: (e) => e.user_name },
        { label: t('time.in'), cell: (e) => fmtTime(e.clock_in) },
        { label: t('time.out'), cell: outCell },
        { label: t('time.break'), class: 'num', cell: (e) => t('time.minutes', { n: e.break_minutes }) },
        { label: t('time.worked'), class: 'num', cell: (e) => t('time.hours', { hours: fmtNumber(e.worked_hours) }) },
        { label: t('time.actions'), cell: (e) => h('div', { class: 'buttons' },
          e.corrected || e.source === 'admin' ? badge(t('time.corrected')) : null,
          warningsBox(e.warnings),
          h('button', { type: 'button', class: 'secondary small', dataset: { action: e.clock_out ? 'correct' : 'close' }, onclick: () => edit(e) },
            e.clock_out ? t('time.correct') : t('time.close'))) },
      ], entries, {
        caption: t('time.entries_of', { day }), empty: t('time.none'),
        rowAttrs: (e) => ({ class: e.clock_out ? null : 'open', dataset: { id: e.id, user: e.user_id } }),
      }));
      const sum = Math.round(entries.reduce((a, e) => a + Math.round(Number(e.worked_hours) * 100), 0)) / 100;
      const open = entries.filter((e) => !e.clock_out).length;
      clear(total, t('time.total', { hours: fmtNumber(sum) }), ' ',
        h('span', { class: 'muted' }, '· ', entries.length === 1 ? t('time.count_one') : t('time.count', { n: entries.length }),
          open ? ` · ${t('time.count_open', { n: open })}` : ''));
      total.dataset.hours = String(sum);
    }

    // edit opens the correction form for an entry: close for an open one
    // (its clock-in stays), correct for a closed one.
    function edit(e) {
      editing = e;
      clearErrors(editForm);
      const closing = !e.clock_out;
      editHeading.textContent = t(closing ? 'time.close_title' : 'time.correct_title', { name: e.user_name });
      editForm.querySelector('[data-field=clock_in]').hidden = closing;
      editForm.elements.clock_in.value = wallClockOf(e.clock_in);
      editForm.elements.clock_out.value = wallClockOf(e.clock_out || new Date().toISOString());
      editForm.elements.break_minutes.value = String(e.break_minutes);
      editForm.elements.reason.value = '';
      editForm.hidden = false;
      editForm.elements.reason.focus();
    }

    async function save() {
      if (!editing) return;
      const e = editing;
      const v = values(editForm);
      const brk = v.break_minutes === '' ? 0 : Number(v.break_minutes);
      await withBusy(saveButton, async () => {
        try {
          if (!e.clock_out) {
            await api.post(`/api/time-entries/${e.id}/close`, { clock_out: instantOfLocal(v.clock_out), break_minutes: brk, reason: v.reason });
          } else {
            // Only what changed is sent: an unchanged value is no correction.
            const body = { reason: v.reason };
            if (v.clock_in !== wallClockOf(e.clock_in)) body.clock_in = instantOfLocal(v.clock_in);
            if (v.clock_out !== wallClockOf(e.clock_out)) body.clock_out = instantOfLocal(v.clock_out);
            if (brk !== e.break_minutes) body.break_minutes = brk;
            await api.patch(`/api/time-entries/${e.id}`, body);
          }
          toast(t(e.clock_out ? 'time.corrected_msg' : 'time.closed_msg'));
          editing = null;
          editForm.hidden = true;
        } catch (err) {
          if (err.status !== 401) showError(editForm, err);
          return;
        }
      });
      // Reloaded once the button is free again, so the next entry's form
      // can be sent as soon as the list shows the change.
      if (!editing) await load();
    }

    // download fetches the CSV with the token in a header (a plain link
    // would have none) and saves it through a temporary <a download>.
    async function download() {
      clearErrors(exportForm);
      const v = values(exportForm);
      await withBusy(exportButton, async () => {
        try {
          const { blob, filename } = await api.request('GET',
            `/api/time-entries/export${api.query({ from: v.from, to: v.to, lang: lang() })}`, undefined, { raw: true });
          const url = URL.createObjectURL(blob);
          const a = h('a', { href: url, download: filename, hidden: true });
          document.body.append(a);
          a.click();
          a.remove();
          // Revoked later, not at once: the download reads the blob after the click.
          setTimeout(() => URL.revokeObjectURL(url), 30000);
          toast(t('time.downloaded', { file: filename }));
        } catch (err) {
          if (err.status !== 401) showError(exportForm, err);
        }
      });
    }

    await load();
    return () => { seq++; };
  },
};
