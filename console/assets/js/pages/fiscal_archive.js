// The fiscal page's TSE archive: its state (the oldest record not yet
// archived, the nightly chain, failed checks), the verified TAR files to
// download, and an export of the dates an auditor names, followed until
// it is archived. API: docs/API.md section 5.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, badge, table, field, withBusy, showError, clearErrors, errorText, errorLine, toast, download } from '../ui.js';
import { fmtDateTime, fmtDay, fmtNumber, localDate } from '../format.js';
import { archiveStartSection } from './fiscal_archive_start.js';

addStrings({
  de: {
    'fiscal.archive': 'TSE-Archiv', 'fiscal.archive_none': 'Der TSE-Anbieter kann keine TAR-Dateien exportieren: auf der posbox wird nichts archiviert.',
    'fiscal.oldest': 'Ältester nicht archivierter TSE-Eintrag', 'fiscal.all_archived': 'alles archiviert',
    'fiscal.days_old': '{n} Tage alt', 'fiscal.open_exports': 'Laufende Exporte', 'fiscal.rejected': 'Bereiche mit fehlgeschlagener Prüfung',
    'fiscal.nothing_yet': 'noch keine nächtliche Datei (posbox archiviert jede Nacht)',
    'fiscal.chain': 'Nächtlich lückenlos archiviert bis Signaturzähler', 'fiscal.last_file': 'Zuletzt archivierte Datei',
    'fiscal.last_file_of': '{time} ({kind}, Signaturzähler {first} – {last})', 'fiscal.no_file': 'noch keine',
    'fiscal.finding.tar_gap': 'Lücke in den Signaturzählern', 'fiscal.finding.tar_bad_signature': 'ungültige Signatur',
    'fiscal.finding.tar_counter_order': 'Signaturzähler doppelt', 'fiscal.finding.tar_serial_mismatch': 'fremde TSE-Seriennummer',
    'fiscal.finding.tar_certificate': 'Zertifikat fehlt oder unlesbar', 'fiscal.finding.tar_malformed': 'Datei beschädigt',
    'fiscal.finding.tar_missing_transaction': 'eine signierte Transaktion fehlt', 'fiscal.finding.tar_empty': 'Export leer',
    'fiscal.finding.before_archive_start': 'vor dem festgelegten Beginn des Archivs (beim TSE-Anbieter nicht mehr vorhanden)',
    'fiscal.chain_from': '{first} – {last}', 'fiscal.chain_start': 'Nächtlich lückenlos archiviert ab dem festgelegten Beginn (Signaturzähler)',
    'fiscal.days_old_one': '1 Tag alt',
    'fiscal.warn_old': 'Der älteste noch nicht archivierte TSE-Eintrag ist {n} Tage alt. Der TSE-Anbieter löscht die Daten nach drei Monaten. Bitte die Liste unten und die Verbindung zur TSE prüfen, solange die Daten noch abrufbar sind.',
    'fiscal.warn_rejected_one': 'Ein Bereich hat die Prüfung nicht bestanden. posbox versucht es jede Nacht erneut; bis dahin liegen die Daten noch beim TSE-Anbieter (drei Monate lang). Der Grund steht in der Liste.',
    'fiscal.warn_rejected': '{n} Bereiche haben die Prüfung nicht bestanden. posbox versucht es jede Nacht erneut; bis dahin liegen die Daten noch beim TSE-Anbieter (drei Monate lang). Der Grund steht in der Liste.',
    'fiscal.archives': 'Archivierte Dateien', 'fiscal.kind': 'Art', 'fiscal.kind.incremental': 'nächtlich', 'fiscal.kind.dates': 'Zeitraum',
    'fiscal.counters': 'Signaturzähler', 'fiscal.log_times': 'Erster / letzter Eintrag', 'fiscal.state': 'Zustand',
    'fiscal.state.pending': 'wartet', 'fiscal.state.exporting': 'wird exportiert', 'fiscal.state.verifying': 'wird geprüft',
    'fiscal.state.archived': 'archiviert', 'fiscal.state.failed': 'fehlgeschlagen',
    'fiscal.verification': 'Prüfung', 'fiscal.passed': 'bestanden', 'fiscal.failed': 'nicht bestanden',
    'fiscal.file': 'Datei (Größe, SHA-256)', 'fiscal.download': 'Herunterladen', 'fiscal.no_archives': 'Noch keine Archivdateien.',
    'fiscal.download_file': '{file} herunterladen',
    'fiscal.export_dates': 'Zeitraum jetzt exportieren',
    'fiscal.export_hint': 'Eine TAR-Datei genau für die Tage, die der Prüfer nennt (der TSE-Anbieter hält drei Monate; ältere Tage stehen in den nächtlichen Dateien). Sie ist meist nach einer Minute fertig.',
    'fiscal.export_start': 'Export starten', 'fiscal.export_started': 'Der Export läuft; die Zeile zeigt, wann er fertig ist.',
    'fiscal.export_done': 'Der Export ist archiviert und geprüft.', 'fiscal.export_failed': 'Der Export ist fehlgeschlagen: {reason}',
  },
  en: {
    'fiscal.archive': 'TSE archive', 'fiscal.archive_none': 'The TSE provider cannot export TAR files: nothing is archived on the posbox.',
    'fiscal.oldest': 'Oldest TSE record not yet archived', 'fiscal.all_archived': 'everything archived',
    'fiscal.days_old': '{n} days old', 'fiscal.open_exports': 'Exports running', 'fiscal.rejected': 'Ranges that failed verification',
    'fiscal.nothing_yet': 'no nightly file yet (posbox archives every night)',
    'fiscal.chain': 'Archived nightly without gaps up to signature counter', 'fiscal.last_file': 'Last archived file',
    'fiscal.last_file_of': '{time} ({kind}, signature counters {first} – {last})', 'fiscal.no_file': 'none yet',
    'fiscal.finding.tar_gap': 'gap in the signature counters', 'fiscal.finding.tar_bad_signature': 'bad signature',
    'fiscal.finding.tar_counter_order': 'signature counter repeated', 'fiscal.finding.tar_serial_mismatch': 'another TSE\'s serial number',
    'fiscal.finding.tar_certificate': 'certificate missing or unreadable', 'fiscal.finding.tar_malformed': 'file damaged',
    'fiscal.finding.tar_missing_transaction': 'a signed transaction is missing', 'fiscal.finding.tar_empty': 'export empty',
    'fiscal.finding.before_archive_start': 'before the archive\'s declared start (no longer held by the TSE provider)',
    'fiscal.chain_from': '{first} – {last}', 'fiscal.chain_start': 'Archived nightly without gaps from the declared start (signature counters)',
    'fiscal.days_old_one': '1 day old',
    'fiscal.warn_old': 'The oldest TSE record not yet archived is {n} days old. The TSE provider deletes its data after three months. Please check the list below and the connection to the TSE while the data can still be fetched.',
    'fiscal.warn_rejected_one': 'One range failed verification. posbox tries again every night; until then the data is still held by the TSE provider (for three months). The list says why.',
    'fiscal.warn_rejected': '{n} ranges failed verification. posbox tries again every night; until then the data is still held by the TSE provider (for three months). The list says why.',
    'fiscal.archives': 'Archived files', 'fiscal.kind': 'Kind', 'fiscal.kind.incremental': 'nightly', 'fiscal.kind.dates': 'dates',
    'fiscal.counters': 'Signature counters', 'fiscal.log_times': 'First / last record', 'fiscal.state': 'State',
    'fiscal.state.pending': 'waiting', 'fiscal.state.exporting': 'exporting', 'fiscal.state.verifying': 'verifying',
    'fiscal.state.archived': 'archived', 'fiscal.state.failed': 'failed',
    'fiscal.verification': 'Verification', 'fiscal.passed': 'passed', 'fiscal.failed': 'failed',
    'fiscal.file': 'File (size, SHA-256)', 'fiscal.download': 'Download', 'fiscal.no_archives': 'No archive files yet.',
    'fiscal.download_file': 'Download {file}',
    'fiscal.export_dates': 'Export these dates now',
    'fiscal.export_hint': 'One TAR file for exactly the days the auditor names (the TSE provider keeps three months; older days are in the nightly files). It is usually ready within a minute.',
    'fiscal.export_start': 'Start export', 'fiscal.export_started': 'The export is running; its row shows when it is ready.',
    'fiscal.export_done': 'The export is archived and verified.', 'fiscal.export_failed': 'The export failed: {reason}',
  },
});

