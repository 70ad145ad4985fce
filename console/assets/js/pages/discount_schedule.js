// A discount's weekly schedule in the console: the editor (one row per
// range: weekdays as checkboxes, from, to; add and remove rows) and the
// list's one-line summary ("Mo–Fr 17:00–19:00"). No row is null: the
// discount applies around the clock. The rule itself (timezone, past
// midnight, DST) is the server's: docs/API.md, "The schedule".
import { t, addStrings } from '../i18n.js';
import { h } from '../ui.js';

addStrings({
  de: {
    'dsched.legend': 'Zeiten (Wochentage und Uhrzeiten)',
    'dsched.hint': 'Ortszeit der Filiale. Ohne Zeile gilt der Rabatt rund um die Uhr. „Bis“ vor „Von“ reicht über Mitternacht in den nächsten Tag; 00:00 bis 00:00 ist der ganze Tag.',
    'dsched.add': 'Zeile hinzufügen', 'dsched.remove': 'Zeile entfernen', 'dsched.row': 'Zeile {n}',
    'dsched.days': 'Wochentage', 'dsched.from': 'Von', 'dsched.to': 'Bis',
    'dsched.no_day': 'Bitte mindestens einen Wochentag wählen.', 'dsched.no_time': 'Bitte eine Uhrzeit angeben.',
    'dsched.daily': 'täglich', 'dsched.whole_day': 'ganztägig', 'dsched.always': 'rund um die Uhr',
    'dsched.day.1': 'Mo', 'dsched.day.2': 'Di', 'dsched.day.3': 'Mi', 'dsched.day.4': 'Do', 'dsched.day.5': 'Fr', 'dsched.day.6': 'Sa', 'dsched.day.7': 'So',
    'dsched.dayname.1': 'Montag', 'dsched.dayname.2': 'Dienstag', 'dsched.dayname.3': 'Mittwoch', 'dsched.dayname.4': 'Donnerstag',
    'dsched.dayname.5': 'Freitag', 'dsched.dayname.6': 'Samstag', 'dsched.dayname.7': 'Sonntag',
  },
  en: {
    'dsched.legend': 'Hours (weekdays and times)',
    'dsched.hint': 'The restaurant\'s local time. Without a row the discount applies around the clock. “To” before “From” runs past midnight into the next day; 00:00 to 00:00 is the whole day.',
    'dsched.add': 'Add row', 'dsched.remove': 'Remove row', 'dsched.row': 'Row {n}',
    'dsched.days': 'Weekdays', 'dsched.from': 'From', 'dsched.to': 'To',
    'dsched.no_day': 'Please choose at least one weekday.', 'dsched.no_time': 'Please enter a time.',
    'dsched.daily': 'daily', 'dsched.whole_day': 'all day', 'dsched.always': 'around the clock',
    'dsched.day.1': 'Mon', 'dsched.day.2': 'Tue', 'dsched.day.3': 'Wed', 'dsched.day.4': 'Thu', 'dsched.day.5': 'Fri', 'dsched.day.6': 'Sat', 'dsched.day.7': 'Sun',
    'dsched.dayname.1': 'Monday', 'dsched.dayname.2': 'Tuesday', 'dsched.dayname.3': 'Wednesday', 'dsched.dayname.4': 'Thursday',
    'dsched.dayname.5': 'Friday', 'dsched.dayname.6': 'Saturday', 'dsched.dayname.7': 'Sunday',
  },
});

const DAYS = [1, 2, 3, 4, 5, 6, 7];

// scheduleSummary is a schedule in one line: "Mo–Fr 17:00–19:00; Fr, Sa
// 22:00–02:00"; null: "" (the list says nothing for always).
export function scheduleSummary(schedule) {
  if (!schedule) return '';
  return schedule.map((e) => {
    const time = e.from === '00:00' && e.to === '00:00' ? t('dsched.whole_day') : `${e.from}–${e.to}`;
    return `${daysText(e.days)} ${time}`;
  }).join('; ');
}

// daysText: runs of three or more days as "Mo–Fr", others one by one.
function daysText(days) {
  const ds = [...new Set(days)].sort((a, b) => a - b);
  if (ds.length === 7) return t('dsched.daily');
  const parts = [];
  for (let i = 0; i < ds.length;) {
    let j = i;
    while (j + 1 < ds.length && ds[j + 1] === ds[j] + 1) j++;
    if (j - i >= 2) parts.push(`${t(`dsched.day.${ds[i]}`)}–${t(`dsched.day.${ds[j]}`)}`);
    else for (let k = i; k <= j; k++) parts.push(t(`dsched.day.${ds[k]}`));
    i = j + 1;
  }
  return parts.join(', ');
}

