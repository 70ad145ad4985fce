// The dashboard's card for the database's copy off the box (GET
// /api/replica). It must not mislead: off says off; an error that
// persists or changes waiting too long say the data is not safe off the
// box. The replica's error text is the client's own (English, technical):
// it is worded here in plain words and shown only as a detail.
import { t, addStrings } from '../i18n.js';
import { h, badge, errorText } from '../ui.js';
import { fmtDateTime, fmtNumber, locale } from '../format.js';

addStrings({
  de: {
    'rep.title': 'Datensicherung außer Haus',
    'rep.off': 'Nicht eingerichtet',
    'rep.off_text': 'Alle Daten liegen nur auf diesem Gerät: Geht seine Speicherkarte kaputt, sind Kassendaten, Arbeitszeiten und TSE-Daten verloren.',
    'rep.off_howto': 'Eine laufende, verschlüsselte Kopie auf einem NAS, einem SFTP-Server oder einem S3-Speicher richten Sie mit der Einstellung replica_url ein (Handbuch: docs/REPLICATION.md).',
    'rep.ok': 'in Ordnung', 'rep.bad': 'Achtung: nicht gesichert', 'rep.waiting': 'Noch keine Kopie',
    'rep.target': 'Ziel', 'rep.last': 'Letzte Kopie', 'rep.never': 'noch keine',
    'rep.backlog': 'Noch nicht übertragen', 'rep.backlog_value': '{files} Dateien, {size}', 'rep.backlog_one': '1 Datei, {size}',
    'rep.current': 'Alles übertragen', 'rep.limit': 'Grenze {size}', 'rep.dropped': 'alles auf dem Gerät gespeichert, eine vollständige Kopie folgt',
    'rep.given_up': 'Das Ziel war zu lange nicht erreichbar (seit {time} wartet die Sicherung darauf, eine vollständige Kopie zu übertragen). Alle Verkäufe sind auf dem Gerät gespeichert; sobald das Ziel wieder erreichbar ist, wird eine vollständige Kopie übertragen. Bis dahin zeigt die Kopie außer Haus einen älteren Stand. Die Kasse arbeitet normal weiter.',
    'rep.given_up_disk': 'Der Speicher dieses Geräts ist fast voll: Am {time} wurde die Sicherung angehalten. Alle Verkäufe sind auf dem Gerät gespeichert, und die Kasse arbeitet normal weiter. Bitte Platz schaffen; danach wird automatisch eine vollständige Kopie übertragen.',
    'rep.given_up_restart': 'Das Gerät wurde am {time} gestartet; die Sicherung beginnt mit einer vollständigen Kopie. Alle Verkäufe sind auf dem Gerät gespeichert; sobald das Ziel erreichbar ist, wird eine vollständige Kopie übertragen. Die Kasse arbeitet normal weiter.',
    'rep.unsafe_error': 'Die Kopie außer Haus schlägt seit {time} fehl. Neue Daten liegen nur auf diesem Gerät und sind nicht gesichert.',
    'rep.unsafe_lag': 'Die neuesten Änderungen warten seit {duration} auf die Übertragung: Sie sind nur auf diesem Gerät.',
    'rep.first': 'Die erste Kopie ist noch nicht übertragen.',
    'rep.why_unreachable': 'Das Ziel ist nicht erreichbar. Sind NAS oder Server eingeschaltet und im Netz?',
    'rep.why_denied': 'Das Ziel lehnt den Zugang ab. Bitte Benutzer, Passwort oder Schlüssel prüfen.',
    'rep.why_missing': 'Der Zielordner fehlt. Ist das Laufwerk eingebunden?',
    'rep.why_full': 'Am Ziel ist kein Platz mehr frei.',
    'rep.why_box_full': 'Der Speicher dieses Geräts ist fast voll.',
    'rep.why_hung': 'Das Ziel antwortet nicht mehr. Hängt das NAS oder der Server, oder ist die Verbindung gestört?',
    'rep.why_not_started': 'Die Sicherung ist beim Start nicht angelaufen; sie wird beim nächsten Start erneut versucht (siehe Protokoll).',
    'rep.why_other': 'Die Übertragung ist fehlgeschlagen.',
    'rep.detail': 'Technische Einzelheiten',
    'rep.unavailable': 'Der Zustand der Sicherung ist nicht abrufbar: {reason}',
  },
  en: {
    'rep.title': 'Off-site copy',
    'rep.off': 'Not set up',
    'rep.off_text': 'All data lives on this box only: if its memory card fails, sales records, working hours and TSE data are lost.',
    'rep.off_howto': 'A continuous, encrypted copy on a NAS, an SFTP server or S3 storage is set up with the setting replica_url (handbook: docs/REPLICATION.md).',
    'rep.ok': 'healthy', 'rep.bad': 'Attention: not safe', 'rep.waiting': 'No copy yet',
    'rep.target': 'Target', 'rep.last': 'Last copy', 'rep.never': 'none yet',
    'rep.backlog': 'Not yet sent', 'rep.backlog_value': '{files} files, {size}', 'rep.backlog_one': '1 file, {size}',
    'rep.current': 'All sent', 'rep.limit': 'limit {size}', 'rep.dropped': 'all kept on this box, a complete copy follows',
    'rep.given_up': 'The target was unreachable for too long (since {time} the backup waits to send a complete copy). Every sale is kept on this box; as soon as the target can be reached again, a complete copy is sent. Until then the off-site copy shows an older state. The till works on as usual.',
    'rep.given_up_disk': 'This box\'s storage is nearly full: on {time} the copy was stopped. Every sale is kept on this box, and the till works on as usual. Please free some space; a complete copy is then sent automatically.',
    'rep.given_up_restart': 'The box started on {time}; the backup begins with a complete copy. Every sale is kept on this box; as soon as the target can be reached, a complete copy is sent. The till works on as usual.',
    'rep.unsafe_error': 'The off-site copy has been failing since {time}. New data is on this box only and not safe.',
    'rep.unsafe_lag': 'The latest changes have been waiting {duration} to be sent: they are on this box only.',
    'rep.first': 'The first copy has not been sent yet.',
    'rep.why_unreachable': 'The target cannot be reached. Are the NAS or server switched on and on the network?',
    'rep.why_denied': 'The target refuses access. Please check the user, password or key.',
    'rep.why_missing': 'The target folder is missing. Is the drive mounted?',
    'rep.why_full': 'The target has no space left.',
    'rep.why_box_full': 'This box\'s storage is nearly full.',
    'rep.why_hung': 'The target no longer answers. Is the NAS or server stuck, or the connection disturbed?',
    'rep.why_not_started': 'The copy did not start with the box; it is tried again at the next start (see the log).',
    'rep.why_other': 'Sending failed.',
    'rep.detail': 'Technical details',
    'rep.unavailable': 'The copy\'s state cannot be read: {reason}',
  },
});

