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

// instantOf is the API instant (RFC 3339 with the offset) of a wall-clock
// time on a local date in the restaurant's timezone. A time that a clock
// change skips is read with the offset before the change, as the server
// reads shifts.
export function instantOf(date, clock = '00:00') {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = clock.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // The zone's offset at a guess, then at the result (two rounds settle).
  let at = wall - offsetAt(wall);
  at = wall - offsetAt(at);
  const off = offsetAt(at);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off) / 60000;
  const pad = (n) => String(n).padStart(2, '0');
  return `${date}T${pad(hh)}:${pad(mm)}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// offsetAt is the restaurant zone's UTC offset in milliseconds at an instant.
function offsetAt(ms) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric',
    month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const asUTC = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return asUTC - Math.floor(ms / 1000) * 1000;
}
