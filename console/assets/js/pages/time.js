// Time entries: one day's clock-ins and clock-outs of all staff, an
// admin's corrections (enter a missing entry, add a forgotten clock-out,
// correct one: time_form.js) with each entry's history (time_history.js),
// the month's record and payroll file (time_month.js), and a range as a
// CSV file for the accountant. API: GET /api/time-entries?date=, GET
// /api/users, GET /api/time-entries/export?from=&to=&lang= (docs/API.md,
// section 3; docs/TIMECLOCK.md).
import { t, addStrings, lang } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, values, showError, clearErrors, errorText, errorLine, withBusy, toast, download, table, badge } from '../ui.js';
import { fmtDay, fmtTime, fmtNumber, localDate, addDays, instantOfLocal, wallClockOf } from '../format.js';
import { openEntryForm } from './time_form.js';
import { openHistory } from './time_history.js';
import { monthSection } from './time_month.js';
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
    'time.download': 'CSV herunterladen',
    'time.actions': 'Korrektur', 'time.correct': 'Korrigieren', 'time.corrected': 'korrigiert',
    'time.add': 'Eintrag nachtragen', 'time.add_out': 'Ausstempeln nachtragen',
    'time.history': 'Verlauf', 'time.show_history': 'Verlauf ansehen', 'time.unchanged': 'wie gestempelt',
    'time.export_columns': 'Eine Zeile je Eintrag: Personalnummer, Name, Tag, Beginn, Ende, Pause, Stunden, ob noch offen und ob korrigiert.',
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
    'time.download': 'Download CSV',
    'time.actions': 'Correction', 'time.correct': 'Correct', 'time.corrected': 'corrected',
    'time.add': 'Add missing entry', 'time.add_out': 'Add clock-out',
    'time.history': 'History', 'time.show_history': 'Show history', 'time.unchanged': 'as clocked',
    'time.export_columns': 'One row per entry: staff number, name, day, start, end, break, hours, whether still open and whether corrected.',
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

    const addButton = h('button', { type: 'button', id: 'add-entry', 'aria-haspopup': 'dialog', onclick: (ev) => add(ev.currentTarget) }, t('time.add'));
    const month = monthSection({ openDay: (d) => { setDate(d); heading.scrollIntoView({ block: 'start' }); } });

    const today = localDate();
    const exportButton = h('button', { type: 'submit' }, t('time.download'));
    const exportForm = h('form', { class: 'panel export', novalidate: true, 'aria-labelledby': 'export-heading' },
      field({ name: 'from', label: t('common.from'), type: 'date', value: `${today.slice(0, 8)}01`, required: true }),
      field({ name: 'to', label: t('common.to'), type: 'date', value: today, required: true }),
      h('p', { class: 'form-error', role: 'alert' }),
      h('div', { class: 'buttons' }, exportButton));
    exportForm.addEventListener('submit', (e) => { e.preventDefault(); exportCSV(); });

    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('time.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => reload() }, t('common.refresh'))),
      h('section', { class: 'card' },
        h('div', { class: 'toolbar time-day', role: 'group', 'aria-label': t('time.day') },
          dayField,
          h('div', { class: 'buttons' },
            h('button', { type: 'button', class: 'secondary', id: 'prev-day', onclick: () => setDate(addDays(date, -1)) },
              h('span', { 'aria-hidden': 'true' }, '‹ '), t('time.prev')),
            h('button', { type: 'button', class: 'secondary', id: 'today', onclick: () => setDate(localDate()) }, t('time.today')),
            h('button', { type: 'button', class: 'secondary', id: 'next-day', onclick: () => setDate(addDays(date, 1)) },
              t('time.next'), h('span', { 'aria-hidden': 'true' }, ' ›'))),
          h('div', { class: 'buttons add-entry' }, addButton)),
        heading, list, total),
      month.card,
      h('section', { class: 'card', id: 'export' }, h('h2', { id: 'export-heading' }, t('time.export')),
        h('p', { class: 'muted' }, t('time.export_hint'), ' ', t('time.export_columns')), exportForm));

    function setDate(d) {
      date = d;
      dayInput.value = d;
      history.replaceState(null, '', d === localDate() ? '/time' : `/time?date=${d}`);
      return load();
    }

    // reload reads the day and the month again (after a change).
    function reload() { return Promise.all([load(), month.load()]); }

    async function load() {
      const my = ++seq;
      list.setAttribute('aria-busy', 'true');
      try {
        const res = await api.get(`/api/time-entries${api.query({ date })}`);
        if (my !== seq) return;
        draw(res.time_entries);
      } catch (err) {
        if (my !== seq) return;
        clear(list, errorLine(err));
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
        { label: t('time.history'), cell: (e) => (e.corrected || e.source === 'admin'
          ? h('button', { type: 'button', class: 'secondary small', 'aria-haspopup': 'dialog', dataset: { action: 'history' },
            onclick: (ev) => openHistory({ host: main, entry: e, opener: ev.currentTarget }) }, t('time.show_history'))
          : h('span', { class: 'muted' }, t('time.unchanged'))) },
        { label: t('time.actions'), cell: (e) => h('div', { class: 'buttons' },
          e.corrected || e.source === 'admin' ? badge(t('time.corrected')) : null,
          warningsBox(e.warnings),
          h('button', { type: 'button', class: 'secondary small', dataset: { action: e.clock_out ? 'correct' : 'close' }, onclick: () => edit(e) },
            e.clock_out ? t('time.correct') : t('time.add_out'))) },
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

    // edit opens the correction of an entry: add the clock-out of an open
    // one (its clock-in stays), correct a closed one.
    function edit(e) {
      openEntryForm({ host: main, mode: e.clock_out ? 'correct' : 'close', entry: e, opener: document.activeElement, onChanged: reload });
    }

    // add enters a missing entry for anyone of the restaurant, on the day shown.
    async function add(opener) {
      let users;
      try {
        users = (await withBusy(addButton, () => api.get('/api/users'))).users;
      } catch (err) {
        toast(errorText(err), 'error');
        return;
      }
      openEntryForm({ host: main, mode: 'add', users, date, opener, onChanged: reload });
    }

    // exportCSV saves the CSV of the chosen days.
    async function exportCSV() {
      clearErrors(exportForm);
      const v = values(exportForm);
      await withBusy(exportButton, async () => {
        try {
          await download(`/api/time-entries/export${api.query({ from: v.from, to: v.to, lang: lang() })}`);
        } catch (err) {
          showError(exportForm, err);
        }
      });
    }

    await reload();
    return () => { seq++; month.cancel(); };
  },
};
