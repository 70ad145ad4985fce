// Dates, times and money as the restaurant reads them: its timezone
// decides the wall clock and what "today" is; the language picks the
// locale (de-DE or en-GB: both 24-hour clocks and euros).
import { lang } from './i18n.js';

let zone = 'Europe/Berlin';

export function setZone(tz) { zone = tz; }
export function timeZone() { return zone; }
export function locale() { return lang() === 'en' ? 'en-GB' : 'de-DE'; }

const fmt = (opts) => new Intl.DateTimeFormat(locale(), { timeZone: zone, ...opts });

// fmtDateTime: 23.11.2026, 14:05 (an API instant).
export function fmtDateTime(iso) {
  if (!iso) return '';
  return fmt({ dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

// fmtTime: 14:05 (an API instant).
export function fmtTime(iso) {
  if (!iso) return '';
  return fmt({ hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

// fmtDay: Mo., 23.11.2026 for a local date YYYY-MM-DD.
export function fmtDay(date, opts = { weekday: 'short', day: '2-digit', month: '2-digit', year: 'numeric' }) {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale(), { timeZone: 'UTC', ...opts }).format(new Date(Date.UTC(y, m - 1, d)));
}

// fmtMoney: 12,50 € from a JSON number of euros (at most two decimals).
export function fmtMoney(n) {
  return new Intl.NumberFormat(locale(), { style: 'currency', currency: 'EUR' }).format(Number(n));
}

// fmtCurrency: 9,50 CHF from a JSON number in an ISO 4217 currency.
export function fmtCurrency(n, code) {
  try {
    return new Intl.NumberFormat(locale(), { style: 'currency', currency: code }).format(Number(n));
  } catch {
    return `${fmtNumber(n)} ${code}`; // a code the browser does not know
  }
}

// fmtNumber: 7,5 (hours, percentages).
export function fmtNumber(n, digits = 2) {
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: digits }).format(Number(n));
}

// localDate is the restaurant's date YYYY-MM-DD of an instant (default now).
export function localDate(at = new Date()) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

// localClock is the restaurant's wall clock HH:MM of an instant.
export function localClock(at) {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

// addDays moves a local date YYYY-MM-DD by n days (calendar days: no
// clock change can shift it).
export function addDays(date, n) {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

// mondayOf is the Monday of the week a local date lies in.
export function mondayOf(date) {
  const [y, m, d] = date.split('-').map(Number);
  const dow = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7; // Monday 0
  return addDays(date, -dow);
}

// fmtDuration: 3 h 05 min from milliseconds.
export function fmtDuration(ms) {
  const min = Math.max(0, Math.floor(ms / 60000));
  const h = Math.floor(min / 60);
  return `${h} h ${String(min % 60).padStart(2, '0')} min`;
}

// zoneOffset is the restaurant zone's offset from UTC, in ms, at an instant.
function zoneOffset(ms) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit',
    day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms));
  const get = (type) => Number(parts.find((p) => p.type === type).value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}

// instantOfLocal turns a datetime-local value (the restaurant's wall
// clock, "2026-12-01T10:00") into RFC 3339 with that zone's offset at that
// time ("2026-12-01T10:00:00+01:00"); null when it is no date and time. A
// time the autumn change brings twice is the first; one the spring change
// skips is moved forward by the gap.
export function instantOfLocal(local) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(local || '');
  if (!m) return null;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] || 0));
  // The offsets half a day before and after: one of them is right, the
  // earlier instant when the clock goes back and the time comes twice.
  const before = zoneOffset(wall - 12 * 3600000), after = zoneOffset(wall + 12 * 3600000);
  const fits = (o) => zoneOffset(wall - o) === o;
  const at = wall - (fits(before) ? before : fits(after) ? after : before);
  const off = zoneOffset(at);
  const sign = off < 0 ? '-' : '+';
  const mins = Math.abs(off) / 60000;
  return `${new Date(at + off).toISOString().slice(0, 19)}${sign}${String(Math.floor(mins / 60)).padStart(2, '0')}:${String(mins % 60).padStart(2, '0')}`;
}

// instantOf is instantOfLocal of a local date and a wall-clock time.
export function instantOf(date, clock = '00:00') { return instantOfLocal(`${date}T${clock}`); }

// wallClockOf is the datetime-local value (restaurant's wall clock) of
// an API instant.
export function wallClockOf(iso) {
  const ms = Date.parse(iso);
  return new Date(ms + zoneOffset(ms)).toISOString().slice(0, 16);
}
