// An entry's history in a dialog (GET /api/time-entries/history/:id):
// what the time clock recorded, what is valid now, and each change with
// who, when, why and the values before and after, in plain words
// (docs/TIMECLOCK.md: the history can never be changed or deleted).
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, errorLine } from '../ui.js';
import { fmtDay, fmtTime, fmtNumber, localDate, locale, timeZone } from '../format.js';

addStrings({
  de: {
    'thist.title': 'Verlauf: {name}, {day}', 'thist.loading': 'Wird geladen …', 'thist.close': 'Schließen',
    'thist.punched': 'Gestempelt', 'thist.entered': 'Nicht gestempelt: von Hand nachgetragen.',
    'thist.now': 'Jetzt gültig', 'thist.changes': 'Änderungen (älteste zuerst)', 'thist.never': 'Nie geändert.',
    'thist.values': 'Beginn {in}, Ende {out}, Pause {brk} Min.', 'thist.values_hours': 'Beginn {in}, Ende {out}, Pause {brk} Min., {hours} Std.',
    'thist.no_end': 'nicht ausgestempelt',
    'thist.create': 'Nachgetragen von {by} am {date} um {time}', 'thist.close_action': 'Ausstempeln nachgetragen von {by} am {date} um {time}',
    'thist.correct': 'Geändert von {by} am {date} um {time}', 'thist.reason': 'Grund: {reason}',
    'thist.in': 'Beginn', 'thist.out': 'Ende', 'thist.break': 'Pause', 'thist.minutes': '{n} Min.',
    'thist.change': '{what}: vorher {before}, nachher {after}', 'thist.kept': 'Aufbewahrt für immer; niemand kann den Verlauf ändern oder löschen.',
  },
  en: {
    'thist.title': 'History: {name}, {day}', 'thist.loading': 'Loading …', 'thist.close': 'Close',
    'thist.punched': 'Clocked', 'thist.entered': 'Not clocked: entered by hand.',
    'thist.now': 'Valid now', 'thist.changes': 'Changes (oldest first)', 'thist.never': 'Never changed.',
    'thist.values': 'Start {in}, end {out}, break {brk} min', 'thist.values_hours': 'Start {in}, end {out}, break {brk} min, {hours} h',
    'thist.no_end': 'not clocked out',
    'thist.create': 'Entered by {by} on {date} at {time}', 'thist.close_action': 'Clock-out added by {by} on {date} at {time}',
    'thist.correct': 'Changed by {by} on {date} at {time}', 'thist.reason': 'Reason: {reason}',
    'thist.in': 'Start', 'thist.out': 'End', 'thist.break': 'Break', 'thist.minutes': '{n} min',
    'thist.change': '{what}: before {before}, after {after}', 'thist.kept': 'Kept for good; nobody can change or delete the history.',
  },
});

const fullDate = (iso) => fmtDay(localDate(new Date(iso)), { day: '2-digit', month: '2-digit', year: 'numeric' });

// at is a wall-clock time, with its day when that is not ref (a local date).
function at(iso, ref) {
  if (!iso) return t('thist.no_end');
  const d = localDate(new Date(iso));
  return d === ref ? fmtTime(iso) : `${fmtDay(d, { weekday: 'short', day: '2-digit', month: '2-digit' })} ${fmtTime(iso)}`;
}

// valuesText is one snapshot of an entry: start, end, break; times on
// another day than ref (default the snapshot's own) say their day.
function valuesText(v, { hours, ref = localDate(new Date(v.clock_in)) } = {}) {
  const vars = { in: at(v.clock_in, ref), out: at(v.clock_out, ref), brk: v.break_minutes };
  return hours === undefined ? t('thist.values', vars) : t('thist.values_hours', { ...vars, hours: fmtNumber(hours) });
}