// LAG_LIMIT: changes waiting longer than this are "not safe" (normally
// they leave within a second or two).
const LAG_LIMIT = 300;

// WHY maps the replica client's error text to plain words.
const WHY = [
  [/did not start/i, 'rep.why_not_started'],
  [/not answering|no progress/i, 'rep.why_hung'],
  [/no space|quota|disk full|EntityTooLarge/i, 'rep.why_full'],
  [/permission denied|access ?denied|unable to authenticate|auth|forbidden|invalidaccesskey|signaturedoesnotmatch|\b40[13]\b/i, 'rep.why_denied'],
  [/no such file|not exist|nosuchbucket|not found|\b404\b|missing/i, 'rep.why_missing'],
  [/refused|unreachable|no route|timeout|timed out|no such host|dial|connection reset|eof/i, 'rep.why_unreachable'],
];

export function plainError(text) {
  const hit = WHY.find(([re]) => re.test(text));
  return t(hit ? hit[1] : 'rep.why_other');
}

// ago: "vor 3 Sekunden" from an instant, in the console's language.
export function ago(iso, now = Date.now()) {
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' });
  for (const [unit, size] of [['day', 86400], ['hour', 3600], ['minute', 60]]) {
    if (Math.abs(s) >= size) return rtf.format(Math.round(s / size), unit);
  }
  return rtf.format(Math.min(s, 0), 'second');
}