// fmtBytes: 17 KB, 2,4 MB.
function fmtBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${fmtNumber(n / 1024, 0)} KB`;
  return `${fmtNumber(n / 1024 / 1024, 1)} MB`;
}

const stateKind = { archived: 'ok', failed: 'bad' };

// A dates export's period: its first and last local day.
function period(a) {
  const short = { day: '2-digit', month: '2-digit', year: 'numeric' };
  const first = localDate(new Date(a.period_start)), last = localDate(new Date(Date.parse(a.period_end) - 1));
  return first === last ? fmtDay(first, short) : `${fmtDay(first, short)} – ${fmtDay(last, short)}`;
}

// finding says why a file failed its check, by its code; the API's
// sentence (English, for technicians) only for a code not known here.
function finding(a) { const k = `fiscal.finding.${a.reason_code}`; const s = t(k); return s === k ? a.reason : s; }

// archiveSection is the archive's card; load fetches its state and
// files, stop ends the following of exports (the page's cleanup).
export function archiveSection({ today, monthStart, readOnly = false }) {
  let archives = [];
  const watching = new Set();
  let poll = null;
  let gone = false;

  const stateBox = h('div', { id: 'archive-state', 'aria-live': 'polite' });
  const archiveList = h('div', { id: 'archive-list' });
  const exportButton = h('button', { type: 'submit' }, t('fiscal.export_start'));
  const exportForm = h('form', { class: 'panel export', id: 'archive-export', novalidate: true, 'aria-labelledby': 'archive-export-heading' },
    field({ name: 'from', label: t('common.from'), type: 'date', value: monthStart, required: true }),
    field({ name: 'to', label: t('common.to'), type: 'date', value: today, required: true }),
    h('p', { class: 'form-error', role: 'alert' }),
    h('div', { class: 'buttons' }, exportButton));
  exportForm.addEventListener('submit', (e) => { e.preventDefault(); exportDates(); });

  let archiveState;
  function showArchiveState(a) {
    archiveState = a;
    if (!a) { clear(stateBox, h('p', { class: 'notice' }, t('fiscal.archive_none'))); return; }
    const warnings = [];
    if (a.oldest_unarchived_days >= 60) warnings.push(t('fiscal.warn_old', { n: a.oldest_unarchived_days }));
    if (a.rejected_ranges > 0) warnings.push(t(a.rejected_ranges === 1 ? 'fiscal.warn_rejected_one' : 'fiscal.warn_rejected', { n: a.rejected_ranges }));
    // The API's `warning` says the same two things in English; the console
    // words them itself from the numbers above.
    clear(stateBox,
      warnings.length ? h('div', { id: 'archive-warning', role: 'alert' }, warnings.map((w) => h('p', { class: 'notice' }, w))) : null,
      h('dl', { class: 'facts' },
        h('dt', {}, t('fiscal.oldest')),
        h('dd', { id: 'archive-oldest' }, a.oldest_unarchived_at
          ? [fmtDateTime(a.oldest_unarchived_at), ' ', badge(t('fiscal.days_old', { n: a.oldest_unarchived_days }), a.oldest_unarchived_days >= 60 ? 'bad' : 'neutral')]
          : badge(t('fiscal.all_archived'), 'ok')),
        // The chain counts the nightly files only; an export of dates
        // is a file of its own, so the last file is read from the list.
        // From a declared start on, the chain counts from there.
        h('dt', {}, t(a.start ? 'fiscal.chain_start' : 'fiscal.chain')), h('dd', { id: 'archive-chain' }, chainText(a)),
        h('dt', {}, t('fiscal.last_file')), h('dd', { id: 'archive-last-file' }, lastFile()),
        h('dt', {}, t('fiscal.open_exports')), h('dd', {}, String(a.open_exports)),
        h('dt', {}, t('fiscal.rejected')), h('dd', {}, a.rejected_ranges ? badge(String(a.rejected_ranges), 'bad') : '0')));
  }

  function chainText(a) {
    const first = a.start ? a.start.first_signature_counter : 1;
    if (a.last_archived_counter < first) return t('fiscal.nothing_yet');
    return a.start ? t('fiscal.chain_from', { first, last: a.last_archived_counter }) : String(a.last_archived_counter);
  }

  // lastFile is the newest archived file of any kind, in words.
  function lastFile() {
    const done = archives.filter((x) => x.state === 'archived' && x.archived_at);
    if (!done.length) return t('fiscal.no_file');
    const a = done.reduce((m, x) => (x.archived_at > m.archived_at ? x : m));
    return t('fiscal.last_file_of', { time: fmtDateTime(a.archived_at), kind: t(`fiscal.kind.${a.kind}`),
      first: a.first_signature_counter, last: a.last_signature_counter });
  }

  async function loadArchiveState() {
    try {
      showArchiveState((await api.get('/api/tse/status')).status.archive);
    } catch (err) {
      clear(stateBox, errorLine(err));
    }
  }

  function drawArchives() {
    clear(archiveList, table([
      { label: t('fiscal.kind'), cell: (a) => a.kind === 'dates' ? [t('fiscal.kind.dates'), h('br'), h('span', { class: 'small-text' }, period(a))] : t('fiscal.kind.incremental') },
      { label: t('fiscal.counters'), class: 'num', cell: (a) => a.first_signature_counter === null ? '–' : `${a.first_signature_counter} – ${a.last_signature_counter}` },
      { label: t('fiscal.log_times'), cell: (a) => a.first_log_time ? [fmtDateTime(a.first_log_time), h('br'), fmtDateTime(a.last_log_time)] : '–' },
      { label: t('fiscal.state'), cell: (a) => h('span', { class: 'archive-state' }, badge(t(`fiscal.state.${a.state}`), stateKind[a.state] || 'warn')) },
      { label: t('fiscal.verification'), cell: (a) => [
        a.verification === 'passed' ? badge(t('fiscal.passed'), 'ok') : a.verification === 'failed' ? badge(t('fiscal.failed'), 'bad') : null,
        a.reason ? h('span', { class: 'error-text small-text wrap-anywhere reason' }, ' ', finding(a)) : null] },
      // The size, and the SHA-256 shortened; its full value opens below.
      { label: t('fiscal.file'), cell: (a) => a.sha256 ? [h('span', { class: 'nowrap' }, fmtBytes(a.size_bytes)), h('details', { class: 'secret' },
        h('summary', { title: a.sha256 }, h('span', { class: 'sr-only' }, 'SHA-256 '), h('span', { class: 'id-text' }, `${a.sha256.slice(0, 12)}…`)),
        h('code', { class: 'sha256' }, a.sha256))] : '' },
      { label: t('common.actions'), cell: (a) => a.state !== 'archived' ? '' : h('button', { type: 'button', class: 'secondary small download',
        'aria-label': t('fiscal.download_file', { file: a.file_name }), onclick: (e) => downloadFile(e.currentTarget, `/api/tse/archives/${a.id}/file`) }, t('fiscal.download')) },
    ], archives, { caption: t('fiscal.archives'), empty: t('fiscal.no_archives'), rowAttrs: (a) => ({ dataset: { id: a.id, state: a.state } }) }));
  }

  async function loadArchives() {
    try {
      archives = (await api.get('/api/tse/archives')).archives;
      drawArchives();
      if (archiveState !== undefined) showArchiveState(archiveState);
      // An export of dates still running (started before a reload or a
      // change of language) is followed again.
      for (const a of archives) if (a.kind === 'dates' && !['archived', 'failed'].includes(a.state)) watch(a.id);
    } catch (err) {
      clear(archiveList, errorLine(err));
    }
  }

  async function exportDates() {
    clearErrors(exportForm);
    const from = exportForm.elements.from.value, to = exportForm.elements.to.value;
    await withBusy(exportButton, async () => {
      try {
        const { archive } = await api.post('/api/tse/archives', { from, to });
        toast(t('fiscal.export_started'));
        await loadArchives();
        if (!archives.some((a) => a.id === archive.id)) { archives.push(archive); drawArchives(); }
        watch(archive.id);
      } catch (err) {
        showError(exportForm, err);
      }
    });
  }

  // watch follows an export of dates until it is archived or failed:
  // its row is asked for every 2 s (one round after the other, never
  // overlapping) and the list redrawn only when something changed, so
  // an opened SHA-256 or a focused button stays as it is.
  function watch(id) {
    watching.add(id);
    if (!poll) poll = setTimeout(tick, 2000);
  }

  async function tick() {
    let changed = false;
    for (const id of [...watching]) {
      let a;
      try {
        a = (await api.get(`/api/tse/archives/${id}`)).archive;
      } catch (err) {
        if (err.status !== 0) watching.delete(id); // a network blip is tried again
        continue;
      }
      if (gone) return;
      const i = archives.findIndex((x) => x.id === id);
      if (i < 0 || JSON.stringify(archives[i]) !== JSON.stringify(a)) changed = true;
      if (i >= 0) archives[i] = a; else archives.push(a);
      if (a.state === 'archived' || a.state === 'failed') {
        watching.delete(id);
        if (a.state === 'archived') toast(t('fiscal.export_done'));
        else toast(t('fiscal.export_failed', { reason: finding(a) || '' }), 'error');
        loadArchiveState();
      }
    }
    if (gone) return;
    if (changed) drawArchives();
    poll = watching.size ? setTimeout(tick, 2000) : null;
  }

  async function downloadFile(button, path) {
    await withBusy(button, async () => {
      try {
        await download(path);
      } catch (err) {
        toast(errorText(err), 'error');
      }
    });
  }

  const start = archiveStartSection(() => Promise.all([loadArchiveState(), loadArchives()]), { readOnly });
  const card = h('section', { class: 'card', id: 'fiscal-archive', 'aria-labelledby': 'archive-heading' },
    h('h2', { id: 'archive-heading' }, t('fiscal.archive')), stateBox, start.el,
    h('h3', {}, t('fiscal.archives')), archiveList,
    // An export asks the TSE for one: not for the auditor's read-only view.
    readOnly ? null : [h('h3', { id: 'archive-export-heading' }, t('fiscal.export_dates')), h('p', { class: 'muted' }, t('fiscal.export_hint')), exportForm]);
  return {
    card,
    load: () => Promise.all([loadArchiveState(), loadArchives(), start.load()]),
    stop: () => { gone = true; clearTimeout(poll); },
  };
}
