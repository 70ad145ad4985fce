// The time entries page's month: the MiLoG § 17 record (GET
// /api/time-entries/report?from=&to=) per staff member with the worked
// and § 3b EStG hours and the month's totals, each person's days, and the
// payroll CSV of the month (GET /api/time-entries/payroll). The figures
// are the API's; the totals add them up in hundredths of an hour, the
// API's own unit, so nothing is rounded twice (docs/TIMECLOCK.md).
import { t, addStrings, lang } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, errorText, withBusy, download, table, badge } from '../ui.js';
import { fmtDay, fmtTime, fmtNumber, localDate, addDays } from '../format.js';

addStrings({
  de: {
    'tmonth.title': 'Monat: Arbeitszeitaufzeichnung und Lohn',
    'tmonth.intro': 'Beginn, Ende und Dauer jedes Arbeitstags (Aufzeichnung nach § 17 Mindestlohngesetz, zwei Jahre aufbewahren) mit den Stunden für steuerfreie Zuschläge (§ 3b EStG).',
    'tmonth.month': 'Monat', 'tmonth.payroll': 'Lohn-CSV herunterladen',
    'tmonth.payroll_hint': 'Für Lohnbüro oder Steuerberater: eine Zeile je Mitarbeiter und Arbeitstag mit Personalnummer, Stunden und Zuschlagsstunden. Noch offene Einträge fehlen darin, bis sie geschlossen sind.',
    'tmonth.number': 'Personalnr.', 'tmonth.person': 'Mitarbeiter', 'tmonth.days': 'Arbeitstage', 'tmonth.worked': 'Arbeitszeit',
    'tmonth.surcharge': 'Zuschlagsstunden (§ 3b EStG)', 'tmonth.notes': 'Vermerke', 'tmonth.hours': '{hours} Std.',
    'tmonth.night_25': 'Nacht 25 %', 'tmonth.night_40': 'Nacht 40 %', 'tmonth.sunday_50': 'Sonntag 50 %',
    'tmonth.holiday_125': 'Feiertag 125 %', 'tmonth.holiday_150': 'Feiertag 150 %', 'tmonth.no_surcharge': 'keine',
    'tmonth.corrected_one': '1 Tag korrigiert', 'tmonth.corrected': '{n} Tage korrigiert',
    'tmonth.open': 'noch eingestempelt', 'tmonth.open_note': 'zählt bis jetzt; fehlt in der Lohn-CSV, bis ausgestempelt ist',
    'tmonth.total': 'Summe', 'tmonth.people_one': '1 Mitarbeiter', 'tmonth.people': '{n} Mitarbeiter',
    'tmonth.none': 'In diesem Monat hat niemand gearbeitet.', 'tmonth.no_state': 'Kein Bundesland eingestellt: für die Feiertagszuschläge zählen nur die bundesweiten Feiertage.',
    'tmonth.caption': 'Stunden je Mitarbeiter im {month}', 'tmonth.days_of': 'Tage von {name}: {days}, {hours} Std.',
    'tmonth.day_one': '1 Arbeitstag', 'tmonth.day_n': '{n} Arbeitstage',
    'tmonth.date': 'Datum', 'tmonth.start': 'Beginn', 'tmonth.end': 'Ende', 'tmonth.break': 'Pause', 'tmonth.minutes': '{n} Min.',
    'tmonth.entries': '{n} Einträge', 'tmonth.corrected_day': 'korrigiert', 'tmonth.open_day': 'offen',
    'tmonth.show_day': 'Tag anzeigen',
  },
  en: {
    'tmonth.title': 'Month: working time record and payroll',
    'tmonth.intro': 'Start, end and length of every working day (the record § 17 of the Minimum Wage Act asks for; keep it two years) with the hours for tax-free surcharges (§ 3b EStG).',
    'tmonth.month': 'Month', 'tmonth.payroll': 'Download payroll CSV',
    'tmonth.payroll_hint': 'For the payroll office or tax adviser: one row per staff member and working day with staff number, hours and surcharge hours. Entries still open are left out until they are closed.',
    'tmonth.number': 'Staff no.', 'tmonth.person': 'Staff member', 'tmonth.days': 'Working days', 'tmonth.worked': 'Worked',
    'tmonth.surcharge': 'Surcharge hours (§ 3b EStG)', 'tmonth.notes': 'Notes', 'tmonth.hours': '{hours} h',
    'tmonth.night_25': 'Night 25 %', 'tmonth.night_40': 'Night 40 %', 'tmonth.sunday_50': 'Sunday 50 %',
    'tmonth.holiday_125': 'Holiday 125 %', 'tmonth.holiday_150': 'Holiday 150 %', 'tmonth.no_surcharge': 'none',
    'tmonth.corrected_one': '1 day corrected', 'tmonth.corrected': '{n} days corrected',
    'tmonth.open': 'still clocked in', 'tmonth.open_note': 'counted up to now; not in the payroll CSV until clocked out',
    'tmonth.total': 'Total', 'tmonth.people_one': '1 staff member', 'tmonth.people': '{n} staff members',
    'tmonth.none': 'Nobody worked in this month.', 'tmonth.no_state': 'No federal state set: only the nationwide public holidays count for the holiday surcharges.',
    'tmonth.caption': 'Hours per staff member in {month}', 'tmonth.days_of': 'Days of {name}: {days}, {hours} h',
    'tmonth.day_one': '1 working day', 'tmonth.day_n': '{n} working days',
    'tmonth.date': 'Date', 'tmonth.start': 'Start', 'tmonth.end': 'End', 'tmonth.break': 'Break', 'tmonth.minutes': '{n} min',
    'tmonth.entries': '{n} entries', 'tmonth.corrected_day': 'corrected', 'tmonth.open_day': 'open',
    'tmonth.show_day': 'Show day',
  },
});

