// The time entries page's three corrections, each in a dialog with a
// reason that stays in the entry's history (docs/TIMECLOCK.md): enter a
// missing entry (POST /api/time-entries), add a forgotten clock-out
// (POST /api/time-entries/:id/close) and correct an entry (PATCH
// /api/time-entries/:id). Times are the restaurant's wall clock: a day and
// two times, an end before the start being the next day, as in the shift
// plan.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, field, values, showError, clearErrors, withBusy, toast } from '../ui.js';
import { fmtDay, fmtTime, localDate, localClock, addDays, instantOfLocal, wallClockOf } from '../format.js';

addStrings({
  de: {
    'tform.add_title': 'Fehlenden Eintrag nachtragen', 'tform.close_title': 'Ausstempeln nachtragen: {name}',
    'tform.correct_title': 'Eintrag von {name} korrigieren',
    'tform.add_meta': 'Für eine Schicht, die nicht gestempelt wurde (zum Beispiel, weil die Kasse aus war).',
    'tform.close_meta': '{name} hat am {day} um {time} eingestempelt und nicht ausgestempelt. Wann war Feierabend?',
    'tform.correct_meta': 'Jetzt: {day}, {from} bis {to}, Pause {brk} Min.',
    'tform.correct_open_meta': 'Noch eingestempelt seit {day}, {from}, Pause bisher {brk} Min. Das Ende kommt beim Ausstempeln.',
    'tform.only_start': 'Noch bei der Arbeit? Nur Beginn oder Pause korrigieren',
    'tform.person': 'Mitarbeiter', 'tform.choose': 'Bitte wählen', 'tform.inactive': '{name} (deaktiviert)',
    'tform.day': 'Tag (Beginn)', 'tform.in': 'Beginn', 'tform.out': 'Ende', 'tform.out_hint': 'Vor dem Beginn: endet am Folgetag.',
    'tform.break': 'Pause (Minuten)', 'tform.reason': 'Grund', 'tform.reason_hint': 'Bleibt im Verlauf des Eintrags, für immer sichtbar.',
    'tform.span': '{from} bis {to} · Arbeitszeit ohne Pause: {hours} Std. {minutes} Min.',
    'tform.save_add': 'Eintrag nachtragen', 'tform.save_close': 'Ausstempeln nachtragen', 'tform.save_correct': 'Korrektur speichern',
    'tform.cancel': 'Abbrechen',
    'tform.added': 'Der Eintrag von {name} wurde nachgetragen.', 'tform.closed': 'Das Ausstempeln von {name} wurde nachgetragen.',
    'tform.corrected': 'Der Eintrag von {name} wurde korrigiert.',
    'tform.need_person': 'Bitte einen Mitarbeiter wählen.', 'tform.need_day': 'Bitte einen Tag wählen.',
    'tform.need_time': 'Bitte eine Uhrzeit angeben.', 'tform.need_reason': 'Bitte einen Grund angeben.',
    'tform.unchanged': 'Nichts geändert: Beginn, Ende und Pause sind wie bisher.',
    'tform.overlap': 'Diese Zeit überschneidet sich mit einem anderen Eintrag von {name}. Bitte die Zeiten prüfen oder zuerst den anderen Eintrag korrigieren.',
    'tform.closed_meanwhile': '{name} hat inzwischen selbst ausgestempelt. Die Liste zeigt jetzt das Ende; bei Bedarf „Korrigieren“.',
    'tform.open_now': 'Der Eintrag ist noch offen: bitte „Ausstempeln nachtragen“.',
    'tform.gone': 'Diesen Eintrag gibt es nicht mehr. Die Liste wurde neu geladen.',
  },
  en: {
    'tform.add_title': 'Add a missing entry', 'tform.close_title': 'Add the clock-out: {name}',
    'tform.correct_title': 'Correct the entry of {name}',
    'tform.add_meta': 'For a shift that was not clocked (for example because the till was off).',
    'tform.close_meta': '{name} clocked in on {day} at {time} and never clocked out. When did they leave?',
    'tform.correct_meta': 'Now: {day}, {from} to {to}, break {brk} min.',
    'tform.correct_open_meta': 'Clocked in since {day}, {from}, break so far {brk} min. The end comes with the clock-out.',
    'tform.only_start': 'Still at work? Correct only the start or the break',
    'tform.person': 'Staff member', 'tform.choose': 'Please choose', 'tform.inactive': '{name} (disabled)',
    'tform.day': 'Day (start)', 'tform.in': 'Start', 'tform.out': 'End', 'tform.out_hint': 'Before the start: ends the next day.',
    'tform.break': 'Break (minutes)', 'tform.reason': 'Reason', 'tform.reason_hint': 'Kept in the entry\'s history for good.',
    'tform.span': '{from} to {to} · worked without the break: {hours} h {minutes} min',
    'tform.save_add': 'Add entry', 'tform.save_close': 'Add clock-out', 'tform.save_correct': 'Save correction',
    'tform.cancel': 'Cancel',
    'tform.added': 'The entry of {name} was added.', 'tform.closed': 'The clock-out of {name} was added.',
    'tform.corrected': 'The entry of {name} was corrected.',
    'tform.need_person': 'Please choose a staff member.', 'tform.need_day': 'Please choose a day.',
    'tform.need_time': 'Please enter a time.', 'tform.need_reason': 'Please give a reason.',
    'tform.unchanged': 'Nothing changed: start, end and break are as before.',
    'tform.overlap': 'This time overlaps another entry of {name}. Please check the times or correct the other entry first.',
    'tform.closed_meanwhile': '{name} has clocked out meanwhile. The list now shows the end; use “Correct” if needed.',
    'tform.open_now': 'The entry is still open: please use “Add clock-out”.',
    'tform.gone': 'This entry no longer exists. The list was reloaded.',
  },
});

