// The dashboard's card while the retention job holds old working times
// back because it doubts the box's clock (GET /api/retention,
// docs/RETENTION.md): why, in plain words, and the owner's confirmation
// that the clock is right, for exactly the day she is shown.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, toast, withBusy, confirmDialog, errorText } from '../ui.js';
import { fmtDateTime, fmtDay } from '../format.js';

addStrings({
  de: {
    'ret.title': 'Alte Arbeitszeiten werden nicht gelöscht',
    'ret.rule': 'Arbeitszeitnachweise werden sieben Jahre nach Ablauf ihres Jahres gelöscht (Lohnunterlagen). Kassendaten löscht posbox nie.',
    'ret.clock_ahead': 'Die Uhr dieses Geräts zeigt {clock}, der neueste Eintrag (Stempelung, Verkauf oder Meldung) stammt aber vom {newest}. Ginge die Uhr falsch, würden Nachweise gelöscht, die noch aufbewahrt werden müssen. Darum löscht posbox seit {since} keine.',
    'ret.clock_ahead_none': 'Die Uhr dieses Geräts zeigt {clock}. Ginge sie falsch, würden Nachweise gelöscht, die noch aufbewahrt werden müssen. Darum löscht posbox seit {since} keine.',
    'ret.cutoff_jump': 'Zuletzt wurden die Nachweise gelöscht, die vor dem {last} endeten. Nach der Uhr dieses Geräts ({clock}) wären jetzt alle fällig, die vor dem {date} endeten: mehr als ein Jahr auf einmal. Das kommt vor, wenn das Gerät lange ausgeschaltet war, oder wenn seine Uhr falsch geht. Darum löscht posbox seit {since} keine.',
    'ret.ask': 'Stimmen Datum und Uhrzeit des Geräts, bestätigen Sie es hier: Dann werden die Nachweise gelöscht, die vor dem {date} endeten. Geht die Uhr falsch, stellen Sie sie richtig; dann ist hier nichts zu tun.',
    'ret.confirm': 'Die Uhr stimmt',
    'ret.confirm_q': 'Das Gerät zeigt jetzt {clock}. Stimmt das? Dann werden innerhalb der nächsten Stunde alle Arbeitszeitnachweise endgültig gelöscht, die vor dem {date} endeten. Das lässt sich nicht rückgängig machen.',
    'ret.confirm_ok': 'Ja, die Uhr stimmt',
    'ret.confirmed': 'Bestätigt von {name} am {time}. Die Nachweise, die vor dem {date} endeten, werden innerhalb der nächsten Stunde gelöscht.',
    'ret.done': 'Bestätigt. Die alten Nachweise werden innerhalb der nächsten Stunde gelöscht.',
    'ret.section': 'Aufbewahrung', 'ret.deleted': 'Gelöscht', 'ret.deleted_before': 'Arbeitszeitnachweise, die vor dem {date} endeten',
    'ret.none_deleted': 'Noch keine', 'ret.state': 'Löschen', 'ret.running': 'läuft stündlich', 'ret.held': 'angehalten (siehe Übersicht)',
    'ret.confirmations': 'Bestätigungen der Uhr', 'ret.no_confirmations': 'Keine',
    'ret.confirmation': '{time}, {name}: Nachweise vor dem {date}',
  },
  en: {
    'ret.title': 'Old working times are not being deleted',
    'ret.rule': 'Time records are deleted seven years after the end of their year (payroll records). posbox never deletes sales records.',
    'ret.clock_ahead': 'This box\'s clock shows {clock}, but the newest record (clock-in, sale or event) is from {newest}. If the clock were wrong, records that must still be kept would be deleted. So posbox has deleted none since {since}.',
    'ret.clock_ahead_none': 'This box\'s clock shows {clock}. If it were wrong, records that must still be kept would be deleted. So posbox has deleted none since {since}.',
    'ret.cutoff_jump': 'Last time, the records that ended before {last} were deleted. By this box\'s clock ({clock}) every record that ended before {date} would now be due: more than a year at once. This happens when the box was switched off for a long time, or when its clock is wrong. So posbox has deleted none since {since}.',
    'ret.ask': 'If the box\'s date and time are right, confirm it here: the records that ended before {date} are then deleted. If the clock is wrong, set it right; then there is nothing to do here.',
    'ret.confirm': 'The clock is right',
    'ret.confirm_q': 'The box now shows {clock}. Is that right? Then every time record that ended before {date} is deleted for good within the next hour. This cannot be undone.',
    'ret.confirm_ok': 'Yes, the clock is right',
    'ret.confirmed': 'Confirmed by {name} on {time}. The records that ended before {date} are deleted within the next hour.',
    'ret.done': 'Confirmed. The old records are deleted within the next hour.',
    'ret.section': 'Retention', 'ret.deleted': 'Deleted', 'ret.deleted_before': 'Time records that ended before {date}',
    'ret.none_deleted': 'None yet', 'ret.state': 'Deleting', 'ret.running': 'runs hourly', 'ret.held': 'on hold (see the dashboard)',
    'ret.confirmations': 'Confirmations of the clock', 'ret.no_confirmations': 'None',
    'ret.confirmation': '{time}, {name}: records before {date}',
  },
});

