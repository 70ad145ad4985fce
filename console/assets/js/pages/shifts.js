// The shift plan: a week grid (a row per person, a column per day in the
// restaurant's timezone), the week's hours per person (planned and
// worked) and an editor for one shift. New shifts are drafts until the
// week is published. API: GET/POST /api/shifts, PUT /api/shifts/:id,
// PATCH /api/shifts/:id/status, DELETE /api/shifts/:id,
// POST /api/shifts/publish, POST /api/shifts/copy-week, GET /api/users,
// GET /api/time-entries (docs/API.md, section 3).
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import {
  h, clear, field, values, showError, clearErrors, errorText, withBusy, confirmDialog,
  bindDraft, dropDraft, readDraft, toast, badge, table,
} from '../ui.js';
import { fmtDay, fmtTime, fmtNumber, localDate, addDays, mondayOf, locale } from '../format.js';
import { warningsBox } from '../labour.js';

addStrings({
  de: {
    'shifts.title': 'Dienstplan', 'shifts.add': 'Schicht anlegen', 'shifts.prev': 'Vorherige Woche',
    'shifts.next': 'Nächste Woche', 'shifts.week_nav': 'Woche wählen', 'shifts.this': 'Diese Woche', 'shifts.week_label': 'KW {n} · {from} – {to}',
    'shifts.grid': 'Dienstplan der Woche {from} – {to}', 'shifts.person': 'Mitarbeiter',
    'shifts.admin': 'Admin', 'shifts.inactive': 'inaktiv', 'shifts.gone': 'gelöscht',
    'shifts.add_for': 'Schicht für {name} am {day} anlegen',
    'shifts.status.pending': 'geplant', 'shifts.status.confirmed': 'bestätigt', 'shifts.status.cancelled': 'abgesagt',
    'shifts.until': 'bis {time}', 'shifts.from_prev': 'vom Vortag',
    'shifts.night_sr': 'Nachtschicht, endet am Folgetag um {time}',
    'shifts.continued_sr': 'Fortsetzung der Nachtschicht von {day}',
    'shifts.nobody': 'Noch keine aktiven Mitarbeiter. Unter „Benutzer“ anlegen; Schichten für Admins gehen über „Schicht anlegen“.',
    'shifts.edit_title': 'Schicht bearbeiten', 'shifts.new_title': 'Schicht anlegen',
    'shifts.user': 'Mitarbeiter', 'shifts.choose': '– bitte wählen –', 'shifts.date': 'Datum',
    'shifts.start': 'Beginn', 'shifts.end': 'Ende', 'shifts.end_hint': 'Vor dem Beginn: endet am Folgetag (Nachtschicht).',
    'shifts.break': 'Pause (Minuten)', 'shifts.role': 'Aufgabe', 'shifts.role_hint': 'z. B. Küche, Service, Bar',
    'shifts.notes': 'Notizen',
    'shifts.do_confirmed': 'Schicht bestätigen', 'shifts.do_cancelled': 'Schicht absagen',
    'shifts.do_pending': 'Zurück auf geplant', 'shifts.do_restore': 'Wieder aufnehmen',
    'shifts.status_changed': 'Die Schicht ist jetzt {status}.',
    'shifts.delete_plain': 'Diese Schicht endgültig löschen?',
    'shifts.delete_q': 'Die Schicht von {name} am {day} ({time}) endgültig löschen? Zum Behalten stattdessen absagen.',
    'shifts.overlap_field': 'Überschneidet sich mit einer anderen Schicht.',
    'shifts.overlap_with': 'Überschneidet sich mit der Schicht {time} am {day}.',
    'shifts.draft': 'Nicht gespeicherte Eingaben wurden wiederhergestellt.',
    'shifts.night_note': 'Nachtschicht bis {time} am Folgetag',
    'shifts.draft_mark': 'Entwurf', 'shifts.unstaffed': 'unbesetzt', 'shifts.warned_sr': ' (mit Hinweis zum Arbeitszeitgesetz)',
    'shifts.planned_row': '{hours} Std. geplant',
    'shifts.publish': 'Woche veröffentlichen ({n} Entwürfe)', 'shifts.publish_one': 'Woche veröffentlichen (1 Entwurf)',
    'shifts.drafts': '{n} Schichten dieser Woche sind Entwürfe: die Mitarbeiter sehen sie erst nach dem Veröffentlichen.',
    'shifts.drafts_one': '1 Schicht dieser Woche ist ein Entwurf: der Mitarbeiter sieht sie erst nach dem Veröffentlichen.',
    'shifts.all_published': 'Alle Schichten dieser Woche sind veröffentlicht.',
    'shifts.publish_q': '{n} Schichten veröffentlichen? Danach sehen die Mitarbeiter sie und Benachrichtigungen über Schichtänderungen gehen hinaus.',
    'shifts.publish_q_one': '1 Schicht veröffentlichen? Danach sieht der Mitarbeiter sie und Benachrichtigungen über Schichtänderungen gehen hinaus.',
    'shifts.publish_do': 'Veröffentlichen', 'shifts.published': '{n} Schichten veröffentlicht.', 'shifts.published_one': '1 Schicht veröffentlicht.',
    'shifts.copy': 'Vorwoche übernehmen',
    'shifts.copied': '{copied} Schichten aus der Vorwoche übernommen (als Entwurf), {skipped} übersprungen.',
    'shifts.copied_one': '1 Schicht aus der Vorwoche übernommen (als Entwurf), {skipped} übersprungen.',
    'shifts.copy_skip.overlap': '{name}, {day} {time}: überschneidet sich mit einer vorhandenen Schicht',
    'shifts.copy_skip.user_inactive': '{name}, {day} {time}: Mitarbeiter ist nicht mehr aktiv',
    'shifts.copy_skip.no_length': '{name}, {day} {time}: diese Uhrzeit gibt es am neuen Tag nicht (Zeitumstellung)',
    'shifts.unstaffed_note': '{n} Schichten dieser Woche sind unbesetzt: der Mitarbeiter ist deaktiviert oder gelöscht. Bitte neu besetzen oder absagen.',
    'shifts.unstaffed_one': '1 Schicht dieser Woche ist unbesetzt: der Mitarbeiter ist deaktiviert oder gelöscht. Bitte neu besetzen oder absagen.',
    'shifts.upcoming': 'Ab heute sind {n} Schichten unbesetzt:', 'shifts.upcoming_one': 'Ab heute ist 1 Schicht unbesetzt:',
    'shifts.hours_title': 'Stunden der Woche', 'shifts.planned': 'Geplant', 'shifts.worked': 'Gearbeitet',
    'shifts.notes_col': 'Hinweise', 'shifts.hours': '{hours} Std.', 'shifts.no_notes': 'keine',
  },
  en: {
    'shifts.title': 'Shift plan', 'shifts.add': 'Add shift', 'shifts.prev': 'Previous week',
    'shifts.next': 'Next week', 'shifts.week_nav': 'Choose the week', 'shifts.this': 'This week', 'shifts.week_label': 'Week {n} · {from} – {to}',
    'shifts.grid': 'Shift plan for {from} – {to}', 'shifts.person': 'Staff member',
    'shifts.admin': 'admin', 'shifts.inactive': 'inactive', 'shifts.gone': 'deleted',
    'shifts.add_for': 'Add a shift for {name} on {day}',
    'shifts.status.pending': 'pending', 'shifts.status.confirmed': 'confirmed', 'shifts.status.cancelled': 'cancelled',
    'shifts.until': 'until {time}', 'shifts.from_prev': 'from the day before',
    'shifts.night_sr': 'night shift, ends the next day at {time}',
    'shifts.continued_sr': 'continuation of the night shift of {day}',
    'shifts.nobody': 'No active staff yet. Add them under “Users”; shifts for admins go through “Add shift”.',
    'shifts.edit_title': 'Edit shift', 'shifts.new_title': 'Add shift',
    'shifts.user': 'Staff member', 'shifts.choose': '– please choose –', 'shifts.date': 'Date',
    'shifts.start': 'Start', 'shifts.end': 'End', 'shifts.end_hint': 'Before the start: ends the next day (night shift).',
    'shifts.break': 'Break (minutes)', 'shifts.role': 'Role', 'shifts.role_hint': 'e.g. kitchen, service, bar',
    'shifts.notes': 'Notes',
    'shifts.do_confirmed': 'Confirm shift', 'shifts.do_cancelled': 'Cancel shift',
    'shifts.do_pending': 'Back to pending', 'shifts.do_restore': 'Restore',
    'shifts.status_changed': 'The shift is now {status}.',
    'shifts.delete_plain': 'Delete this shift for good?',
    'shifts.delete_q': 'Delete the shift of {name} on {day} ({time}) for good? Cancel it instead to keep it.',
    'shifts.overlap_field': 'Overlaps another shift.',
    'shifts.overlap_with': 'Overlaps the shift {time} on {day}.',
    'shifts.draft': 'Unsaved input was restored.',
    'shifts.night_note': 'Night shift until {time} the next day',
    'shifts.draft_mark': 'draft', 'shifts.unstaffed': 'unstaffed', 'shifts.warned_sr': ' (with a working-hours notice)',
    'shifts.planned_row': '{hours} h planned',
    'shifts.publish': 'Publish week ({n} drafts)', 'shifts.publish_one': 'Publish week (1 draft)',
    'shifts.drafts': '{n} shifts of this week are drafts: staff see them only once published.',
    'shifts.drafts_one': '1 shift of this week is a draft: staff see it only once published.',
    'shifts.all_published': 'Every shift of this week is published.',
    'shifts.publish_q': 'Publish {n} shifts? Staff then see them and shift-change notifications go out.',
    'shifts.publish_q_one': 'Publish 1 shift? The staff member then sees it and shift-change notifications go out.',
    'shifts.publish_do': 'Publish', 'shifts.published': '{n} shifts published.', 'shifts.published_one': '1 shift published.',
    'shifts.copy': 'Copy last week',
    'shifts.copied': '{copied} shifts copied from last week (as drafts), {skipped} skipped.',
    'shifts.copied_one': '1 shift copied from last week (as a draft), {skipped} skipped.',
    'shifts.copy_skip.overlap': '{name}, {day} {time}: overlaps an existing shift',
    'shifts.copy_skip.user_inactive': '{name}, {day} {time}: no longer an active staff member',
    'shifts.copy_skip.no_length': '{name}, {day} {time}: this time does not exist on the new day (clock change)',
    'shifts.unstaffed_note': '{n} shifts of this week are unstaffed: their staff member was disabled or deleted. Reassign or cancel them.',
    'shifts.unstaffed_one': '1 shift of this week is unstaffed: its staff member was disabled or deleted. Reassign or cancel it.',
    'shifts.upcoming': 'From today on {n} shifts are unstaffed:', 'shifts.upcoming_one': 'From today on 1 shift is unstaffed:',
    'shifts.hours_title': 'Hours of the week', 'shifts.planned': 'Planned', 'shifts.worked': 'Worked',
    'shifts.notes_col': 'Notices', 'shifts.hours': '{hours} h', 'shifts.no_notes': 'none',
  },
});