const KINDS = ['night_25', 'night_40', 'sunday_50', 'holiday_125', 'holiday_150'];
// Hundredths of an hour: the API's unit (its numbers have two decimals).
const cents = (n) => Math.round(Number(n) * 100);
const hours = (c) => t('tmonth.hours', { hours: fmtNumber(c / 100) });

// lastDay is the last date of the month YYYY-MM.
function lastDay(month) {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

function monthName(month) {
  return fmtDay(`${month}-01`, { month: 'long', year: 'numeric' });
}

// months are this month and the 35 before it (the record is kept two years).
function months() {
  const out = [];
  let d = `${localDate().slice(0, 7)}-01`;
  for (let i = 0; i < 36; i++) {
    out.push(d.slice(0, 7));
    d = `${addDays(d, -1).slice(0, 7)}-01`;
  }
  return out;
}

// surchargeText lists the categories with hours, or "none".
function surchargeText(s) {
  const parts = KINDS.filter((k) => cents(s[k]) > 0).map((k) => `${t(`tmonth.${k}`)}: ${hours(cents(s[k]))}`);
  return parts.length ? parts.join(' · ') : t('tmonth.no_surcharge');
}

// monthSection builds the card; openDay(date) shows a day in the list.
export function monthSection({ openDay }) {
  let month = localDate().slice(0, 7);
  let seq = 0;
  const monthField = field({ name: 'month', label: t('tmonth.month'), type: 'select', value: month,
    options: months().map((m) => [m, monthName(m)]) });
  const select = monthField.querySelector('select');
  select.addEventListener('change', () => { month = select.value; load(); });
  const payrollButton = h('button', { type: 'button', id: 'payroll-download' }, t('tmonth.payroll'));
  payrollButton.addEventListener('click', () => exportPayroll());
  const notice = h('p', { class: 'notice', id: 'month-state', hidden: true });
  const summary = h('div', { id: 'month-staff' });
  const details = h('div', { id: 'month-days' });
  const problem = h('p', { class: 'form-error', role: 'alert' });
  const card = h('section', { class: 'card time-month', id: 'month', 'aria-labelledby': 'month-heading' },
    h('h2', { id: 'month-heading' }, t('tmonth.title')),
    h('p', { class: 'muted' }, t('tmonth.intro')),
    h('div', { class: 'toolbar' }, monthField, h('div', { class: 'buttons' }, payrollButton)),
    h('p', { class: 'hint' }, t('tmonth.payroll_hint')),
    problem, notice, summary, details);

  async function load() {
    const my = ++seq;
    summary.setAttribute('aria-busy', 'true');
    try {
      const res = await api.get(`/api/time-entries/report${api.query({ from: `${month}-01`, to: lastDay(month) })}`);
      if (my !== seq) return;
      problem.textContent = '';
      draw(res.report);
    } catch (err) {
      if (my !== seq) return;
      problem.textContent = errorText(err);
      clear(summary);
      clear(details);
    } finally {
      if (my === seq) summary.removeAttribute('aria-busy');
    }
  }

  function draw(report) {
    notice.hidden = !!report.federal_state;
    notice.textContent = report.federal_state ? '' : t('tmonth.no_state');
    const staff = report.staff;
    const total = { worked: 0, days: 0, s: Object.fromEntries(KINDS.map((k) => [k, 0])) };
    for (const p of staff) {
      total.worked += cents(p.worked_hours);
      total.days += p.days.length;
      for (const k of KINDS) total.s[k] += cents(p.surcharge_hours[k]);
    }
    const rows = staff.length ? [...staff, { total: true }] : [];
    const notes = (p) => {
      const corrected = p.days.filter((d) => d.corrected).length;
      const open = p.days.some((d) => d.open);
      return h('div', { class: 'buttons' },
        corrected ? badge(corrected === 1 ? t('tmonth.corrected_one') : t('tmonth.corrected', { n: corrected })) : null,
        open ? [badge(t('tmonth.open'), 'warn'), h('small', { class: 'muted' }, t('tmonth.open_note'))] : null);
    };
    clear(summary, table([
      { label: t('tmonth.number'), cell: (p) => (p.total ? '' : p.staff_number || '–') },
      { label: t('tmonth.person'), cell: (p) => (p.total ? h('strong', {}, t('tmonth.total')) : p.user_name) },
      { label: t('tmonth.days'), class: 'num', cell: (p) => String(p.total ? total.days : p.days.length) },
      { label: t('tmonth.worked'), class: 'num worked', cell: (p) => (p.total ? h('strong', {}, hours(total.worked)) : hours(cents(p.worked_hours))) },
      { label: t('tmonth.surcharge'), cell: (p) => surchargeText(p.total ? Object.fromEntries(KINDS.map((k) => [k, total.s[k] / 100])) : p.surcharge_hours) },
      { label: t('tmonth.notes'), cell: (p) => (p.total ? (staff.length === 1 ? t('tmonth.people_one') : t('tmonth.people', { n: staff.length })) : notes(p)) },
    ], rows, {
      caption: t('tmonth.caption', { month: monthName(month) }), empty: t('tmonth.none'),
      rowAttrs: (p) => (p.total ? { class: 'total', dataset: { hours: String(total.worked / 100) } }
        : { dataset: { user: p.user_id, hours: String(cents(p.worked_hours) / 100) } }),
    }));
    clear(details, staff.map((p) => h('details', { class: 'person-days', dataset: { user: p.user_id } },
      h('summary', {}, t('tmonth.days_of', { name: p.user_name, hours: fmtNumber(cents(p.worked_hours) / 100),
        days: p.days.length === 1 ? t('tmonth.day_one') : t('tmonth.day_n', { n: p.days.length }) })),
      table([
        { label: t('tmonth.date'), cell: (d) => h('a', { href: `/time?date=${d.date}`, title: t('tmonth.show_day'),
          onclick: (e) => { e.preventDefault(); openDay(d.date); } }, fmtDay(d.date)) },
        { label: t('tmonth.start'), cell: (d) => fmtTime(d.start) },
        { label: t('tmonth.end'), cell: (d) => (d.end ? endText(d) : badge(t('tmonth.open_day'), 'warn')) },
        { label: t('tmonth.break'), class: 'num', cell: (d) => t('tmonth.minutes', { n: d.break_minutes }) },
        { label: t('tmonth.worked'), class: 'num', cell: (d) => hours(cents(d.worked_hours)) },
        { label: t('tmonth.surcharge'), cell: (d) => surchargeText(d.surcharge_hours) },
        { label: t('tmonth.notes'), cell: (d) => h('div', { class: 'buttons' },
          d.entries > 1 ? h('span', { class: 'muted' }, t('tmonth.entries', { n: d.entries })) : null,
          d.corrected ? badge(t('tmonth.corrected_day')) : null) },
      ], p.days, { caption: p.user_name }))));
  }

  // endText is the day's last clock-out, with its date when it is later.
  function endText(d) {
    const day = localDate(new Date(d.end));
    return day === d.date ? fmtTime(d.end) : `${fmtDay(day, { weekday: 'short', day: '2-digit', month: '2-digit' })} ${fmtTime(d.end)}`;
  }

  // exportPayroll saves the month's payroll CSV.
  async function exportPayroll() {
    problem.textContent = '';
    await withBusy(payrollButton, async () => {
      try {
        await download(`/api/time-entries/payroll${api.query({ from: `${month}-01`, to: lastDay(month), lang: lang() })}`);
      } catch (err) {
        problem.textContent = errorText(err);
      }
    });
  }

  return { card, load, cancel: () => { seq++; } };
}