// changes lists what a correction changed, one phrase per value.
function changes(before, after) {
  const out = [];
  const inRef = localDate(new Date(before.clock_in)) === localDate(new Date(after.clock_in)) ? localDate(new Date(after.clock_in)) : null;
  const same = (a, b) => (a ? Date.parse(a) : null) === (b ? Date.parse(b) : null);
  // Two values that read alike to the minute are shown to the second.
  const pair = (a, b, refA, refB) => {
    let x = at(a, refA), y = at(b, refB);
    if (x === y && a && b) {
      const sec = new Intl.DateTimeFormat(locale(), { timeZone: timeZone(), hour: '2-digit', minute: '2-digit', second: '2-digit' });
      [x, y] = [sec.format(new Date(a)), sec.format(new Date(b))];
    }
    return [x, y];
  };
  if (!same(before.clock_in, after.clock_in)) {
    const [x, y] = pair(before.clock_in, after.clock_in, inRef, inRef);
    out.push(t('thist.change', { what: t('thist.in'), before: x, after: y }));
  }
  if (!same(before.clock_out, after.clock_out)) {
    const [x, y] = pair(before.clock_out, after.clock_out, localDate(new Date(before.clock_in)), localDate(new Date(after.clock_in)));
    out.push(t('thist.change', { what: t('thist.out'), before: x, after: y }));
  }
  if (before.break_minutes !== after.break_minutes) {
    out.push(t('thist.change', { what: t('thist.break'), before: t('thist.minutes', { n: before.break_minutes }), after: t('thist.minutes', { n: after.break_minutes }) }));
  }
  return out;
}

// historyItem is one change in a sentence: "Geändert von Clara Chef am
// 24.11.2026 um 18:02 – Grund: … – Ende: vorher 22:00, nachher 23:15".
export function historyItem(c) {
  const key = { create: 'thist.create', close: 'thist.close_action' }[c.action] || 'thist.correct';
  const what = c.before ? changes(c.before, c.after) : [valuesText(c.after)];
  return h('li', { dataset: { action: c.action } },
    h('span', { class: 'change-by' }, t(key, { by: c.by_name, date: fullDate(c.at), time: fmtTime(c.at) })),
    ' – ', h('span', { class: 'why' }, t('thist.reason', { reason: c.reason })),
    what.length ? [' – ', h('span', { class: 'what' }, what.join('; '))] : null);
}

// openHistory shows the history of the entry e (as the list has it) in
// host; the focus goes back to opener when it closes.
export async function openHistory({ host, entry, opener = null }) {
  const day = fmtDay(localDate(new Date(entry.clock_in)));
  const body = h('div', { class: 'history', 'aria-live': 'polite' }, h('p', { class: 'muted' }, t('thist.loading')));
  const closeButton = h('button', { type: 'button', class: 'secondary', onclick: () => close() }, t('thist.close'));
  const dialog = h('dialog', { class: 'editor history-dialog', id: 'history', 'aria-labelledby': 'history-heading' },
    h('h2', { id: 'history-heading' }, t('thist.title', { name: entry.user_name, day })), body,
    h('div', { class: 'buttons' }, closeButton));
  function close() {
    if (dialog.open) dialog.close();
    dialog.remove();
    if (opener && opener.isConnected) opener.focus();
  }
  dialog.addEventListener('cancel', (e) => { e.preventDefault(); close(); });
  host.append(dialog);
  dialog.showModal();
  closeButton.focus();
  try {
    const d = (await api.get(`/api/time-entries/history/${entry.id}`)).time_entry;
    clear(body,
      h('h3', {}, t('thist.punched')),
      h('p', { id: 'history-original' }, d.original ? valuesText(d.original, { ref: localDate(new Date(d.clock_in)) }) : t('thist.entered')),
      h('h3', {}, t('thist.now')),
      h('p', { id: 'history-now' }, valuesText(d, { hours: d.worked_hours })),
      h('h3', {}, t('thist.changes')),
      d.history.length ? h('ol', { class: 'plain changes', id: 'history-list' }, d.history.map(historyItem)) : h('p', { class: 'empty' }, t('thist.never')),
      h('p', { class: 'muted small-text' }, t('thist.kept')));
  } catch (err) {
    clear(body, errorLine(err));
  }
}