// scheduleEditor is the form's schedule part for schedule (null: no
// rows). Its inputs have no name, so the form's values() and draft leave
// them alone; read() gives the API's member and the field errors found
// before asking the API.
export function scheduleEditor(schedule) {
  const rows = h('div', { class: 'schedule-rows' });
  // The whole schedule's error (too many windows, one twice) comes first,
  // so showError finds it before the rows' own.
  const whole = h('p', { class: 'error', 'aria-live': 'polite' });
  const addButton = h('button', { type: 'button', class: 'secondary small', id: 'schedule-add', onclick: () => { addRow(null); renumber(); rows.lastChild.querySelector('input').focus(); } }, t('dsched.add'));
  const box = h('fieldset', { class: 'field wide schedule', id: 'discount-schedule', dataset: { field: 'schedule' } },
    h('legend', {}, t('dsched.legend')),
    h('small', { class: 'hint' }, t('dsched.hint')),
    whole, rows, h('div', { class: 'buttons' }, addButton));

  function addRow(entry) {
    const days = new Set(entry ? entry.days : []);
    const row = h('div', { class: 'schedule-row' });
    const dayBox = h('div', { class: 'field schedule-days' },
      h('span', { class: 'schedule-label' }),
      h('div', { class: 'day-checks' }, DAYS.map((d) => h('label', { class: 'day-check', title: t(`dsched.dayname.${d}`) },
        h('input', { type: 'checkbox', value: String(d), checked: days.has(d) ? 'checked' : null, 'aria-label': t(`dsched.dayname.${d}`) }),
        h('span', { 'aria-hidden': 'true' }, t(`dsched.day.${d}`))))),
      h('p', { class: 'error', 'aria-live': 'polite' }));
    const time = (part, value) => h('div', { class: 'field schedule-time' },
      h('label', {}, t(`dsched.${part}`), h('input', { type: 'time', value: value || '', class: `schedule-${part}`, required: true })),
      h('p', { class: 'error', 'aria-live': 'polite' }));
    const remove = h('button', { type: 'button', class: 'secondary small schedule-remove', onclick: () => { row.remove(); renumber(); addButton.focus(); } }, t('dsched.remove'));
    row.append(dayBox, time('from', entry && entry.from), time('to', entry && entry.to), remove);
    row.addEventListener('input', (e) => {
      const err = e.target.closest('.field')?.querySelector('.error');
      if (err) err.textContent = '';
      whole.textContent = '';
    });
    rows.append(row);
  }

  // renumber keeps each row's field names in step with its position, so
  // an API error such as schedule[1].from lands on its row.
  function renumber() {
    [...rows.children].forEach((row, i) => {
      row.querySelector('.schedule-label').textContent = t('dsched.row', { n: i + 1 });
      row.querySelector('.schedule-days').dataset.field = `schedule[${i}].days`;
      row.querySelector('.schedule-from').closest('.field').dataset.field = `schedule[${i}].from`;
      row.querySelector('.schedule-to').closest('.field').dataset.field = `schedule[${i}].to`;
      row.querySelector('.schedule-remove').setAttribute('aria-label', `${t('dsched.remove')}: ${t('dsched.row', { n: i + 1 })}`);
    });
  }

  for (const e of schedule || []) addRow(e);
  renumber();

  function read() {
    const errors = [];
    const out = [...rows.children].map((row, i) => {
      const days = [...row.querySelectorAll('.day-checks input:checked')].map((c) => Number(c.value));
      const from = row.querySelector('.schedule-from').value;
      const to = row.querySelector('.schedule-to').value;
      if (!days.length) errors.push({ field: `schedule[${i}].days`, message: t('dsched.no_day') });
      if (!from) errors.push({ field: `schedule[${i}].from`, message: t('dsched.no_time') });
      if (!to) errors.push({ field: `schedule[${i}].to`, message: t('dsched.no_time') });
      return { days, from, to };
    });
    return { schedule: out.length ? out : null, errors };
  }
  return { element: box, read };
}