const day = (d) => fmtDay(d, { day: '2-digit', month: '2-digit', year: 'numeric' });

// why says in words why the job holds the records back.
function why(r) {
  const hd = r.held;
  const args = { clock: fmtDateTime(r.clock), since: fmtDateTime(hd.since), date: day(hd.delete_before) };
  if (hd.reason === 'cutoff_jump') return t('ret.cutoff_jump', { ...args, last: day(hd.last_delete_before) });
  return hd.newest_record ? t('ret.clock_ahead', { ...args, newest: fmtDateTime(hd.newest_record) }) : t('ret.clock_ahead_none', args);
}

// retentionCard is the card from the settled GET /api/retention; null
// when the job trusts the clock (or the state cannot be read: the other
// cards say what is wrong). reload redraws the dashboard.
export function retentionCard(res, reload) {
  if (res.status === 'rejected' || !res.value.retention.held) return null;
  const r = res.value.retention;
  const hd = r.held;
  const card = h('section', { class: 'card', id: 'retention', dataset: { state: hd.confirmed ? 'confirmed' : 'held' } },
    h('h2', {}, t('ret.title')), h('p', { class: 'notice' }, why(r)), h('p', { class: 'muted' }, t('ret.rule')));
  if (hd.confirmed) {
    const c = r.confirmations.find((x) => x.delete_before >= hd.delete_before);
    card.append(h('p', { class: 'notice ok', id: 'retention-confirmed' },
      t('ret.confirmed', { name: c.confirmed_by_name, time: fmtDateTime(c.confirmed_at), date: day(hd.delete_before) })));
    return card;
  }
  const confirm = async (e) => {
    const btn = e.currentTarget;
    if (!await confirmDialog(t('ret.confirm_q', { clock: fmtDateTime(r.clock), date: day(hd.delete_before) }), t('ret.confirm_ok'))) return;
    await withBusy(btn, async () => {
      try {
        await api.post('/api/retention/confirm-clock', { delete_before: hd.delete_before });
        toast(t('ret.done'));
      } catch (err) {
        toast(errorText(err), 'error');
      }
      await reload();
    });
  };
  card.append(h('p', {}, t('ret.ask', { date: day(hd.delete_before) })),
    h('p', {}, h('button', { type: 'button', id: 'retention-confirm', onclick: confirm }, t('ret.confirm'))));
  return card;
}

// retentionFacts is the settings page's record of what was deleted and
// who confirmed the clock when (GET /api/retention).
export function retentionFacts(r) {
  return [h('p', { class: 'muted' }, t('ret.rule')),
    h('dl', { class: 'facts' },
      h('dt', {}, t('ret.deleted')), h('dd', { id: 'retention-deleted' }, r.deleted_before ? t('ret.deleted_before', { date: day(r.deleted_before) }) : t('ret.none_deleted')),
      h('dt', {}, t('ret.state')), h('dd', {}, r.held ? t('ret.held') : t('ret.running')),
      h('dt', {}, t('ret.confirmations')), h('dd', { id: 'retention-confirmations' }, r.confirmations.length ?
        h('ul', { class: 'plain' }, r.confirmations.map((c) => h('li', {},
          t('ret.confirmation', { time: fmtDateTime(c.confirmed_at), name: c.confirmed_by_name, date: day(c.delete_before) })))) :
        t('ret.no_confirmations')))];
}