const DRAFT = 'shifts.editor';
const FIELDS = ['user_id', 'shift_date', 'start_time', 'end_time', 'break_minutes', 'role', 'notes'];

// validDate is s when it is a real date YYYY-MM-DD, else ''.
function validDate(s) {
  return typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && addDays(s, 0) === s ? s : '';
}

// A night shift ends the next day (end before start); one ending at 00:00
// reaches into the next day by no minute.
const isNight = (s) => s.end_time < s.start_time;
const reachesNextDay = (s) => isNight(s) && s.end_time !== '00:00';

// isoWeek is the ISO 8601 week number of a Monday.
function isoWeek(monday) {
  const [y, m, d] = monday.split('-').map(Number);
  const day = 86400000;
  const thursday = Date.UTC(y, m - 1, d + 3);
  const jan4 = Date.UTC(new Date(thursday).getUTCFullYear(), 0, 4);
  const week1 = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * day;
  return 1 + Math.round((thursday - 3 * day - week1) / (7 * day));
}

const shortDay = (d) => fmtDay(d, { weekday: 'short', day: '2-digit', month: '2-digit' });

export default {
  async render(main) {
    const draft = readDraft(DRAFT);
    const today = localDate();
    let week = mondayOf(validDate(draft && (draft.from_date || draft.shift_date)) ||
      validDate(new URLSearchParams(location.search).get('week')) || today);
    let users = [];
    let shifts = [];
    let entries = [];
    let upcoming = []; // unstaffed shifts from today on, in any week
    let seq = 0;
    let scrolled = false; // the phone view opened at today once
    let editor = null; // the open editor: { dialog, opener }

    const label = h('h2', { id: 'week-label', class: 'week-label', 'aria-live': 'polite' });
    const msg = h('p', { class: 'form-error', role: 'alert' });
    const grid = h('div', { class: 'week', id: 'week', role: 'table', 'aria-labelledby': 'week-label' });
    const addButton = h('button', { type: 'button', id: 'add-shift', 'aria-haspopup': 'dialog', onclick: (e) => openEditor(null, {}, { opener: e.currentTarget }) }, t('shifts.add'));
    const hint = h('p', { class: 'muted', hidden: true }, t('shifts.nobody'));
    const copyButton = h('button', { type: 'button', class: 'secondary', id: 'copy-week', onclick: () => copyLastWeek() }, t('shifts.copy'));
    const publishButton = h('button', { type: 'button', id: 'publish-week', hidden: true, onclick: () => publishWeek() });
    const planState = h('p', { id: 'plan-state', class: 'muted', role: 'status' });
    const unstaffedNote = h('div', { id: 'unstaffed-note', class: 'notice warn', role: 'status', hidden: true });
    const copyResult = h('div', { id: 'copy-result', class: 'notice', role: 'status', hidden: true });
    const hours = h('section', { class: 'card', id: 'week-hours' });
    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('shifts.title')), h('div', { class: 'buttons' }, copyButton, publishButton, addButton)),
      h('div', { class: 'toolbar week-nav', role: 'group', 'aria-label': t('shifts.week_nav') },
        h('button', { type: 'button', class: 'secondary', id: 'prev-week', onclick: () => setWeek(addDays(week, -7)) },
          h('span', { 'aria-hidden': 'true' }, '‹ '), t('shifts.prev')),
        h('button', { type: 'button', class: 'secondary', id: 'this-week', onclick: () => setWeek(mondayOf(localDate())) }, t('shifts.this')),
        h('button', { type: 'button', class: 'secondary', id: 'next-week', onclick: () => setWeek(addDays(week, 7)) },
          t('shifts.next'), h('span', { 'aria-hidden': 'true' }, ' ›')),
        label),
      msg, planState, unstaffedNote, copyResult, hint, grid, hours);
    grid.addEventListener('keydown', arrowKeys);

    function setWeek(monday) {
      week = monday;
      copyResult.hidden = true;
      const url = week === mondayOf(localDate()) ? '/shifts' : `/shifts?week=${week}`;
      history.replaceState(null, '', url);
      return load();
    }

    // load reads the week's shifts (and the Sunday before, for a night
    // shift that reaches into Monday) and the users, then draws.
    async function load(focus) {
      const my = ++seq;
      grid.setAttribute('aria-busy', 'true');
      try {
        const [u, s, te, un] = await Promise.all([api.get('/api/users'),
          api.get(`/api/shifts${api.query({ date_from: addDays(week, -1), date_to: addDays(week, 6) })}`),
          api.get(`/api/time-entries${api.query({ from: week, to: addDays(week, 6) })}`),
          api.get(`/api/shifts${api.query({ unstaffed: 'true', date_from: localDate() })}`)]);
        upcoming = un.shifts;
        if (my !== seq) return;
        users = u.users;
        shifts = s.shifts;
        entries = te.time_entries;
        msg.textContent = '';
        draw();
        if (focus) { const el = grid.querySelector(focus); if (el) el.focus(); }
      } catch (err) {
        if (my !== seq) return;
        msg.textContent = errorText(err);
      } finally {
        if (my === seq) grid.removeAttribute('aria-busy');
      }
    }

    function draw() {
      const now = localDate();
      const days = Array.from({ length: 7 }, (_, i) => addDays(week, i));
      const range = { from: shortDay(days[0]), to: fmtDay(days[6], { day: '2-digit', month: '2-digit', year: 'numeric' }) };
      label.textContent = t('shifts.week_label', { n: isoWeek(week), ...range });
      grid.dataset.week = week;
      const rows = people(days);
      hint.hidden = rows.length > 0;
      const inWeek = shifts.filter((x) => x.shift_date >= week);
      const planned = new Map();
      for (const x of inWeek) {
        if (x.status !== 'cancelled') planned.set(x.user_id, (planned.get(x.user_id) || 0) + Math.round(Number(x.planned_hours) * 100));
      }
      drawState(inWeek);
      clear(grid,
        h('div', { class: 'row', role: 'row' },
          h('div', { class: 'head corner', role: 'columnheader' }, t('shifts.person')),
          days.map((d) => h('div', { class: `head${d === now ? ' today' : ''}`, role: 'columnheader', dataset: { date: d },
            'aria-current': d === now ? 'date' : null }, shortDay(d)))),
        rows.map((p, r) => h('div', { class: 'row', role: 'row', dataset: { user: p.id } },
          h('div', { class: 'name', role: 'rowheader' }, p.name,
            p.note ? h('small', {}, p.note) : null,
            h('small', { class: 'planned' }, t('shifts.planned_row', { hours: fmtNumber((planned.get(p.id) || 0) / 100) }))),
          days.map((d, c) => cell(p, d, r, c, now)))));
      drawHours(rows, inWeek, planned);
      // On a phone the grid scrolls in its box: open it at today once.
      const head = grid.querySelector('.head.today');
      if (!scrolled && head && grid.scrollWidth > grid.clientWidth) {
        grid.scrollLeft = head.offsetLeft - grid.querySelector('.corner').offsetWidth;
        scrolled = true;
      }
    }

    // drawState says what is a draft and what is unstaffed this week.
    function drawState(inWeek) {
      const drafts = inWeek.filter((x) => !x.published_at && x.status !== 'cancelled').length;
      publishButton.hidden = drafts === 0;
      publishButton.textContent = drafts === 1 ? t('shifts.publish_one') : t('shifts.publish', { n: drafts });
      planState.textContent = !inWeek.length ? '' : drafts === 0 ? t('shifts.all_published')
        : drafts === 1 ? t('shifts.drafts_one') : t('shifts.drafts', { n: drafts });
      // This week's unstaffed shifts, and every one from today on with a
      // way to its week (a disabled person's later shifts are not lost).
      const unstaffed = inWeek.filter((x) => x.unstaffed).length;
      unstaffedNote.hidden = unstaffed === 0 && upcoming.length === 0;
      clear(unstaffedNote,
        unstaffed ? h('p', {}, unstaffed === 1 ? t('shifts.unstaffed_one') : t('shifts.unstaffed_note', { n: unstaffed })) : null,
        upcoming.length ? h('p', {}, upcoming.length === 1 ? t('shifts.upcoming_one') : t('shifts.upcoming', { n: upcoming.length })) : null,
        upcoming.length ? h('ul', {}, upcoming.slice(0, 10).map((x) => h('li', {},
          h('button', { type: 'button', class: 'link', dataset: { week: mondayOf(x.shift_date) }, onclick: () => setWeek(mondayOf(x.shift_date)) },
            `${x.user_name} · ${shortDay(x.shift_date)} · ${x.start_time}–${x.end_time}`)))) : null);
    }

    // drawHours is the per-person view: planned and worked hours of the
    // week and the working-hours notices of the person's shifts.
    function drawHours(rows, inWeek, planned) {
      const worked = new Map();
      for (const e of entries) worked.set(e.user_id, (worked.get(e.user_id) || 0) + Math.round(Number(e.worked_hours) * 100));
      const list = rows.map((p) => ({ ...p, warnings: inWeek.filter((x) => x.user_id === p.id).flatMap((x) => x.warnings || []) }));
      clear(hours, h('h2', {}, t('shifts.hours_title')), table([
        { label: t('shifts.person'), cell: (p) => p.name },
        { label: t('shifts.planned'), class: 'num', cell: (p) => t('shifts.hours', { hours: fmtNumber((planned.get(p.id) || 0) / 100) }) },
        { label: t('shifts.worked'), class: 'num', cell: (p) => t('shifts.hours', { hours: fmtNumber((worked.get(p.id) || 0) / 100) }) },
        { label: t('shifts.notes_col'), cell: (p) => warningsBox(p.warnings, { withDay: true }) || t('shifts.no_notes') },
      ], list, { caption: t('shifts.hours_title'), rowAttrs: (p) => ({ dataset: { user: p.id } }) }));
    }

    async function publishWeek() {
      const n = shifts.filter((x) => x.shift_date >= week && !x.published_at && x.status !== 'cancelled').length;
      if (!(await confirmDialog(n === 1 ? t('shifts.publish_q_one') : t('shifts.publish_q', { n }), t('shifts.publish_do')))) return;
      await withBusy(publishButton, async () => {
        try {
          const res = await api.post('/api/shifts/publish', { week });
          toast(res.publish.published === 1 ? t('shifts.published_one') : t('shifts.published', { n: res.publish.published }));
          await load();
          keepFocus();
        } catch (err) {
          msg.textContent = errorText(err);
        }
      });
    }

    async function copyLastWeek() {
      await withBusy(copyButton, async () => {
        try {
          const res = await api.post('/api/shifts/copy-week', { from_week: addDays(week, -7), to_week: week });
          const c = res.copy;
          clear(copyResult, h('p', {}, t(c.copied === 1 ? 'shifts.copied_one' : 'shifts.copied', { copied: c.copied, skipped: c.skipped })),
            c.skips.length ? h('ul', {}, c.skips.map((k) => h('li', {}, t(`shifts.copy_skip.${k.reason}`,
              { name: k.user_name, day: shortDay(k.shift_date), time: `${k.start_time}–${k.end_time}` })))) : null);
          copyResult.hidden = false;
          await load();
        } catch (err) {
          msg.textContent = errorText(err);
        }
      });
    }

    // people: every active staff member, and anyone else (admins, inactive
    // or deleted users) who has a shift in the week, by name.
    function people(days) {
      const shown = new Map();
      const byId = new Map(users.map((u) => [u.id, u]));
      const person = (u) => ({ id: u.id, name: u.name, canAdd: u.is_active,
        note: !u.is_active ? t('shifts.inactive') : u.role === 'admin' ? t('shifts.admin') : '' });
      for (const u of users) if (u.is_active && u.role === 'staff') shown.set(u.id, person(u));
      const first = days[0];
      for (const s of shifts) {
        if (shown.has(s.user_id)) continue;
        if (s.shift_date < first && !reachesNextDay(s)) continue;
        const u = byId.get(s.user_id);
        shown.set(s.user_id, u ? person(u) : { id: s.user_id, name: s.user_name, canAdd: false, note: t('shifts.gone') });
      }
      return [...shown.values()].sort((a, b) => a.name.localeCompare(b.name, locale()));
    }

    function cell(p, d, r, c, now) {
      const prev = addDays(d, -1);
      const continued = shifts.filter((s) => s.user_id === p.id && s.shift_date === prev && reachesNextDay(s));
      const starting = shifts.filter((s) => s.user_id === p.id && s.shift_date === d);
      const el = h('div', { class: `cell${d === now ? ' today' : ''}`, role: 'cell', dataset: { user: p.id, date: d, row: r, col: c } },
        continued.map((s) => shiftButton(s, p, true)),
        starting.map((s) => [shiftButton(s, p, false), warningsBox(s.warnings)]),
        p.canAdd ? h('button', { type: 'button', class: 'add', 'aria-haspopup': 'dialog',
          onclick: (e) => openEditor(null, { user_id: p.id, shift_date: d }, { opener: e.currentTarget }) },
        h('span', { 'aria-hidden': 'true' }, '+'), h('span', { class: 'sr-only' }, t('shifts.add_for', { name: p.name, day: fmtDay(d) }))) : null);
      if (p.canAdd) {
        el.addEventListener('click', (e) => {
          if (e.target === el) openEditor(null, { user_id: p.id, shift_date: d }, { opener: el.querySelector('.add') });
        });
      }
      return el;
    }

    function shiftButton(s, p, continued) {
      const night = isNight(s);
      const warned = !continued && s.warnings && s.warnings.length > 0;
      const cls = ['shift', s.status !== 'pending' && s.status, night && !continued && 'night', continued && 'continued',
        !s.published_at && 'draft', s.unstaffed && 'unstaffed', warned && 'warned'].filter(Boolean).join(' ');
      return h('button', { type: 'button', class: cls, 'aria-haspopup': 'dialog', dataset: { id: s.id, status: s.status },
        onclick: (e) => openEditor(s, {}, { opener: e.currentTarget }) },
      h('span', { class: 'sr-only' }, `${p.name}, ${fmtDay(continued ? addDays(s.shift_date, 1) : s.shift_date)}: `),
      continued
        ? h('span', { class: 'time' }, h('span', { 'aria-hidden': 'true' }, '↳ '), t('shifts.until', { time: s.end_time }))
        : h('span', { class: 'time' }, `${s.start_time}–${s.end_time}`, night ? h('span', { class: 'mark', 'aria-hidden': 'true' }, ' ↷') : null),
      continued ? h('span', { class: 'sub' }, t('shifts.from_prev'),
        h('span', { class: 'sr-only' }, ` (${t('shifts.continued_sr', { day: fmtDay(s.shift_date) })})`)) : null,
      !continued && night ? h('span', { class: 'sr-only' }, ` (${t('shifts.night_sr', { time: s.end_time })})`) : null,
      s.role ? h('span', { class: 'sub role' }, s.role) : null,
      h('span', { class: 'sub status' }, t(`shifts.status.${s.status}`),
        !s.published_at ? ` · ${t('shifts.draft_mark')}` : null),
      s.unstaffed ? h('span', { class: 'sub unstaffed-mark' }, t('shifts.unstaffed')) : null,
      warned ? h('span', { class: 'warn-mark', 'aria-hidden': 'true' }, '⚠') : null,
      warned ? h('span', { class: 'sr-only' }, t('shifts.warned_sr')) : null);
    }

    // Arrow keys move between the grid's cells; Tab still visits every button.
    function arrowKeys(e) {
      const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
      if (!moves[e.key] || e.altKey || e.ctrlKey || e.metaKey || !(e.target instanceof HTMLButtonElement)) return;
      const from = e.target.closest('.cell');
      if (!from) return;
      const buttons = [...from.querySelectorAll('button')];
      const i = buttons.indexOf(e.target);
      // Up and down go through a cell's own buttons first.
      if (e.key === 'ArrowUp' && i > 0) { e.preventDefault(); buttons[i - 1].focus(); return; }
      if (e.key === 'ArrowDown' && i < buttons.length - 1) { e.preventDefault(); buttons[i + 1].focus(); return; }
      const [dr, dc] = moves[e.key];
      let r = Number(from.dataset.row) + dr;
      let c = Number(from.dataset.col) + dc;
      for (; r >= 0 && c >= 0 && c < 7; r += dr, c += dc) {
        const next = grid.querySelector(`.cell[data-row="${r}"][data-col="${c}"]`);
        if (!next) return;
        const all = next.querySelectorAll('button');
        if (all.length) { e.preventDefault(); (e.key === 'ArrowUp' ? all[all.length - 1] : all[0]).focus(); return; }
      }
    }

    // The editor: a modal dialog with the shift's form. fromDraft reopens
    // what was typed before the session ran out.
    function openEditor(shift, prefill, { opener = null, fromDraft = false } = {}) {
      closeEditor(false);
      if (!fromDraft) dropDraft(DRAFT);
      let current = shift;
      const id = shift ? shift.id : '';
      const v = { break_minutes: 0, role: '', notes: '', ...(shift || {}), ...prefill };
      const active = users.filter((u) => u.is_active).sort((a, b) => a.name.localeCompare(b.name, locale()));
      const options = [['', t('shifts.choose')], ...active.map((u) => [u.id, u.role === 'admin' ? `${u.name} (${t('shifts.admin')})` : u.name])];
      if (v.user_id && !active.some((u) => u.id === v.user_id)) options.push([v.user_id, `${v.user_name || v.user_id} (${t('shifts.inactive')})`]);
      const roles = [...new Set(shifts.map((s) => s.role).filter(Boolean))].sort();

      const title = h('h2', { id: 'editor-title' }, t(id ? 'shifts.edit_title' : 'shifts.new_title'));
      const meta = h('div', { class: 'meta', id: 'editor-meta' });
      const formError = h('p', { class: 'form-error', role: 'alert' });
      const save = h('button', { type: 'submit', class: 'save' }, t('common.save'));
      const actions = h('span', { class: 'buttons actions' });
      const notes = field({ name: 'notes', label: t('shifts.notes'), type: 'textarea', value: v.notes ?? '', attrs: { maxlength: 2000 } });
      notes.classList.add('wide');
      const form = h('form', { class: 'panel', novalidate: true, 'aria-labelledby': 'editor-title' },
        h('input', { type: 'hidden', name: 'id', value: id }),
        h('input', { type: 'hidden', name: 'from_date', value: shift && shift.shift_date ? shift.shift_date : '' }),
        field({ name: 'user_id', label: t('shifts.user'), type: 'select', options, value: v.user_id || '', required: true }),
        field({ name: 'shift_date', label: t('shifts.date'), type: 'date', value: v.shift_date || '', required: true }),
        field({ name: 'start_time', label: t('shifts.start'), type: 'time', value: v.start_time || '', required: true }),
        field({ name: 'end_time', label: t('shifts.end'), type: 'time', value: v.end_time || '', required: true, hint: t('shifts.end_hint') }),
        field({ name: 'break_minutes', label: t('shifts.break'), type: 'number', value: v.break_minutes, attrs: { min: 0, step: 1, inputmode: 'numeric' } }),
        field({ name: 'role', label: t('shifts.role'), value: v.role || '', hint: t('shifts.role_hint'), attrs: { maxlength: 50, list: 'shift-roles', autocomplete: 'off' } }),
        h('datalist', { id: 'shift-roles' }, roles.map((r) => h('option', { value: r }))),
        notes, formError,
        h('div', { class: 'buttons' }, save, actions,
          h('button', { type: 'button', class: 'secondary close', onclick: () => closeEditor(true) }, t('common.close'))));
      const dialog = h('dialog', { class: 'editor', 'aria-labelledby': 'editor-title', 'aria-describedby': 'editor-meta' }, title, meta, form);
      editor = { dialog, opener };

      function drawMeta() {
        if (!current || !current.status) { meta.hidden = true; return; }
        meta.hidden = false;
        clear(meta, current.user_name, ' · ', fmtDay(current.shift_date), ' · ',
          badge(t(`shifts.status.${current.status}`), { confirmed: 'ok', cancelled: 'bad' }[current.status] || 'neutral'),
          !current.published_at ? [' ', badge(t('shifts.draft_mark'))] : null,
          current.unstaffed ? [' ', badge(t('shifts.unstaffed'), 'bad')] : null,
          reachesNextDay(current) ? [' · ', t('shifts.night_note', { time: current.end_time })] : null,
          warningsBox(current.warnings));
      }

      function drawActions() {
        clear(actions);
        if (!id) return;
        const next = !current || !current.status ? [] :
          current.status === 'pending' ? ['confirmed', 'cancelled'] :
            current.status === 'confirmed' ? ['pending', 'cancelled'] : ['pending'];
        for (const status of next) {
          const key = current.status === 'cancelled' ? 'shifts.do_restore' : `shifts.do_${status}`;
          const b = h('button', { type: 'button', class: 'secondary', dataset: { status }, onclick: () => setStatus(b, status) }, t(key));
          actions.append(b);
        }
        const del = h('button', { type: 'button', class: 'danger delete', onclick: () => remove(del) }, t('common.delete'));
        actions.append(del);
      }

      function placeError(err) {
        if (err.status === 409 && err.code === 'shift_overlap') {
          clearErrors(form);
          // The problem's conflict names the other shift: whose and when.
          formError.textContent = errorText(err);
          const other = err.conflict;
          const text = other ? t('shifts.overlap_with', { time: `${fmtTime(other.starts_at)}–${fmtTime(other.ends_at)}`, day: fmtDay(localDate(new Date(other.starts_at))) })
            : t('shifts.overlap_field');
          for (const name of ['start_time', 'end_time']) {
            const box = form.querySelector(`[data-field="${name}"]`);
            box.querySelector('input').setAttribute('aria-invalid', 'true');
            box.querySelector('.error').textContent = text;
          }
          form.querySelector('[name=start_time]').focus();
          return;
        }
        showError(form, err);
      }

      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        const f = values(form);
        const body = {
          user_id: f.user_id, shift_date: f.shift_date, start_time: f.start_time, end_time: f.end_time,
          break_minutes: f.break_minutes === '' ? 0 : Number(f.break_minutes),
          role: f.role.trim(), notes: f.notes.trim() === '' ? null : f.notes,
        };
        await withBusy(save, async () => {
          try {
            const res = id ? await api.put(`/api/shifts/${id}`, body) : await api.post('/api/shifts', body);
            dropDraft(DRAFT);
            closeEditor(false, true);
            toast(t('common.saved'));
            const monday = mondayOf(res.shift.shift_date);
            if (monday !== week) await setWeek(monday).then(() => focusShift(res.shift.id));
            else await load(`.shift[data-id="${res.shift.id}"]:not(.continued)`);
            keepFocus();
          } catch (err) {
            placeError(err);
          }
        });
      });

      async function setStatus(button, status) {
        clearErrors(form);
        await withBusy(button, async () => {
          try {
            const res = await api.patch(`/api/shifts/${id}/status`, { status });
            current = res.shift;
            drawMeta();
            drawActions();
            (actions.querySelector('button') || save).focus();
            toast(t('shifts.status_changed', { status: t(`shifts.status.${status}`) }));
            await load();
          } catch (err) {
            placeError(err);
          }
        });
      }

      async function remove(button) {
        const s = current && current.status ? current : null;
        const question = s ? t('shifts.delete_q', { name: s.user_name, day: fmtDay(s.shift_date), time: `${s.start_time}–${s.end_time}` })
          : t('shifts.delete_plain');
        if (!(await confirmDialog(question, t('common.delete')))) return;
        await withBusy(button, async () => {
          try {
            await api.del(`/api/shifts/${id}`);
            dropDraft(DRAFT);
            const cellSel = s ? `.cell[data-user="${s.user_id}"][data-date="${s.shift_date}"] .add` : null;
            closeEditor(false, true);
            toast(t('common.deleted'));
            await load(cellSel);
            keepFocus();
          } catch (err) {
            placeError(err);
          }
        });
      }

      dialog.addEventListener('cancel', (e) => { e.preventDefault(); closeEditor(true); });
      main.append(dialog);
      drawMeta();
      drawActions();
      bindDraft(form, DRAFT);
      if (fromDraft) title.after(h('p', { class: 'notice', role: 'status' }, t('shifts.draft')));
      dialog.showModal();
      const first = prefill.user_id && prefill.shift_date ? 'start_time' : id ? 'start_time' : 'user_id';
      form.querySelector(`[name=${first}]`).focus();
    }

    // closeEditor closes the dialog; discard drops what was typed (the
    // person closed it), saved means focus goes to the result instead.
    function closeEditor(discard, saved = false) {
      if (!editor) return;
      const { dialog, opener } = editor;
      editor = null;
      if (discard) dropDraft(DRAFT);
      if (dialog.open) dialog.close();
      dialog.remove();
      if (saved) return;
      // The grid may have been drawn anew meanwhile: find the opener's twin.
      const again = opener && !opener.isConnected ? grid.querySelector(twinOf(opener)) : opener;
      if (again) again.focus();
      else keepFocus();
    }

    // twinOf is a selector for the same button in a grid drawn anew.
    function twinOf(el) {
      if (el.dataset.id) return `.shift[data-id="${el.dataset.id}"]${el.classList.contains('continued') ? '.continued' : ':not(.continued)'}`;
      const c = el.closest('.cell');
      return c ? `.cell[data-user="${c.dataset.user}"][data-date="${c.dataset.date}"] .add` : '#add-shift';
    }

    // keepFocus puts the focus on the page when what had it is gone.
    function keepFocus() {
      const el = document.activeElement;
      if (!el || el === document.body || !el.isConnected) addButton.focus();
    }

    function focusShift(shiftId) {
      const el = grid.querySelector(`.shift[data-id="${shiftId}"]:not(.continued)`);
      if (el) el.focus();
    }

    await load();
    if (draft && FIELDS.some((k) => draft[k])) {
      const known = draft.id ? shifts.find((s) => s.id === draft.id) : null;
      openEditor(known || (draft.id ? { id: draft.id } : null), {}, { fromDraft: true });
    } else if (draft) {
      dropDraft(DRAFT);
    }

    return () => {
      seq++;
      closeEditor(false, true);
    };
  },
};