const shortDay = (d) => fmtDay(d, { weekday: 'short', day: '2-digit', month: '2-digit', year: 'numeric' });

// openEntryForm opens the dialog in host (the page's main, so a page
// change or a new login removes it). mode: 'add' (users, date: the day
// shown), 'close' or 'correct' (entry). onChanged runs after a save, and
// after a conflict that means the list is out of date.
export function openEntryForm(opts) {
  const { host, mode, entry = null, users = [], date = localDate(), opener = null, onChanged = () => {} } = opts;
  const name = entry ? entry.user_name : '';
  const adding = mode === 'add', closing = mode === 'close';
  // An open entry's start and break can be corrected while its owner is
  // still at work; its end is the clock-out's.
  const stillOpen = mode === 'correct' && !entry.clock_out;
  const inDay = entry ? localDate(new Date(entry.clock_in)) : date;
  const init = {
    day: inDay,
    clock_in: entry ? localClock(new Date(entry.clock_in)) : '',
    clock_out: entry && entry.clock_out ? localClock(new Date(entry.clock_out)) : '',
    break_minutes: String(entry ? entry.break_minutes : 0),
  };

  const title = h('h2', { id: 'correct-heading' },
    adding ? t('tform.add_title') : t(closing ? 'tform.close_title' : 'tform.correct_title', { name }));
  const meta = h('p', { class: 'meta' }, adding ? t('tform.add_meta') : closing
    ? [t('tform.close_meta', { name, day: shortDay(inDay), time: fmtTime(entry.clock_in) }), ' ',
      h('button', { type: 'button', class: 'link', id: 'correct-open', onclick: () => { close(); openEntryForm({ ...opts, mode: 'correct' }); } },
        t('tform.only_start'))]
    : t(stillOpen ? 'tform.correct_open_meta' : 'tform.correct_meta', { day: shortDay(inDay), from: init.clock_in, to: init.clock_out, brk: entry.break_minutes }));
  const note = h('p', { class: 'hint wide span-note', id: 'span-note', 'aria-live': 'polite' });
  const saveButton = h('button', { type: 'submit' }, t(adding ? 'tform.save_add' : closing ? 'tform.save_close' : 'tform.save_correct'));
  const form = h('form', { class: 'panel', id: 'correct-form', novalidate: true, dataset: { mode } },
    adding ? field({ name: 'user_id', label: t('tform.person'), type: 'select', required: true, value: '',
      options: [['', t('tform.choose')], ...users.map((u) => [u.id, u.is_active === false ? t('tform.inactive', { name: u.name }) : u.name])] }) : null,
    closing ? null : field({ name: 'day', label: t('tform.day'), type: 'date', value: init.day, required: true }),
    closing ? null : field({ name: 'clock_in', label: t('tform.in'), type: 'time', value: init.clock_in, required: true }),
    stillOpen ? null : field({ name: 'clock_out', label: t('tform.out'), type: 'time', value: closing ? '' : init.clock_out, required: true, hint: t('tform.out_hint') }),
    field({ name: 'break_minutes', label: t('tform.break'), type: 'number', value: init.break_minutes, attrs: { min: 0, step: 1, inputmode: 'numeric' } }),
    note,
    h('div', { class: 'wide' }, field({ name: 'reason', label: t('tform.reason'), required: true, hint: t('tform.reason_hint'), attrs: { maxlength: 500 } })),
    h('p', { class: 'form-error', role: 'alert' }),
    h('div', { class: 'buttons' }, saveButton, h('button', { type: 'button', class: 'secondary', onclick: () => close() }, t('tform.cancel'))));
  const dialog = h('dialog', { class: 'editor time-editor', 'aria-labelledby': 'correct-heading' }, title, meta, form);

  // plan turns the form into the instants to send: those of the fields
  // that changed (a correction), each null when its field is empty.
  function plan() {
    const v = values(form);
    const day = closing ? inDay : v.day;
    const begin = closing ? init.clock_in : v.clock_in;
    const inLocal = day && begin ? `${day}T${begin}` : null;
    const outDay = day && begin && v.clock_out && v.clock_out <= begin ? addDays(day, 1) : day;
    const outLocal = outDay && v.clock_out ? `${outDay}T${v.clock_out}` : null;
    const p = { v, inLocal, outLocal };
    if (mode === 'correct') {
      // An unchanged field keeps the stored instant (to the millisecond),
      // and the span shown is the one that will be stored.
      p.sendIn = inLocal !== wallClockOf(entry.clock_in);
      p.sendOut = !stillOpen && (v.day !== init.day || v.clock_out !== init.clock_out) && outLocal !== wallClockOf(entry.clock_out);
      p.sendBreak = Number(v.break_minutes || 0) !== entry.break_minutes;
      if (!p.sendOut) p.outLocal = stillOpen ? null : wallClockOf(entry.clock_out);
    }
    return p;
  }

  // The span the form describes, so a night's end on the next day is
  // seen before it is saved.
  function describe() {
    const { v, inLocal, outLocal } = plan();
    if (!inLocal || !outLocal) { note.textContent = ''; return; }
    const at = (local) => `${shortDay(local.slice(0, 10))} ${local.slice(11, 16)}`;
    const ms = Date.parse(instantOfLocal(outLocal)) - Date.parse(instantOfLocal(inLocal));
    const min = Math.max(0, Math.round(ms / 60000) - Number(v.break_minutes || 0));
    note.textContent = t('tform.span', { from: at(inLocal), to: at(outLocal), hours: Math.floor(min / 60), minutes: String(min % 60).padStart(2, '0') });
  }
  form.addEventListener('input', describe);
  form.addEventListener('change', describe);

  function fieldError(fieldName, msg) {
    const box = form.querySelector(`[data-field="${fieldName}"]`);
    box.querySelector('.error').textContent = msg;
    const input = box.querySelector('input, select, textarea');
    input.setAttribute('aria-invalid', 'true');
    return input;
  }

  // missing says what is empty, next to its field, before anything is sent.
  function missing(v) {
    const wants = [];
    if (adding && !v.user_id) wants.push(['user_id', t('tform.need_person')]);
    if (!closing && !v.day) wants.push(['day', t('tform.need_day')]);
    if (!closing && !v.clock_in) wants.push(['clock_in', t('tform.need_time')]);
    if (!stillOpen && !v.clock_out) wants.push(['clock_out', t('tform.need_time')]);
    if (!v.reason.trim()) wants.push(['reason', t('tform.need_reason')]);
    const inputs = wants.map(([f, msg]) => fieldError(f, msg));
    if (inputs.length) {
      inputs[0].focus();
      form.querySelector('.form-error').textContent = t('error.fields');
    }
    return inputs.length > 0;
  }

  async function save() {
    clearErrors(form);
    const p = plan();
    const { v } = p;
    if (missing(v)) return;
    const brk = v.break_minutes === '' ? 0 : Number(v.break_minutes);
    const who = adding ? (users.find((u) => u.id === v.user_id) || {}).name : name;
    let done = false;
    await withBusy(saveButton, async () => {
      try {
        if (adding) {
          await api.post('/api/time-entries', { user_id: v.user_id, clock_in: instantOfLocal(p.inLocal), clock_out: instantOfLocal(p.outLocal),
            break_minutes: brk, reason: v.reason });
        } else if (closing) {
          await api.post(`/api/time-entries/${entry.id}/close`, { clock_out: instantOfLocal(p.outLocal), break_minutes: brk, reason: v.reason });
        } else {
          const body = { reason: v.reason };
          if (p.sendIn) body.clock_in = instantOfLocal(p.inLocal);
          if (p.sendOut) body.clock_out = instantOfLocal(p.outLocal);
          if (p.sendBreak) body.break_minutes = brk;
          if (Object.keys(body).length === 1) {
            form.querySelector('.form-error').textContent = t('tform.unchanged');
            return;
          }
          await api.patch(`/api/time-entries/${entry.id}`, body);
        }
        toast(t(adding ? 'tform.added' : closing ? 'tform.closed' : 'tform.corrected', { name: who }));
        done = true;
      } catch (err) {
        const top = form.querySelector('.form-error');
        if (err.code === 'time_entry_overlap') top.textContent = t('tform.overlap', { name: who });
        else if (err.code === 'time_entry_closed') { top.textContent = t('tform.closed_meanwhile', { name: who }); onChanged(); }
        else if (err.code === 'time_entry_open') { top.textContent = t('tform.open_now'); onChanged(); }
        else if (err.status === 404) { top.textContent = t('tform.gone'); onChanged(); }
        else showError(form, err);
      }
    });
    if (done) {
      close();
      await onChanged();
    }
  }
  form.addEventListener('submit', (e) => { e.preventDefault(); save(); });

  function close() {
    if (dialog.open) dialog.close();
    dialog.remove();
    if (opener && opener.isConnected) opener.focus();
  }
  dialog.addEventListener('cancel', (e) => { e.preventDefault(); close(); });
  host.append(dialog);
  describe();
  dialog.showModal();
  (form.querySelector(adding ? '[name=user_id]' : closing ? '[name=clock_out]' : '[name=clock_in]')).focus();
  return dialog;
}
