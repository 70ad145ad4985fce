// Labour-law (ArbZG) warnings in words the owner reads, German first:
// each warning's code and its numbers (the API's params, docs/TIMECLOCK.md)
// make one sentence with the rule. Shown as a <details> whose summary is a
// visible marker: a tap (or Enter) opens the list, no hover needed.
import { t, addStrings } from './i18n.js';
import { h } from './ui.js';
import { fmtDay } from './format.js';

addStrings({
  de: {
    'labour.break': 'Pause zu kurz: {brk} Pause bei {worked} Arbeit – bei mehr als {over} Std. Arbeit sind mindestens {need} Min. nötig (ArbZG § 4)',
    'labour.daily': '{worked} Arbeit an einem Tag – höchstens {max} Std. erlaubt (ArbZG § 3)',
    'labour.rest': 'Ruhezeit nur {rest} – mindestens {need} Std. nötig (ArbZG § 5)',
    'labour.other': 'Hinweis zum Arbeitszeitgesetz',
    'labour.one': '⚠ 1 Hinweis Arbeitszeit', 'labour.many': '⚠ {n} Hinweise Arbeitszeit',
    'labour.on': '{day}: {text}',
    'labour.h': '{h} Std.', 'labour.hm': '{h} Std. {m} Min.', 'labour.m': '{m} Min.',
  },
  en: {
    'labour.break': 'Break too short: {brk} of break for {worked} of work – more than {over} h of work needs at least {need} min (ArbZG § 4)',
    'labour.daily': '{worked} of work in one day – at most {max} h allowed (ArbZG § 3)',
    'labour.rest': 'Rest only {rest} – at least {need} h required (ArbZG § 5)',
    'labour.other': 'Working hours act notice',
    'labour.one': '⚠ 1 working-hours notice', 'labour.many': '⚠ {n} working-hours notices',
    'labour.on': '{day}: {text}',
    'labour.h': '{h} h', 'labour.hm': '{h} h {m} min', 'labour.m': '{m} min',
  },
});

// duration words minutes: 10 Std., 9 Std. 30 Min., 45 Min.
export function duration(minutes) {
  const n = Math.max(0, Math.round(Number(minutes) || 0));
  const hh = Math.floor(n / 60);
  const mm = n % 60;
  if (!hh) return t('labour.m', { m: mm });
  return mm ? t('labour.hm', { h: hh, m: mm }) : t('labour.h', { h: hh });
}

// warningText is one warning as a sentence with its numbers and rule.
export function warningText(w) {
  const p = w.params || {};
  switch (w.code) {
    case 'break_too_short':
      return t('labour.break', { brk: duration(p.break_minutes), worked: duration(p.worked_minutes), over: p.over_hours, need: p.required_minutes });
    case 'daily_max_exceeded':
      return t('labour.daily', { worked: duration(p.worked_minutes), max: p.max_hours });
    case 'rest_too_short':
      return t('labour.rest', { rest: duration(p.rest_minutes), need: p.required_hours });
    default:
      return t('labour.other');
  }
}

// uniqueWarnings drops repeats (one rest warning concerns two shifts).
export function uniqueWarnings(ws) {
  const seen = new Set();
  return ws.filter((w) => {
    const k = `${w.code} ${w.date}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

// warningsBox is the touch-readable marker with its list, or null when
// there is nothing to say. withDay names each warning's working day.
export function warningsBox(ws, { withDay = false } = {}) {
  if (!ws || !ws.length) return null;
  const list = uniqueWarnings(ws);
  return h('details', { class: 'labour' },
    h('summary', {}, list.length === 1 ? t('labour.one') : t('labour.many', { n: list.length })),
    h('ul', {}, list.map((w) => h('li', { dataset: { code: w.code } },
      withDay ? t('labour.on', { day: fmtDay(w.date, { weekday: 'short', day: '2-digit', month: '2-digit' }), text: warningText(w) }) : warningText(w)))));
}