function fmtBytes(n) {
  const [value, unit] = n >= 1 << 30 ? [n / (1 << 30), 'gigabyte'] : n >= 1 << 20 ? [n / (1 << 20), 'megabyte'] : [Math.max(n / 1024, n ? 0.1 : 0), 'kilobyte'];
  return new Intl.NumberFormat(locale(), { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

// waited: "5 Minuten" for a number of seconds.
function waited(seconds) {
  const unit = seconds >= 3600 ? ['hour', seconds / 3600] : ['minute', Math.max(1, seconds / 60)];
  return new Intl.NumberFormat(locale(), { style: 'unit', unit: unit[0], unitDisplay: 'long', maximumFractionDigits: 0 }).format(Math.floor(unit[1]));
}

// replicaCard draws the card from the settled GET /api/replica.
export function replicaCard(res) {
  const card = h('section', { class: 'card', id: 'replica' }, h('h2', {}, t('rep.title')));
  if (res.status === 'rejected') {
    card.append(h('p', {}, badge(t('rep.bad'), 'bad'), ' ', t('rep.unavailable', { reason: errorText(res.reason) })));
    return card;
  }
  const r = res.value.replica;
  if (!r.enabled) {
    card.dataset.state = 'off';
    card.append(h('p', {}, badge(t('rep.off'), 'bad')), h('p', {}, t('rep.off_text')), h('p', { class: 'muted' }, t('rep.off_howto')));
    return card;
  }
  const lagging = r.lag_seconds > LAG_LIMIT;
  const state = r.last_error || lagging || r.backlog_given_up_at ? 'bad' : r.replicated_at ? 'ok' : 'waiting';
  card.dataset.state = state;
  card.append(h('p', {}, state === 'bad' ? badge(t('rep.bad'), 'bad') : state === 'ok' ? badge(t('rep.ok'), 'ok') : badge(t('rep.waiting'), 'warn')));
  if (r.backlog_given_up_at) {
    const which = { disk_full: 'rep.given_up_disk', restart: 'rep.given_up_restart' }[r.backlog_given_up_reason] || 'rep.given_up';
    card.append(h('p', { class: 'notice bad', id: 'replica-given-up' }, t(which, { time: fmtDateTime(r.backlog_given_up_at) })));
  }
  if (r.last_error) {
    const why = r.backlog_given_up_reason === 'disk_full' ? t('rep.why_box_full') : plainError(r.last_error);
    card.append(h('p', { class: 'notice bad', id: 'replica-error' }, t('rep.unsafe_error', { time: fmtDateTime(r.error_since) }), ' ', why),
      h('details', {}, h('summary', {}, t('rep.detail')), h('code', { class: 'wrap-anywhere' }, r.last_error)));
  } else if (lagging) {
    card.append(h('p', { class: 'notice bad' }, t('rep.unsafe_lag', { duration: waited(r.lag_seconds) })));
  } else if (!r.replicated_at) {
    card.append(h('p', { class: 'muted' }, t('rep.first')));
  }
  const backlog = (r.backlog_files === 1 ? t('rep.backlog_one', { size: fmtBytes(r.backlog_bytes) }) :
    t('rep.backlog_value', { files: fmtNumber(r.backlog_files, 0), size: fmtBytes(r.backlog_bytes) })) +
    (r.backlog_limit ? ', ' + t('rep.limit', { size: fmtBytes(r.backlog_limit) }) : '');
  card.append(h('dl', { class: 'facts' },
    h('dt', {}, t('rep.target')), h('dd', { class: 'wrap-anywhere', id: 'replica-url' }, r.url),
    h('dt', {}, t('rep.last')), h('dd', { id: 'replica-last' }, r.replicated_at ?
      h('span', { title: fmtDateTime(r.replicated_at) }, ago(r.replicated_at), ' (', fmtDateTime(r.replicated_at), ')') : t('rep.never')),
    h('dt', {}, t('rep.backlog')), h('dd', { id: 'replica-backlog' }, r.backlog_given_up_at ? t('rep.dropped') : r.backlog_files ? backlog : t('rep.current'))));
  return card;
}
