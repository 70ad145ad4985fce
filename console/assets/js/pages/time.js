// Time entries: one day's clock-ins and clock-outs of all staff, and a
// range as a CSV file for the accountant. API: GET /api/time-entries?date=,
// GET /api/time-entries/export?from=&to=&lang= (docs/API.md, section 3).
import { t, addStrings, lang } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, values, showError, clearErrors, errorText, withBusy, toast, table, badge } from '../ui.js';
import { fmtDay, fmtTime, fmtNumber, localDate, addDays } from '../format.js';

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
        heading, list, total),
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
