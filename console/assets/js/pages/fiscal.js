// Fiscal records, what an owner hands over at a cash audit: the TSE
// archive (its state, the verified TAR files, an export of dates), the
// daily closings, the DSFinV-K export and the §146a registration (master
// data and the printable report). API: docs/API.md section 5; what the
// records are: docs/FISCAL.md.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, badge, table, field, withBusy, showError, clearErrors, errorText, errorLine, toast, confirmDialog, bindDraft, readDraft, dropDraft, download } from '../ui.js';
import { fmtDateTime, fmtDay, fmtMoney, fmtNumber, localDate, addDays } from '../format.js';

addStrings({
  de: {
    'fiscal.title': 'Steuerdaten',
    'fiscal.intro': 'Alles, was bei einer Kassennachschau übergeben wird: das TSE-Archiv, die Tagesabschlüsse, der DSFinV-K-Export und die Meldung nach §146a AO.',
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
    'fiscal.no_registers_sold': 'Noch keine Kasse hat verkauft.', 'fiscal.register_last_sale': '{register} (letzter Verkauf {day})',
    'fiscal.register_decommissioned': '{register} (außer Betrieb)',
    'fiscal.simulated': 'Keine zertifizierte TSE: Der Simulator signiert, die Belege sind steuerlich nicht gültig, und er darf nicht gemeldet werden. Richten Sie die TSE von fiskaly ein (Anleitung in docs/TSE.md, Befehl „posbox tse setup“) und melden Sie dann diese.',
    'fiscal.missing.simulated': 'Eine zertifizierte TSE: Der Simulator ist keine (docs/TSE.md, „posbox tse setup“).',
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
    'fiscal.closings': 'Tagesabschlüsse', 'fiscal.register': 'Kasse', 'fiscal.business_day': 'Geschäftstag', 'fiscal.z_nr': 'Z-Nr.',
    'fiscal.tx_count': 'Vorgänge', 'fiscal.total': 'Umsatz', 'fiscal.cash': 'Bar', 'fiscal.per_rate': 'Je Steuersatz',
    'fiscal.taken': 'Erstellt', 'fiscal.automatic': 'automatisch', 'fiscal.no_closings': 'Keine Abschlüsse in diesem Zeitraum.',
    'fiscal.take_closing': 'Heutigen Abschluss erstellen',
    'fiscal.take_hint': 'Normalerweise erstellt die Kasse den Abschluss am Ende des Tages, sonst posbox am nächsten Morgen. Hier nur, wenn die Kasse es nicht konnte: Der Abschluss umfasst alle noch nicht abgeschlossenen Verkäufe dieser Kasse bis jetzt und kann nicht geändert werden.',
    'fiscal.client_serial': 'Kasse (Seriennummer)', 'fiscal.take': 'Abschluss erstellen', 'fiscal.closing_register': 'Kasse',
    'fiscal.take_confirm': 'Tagesabschluss für {register} jetzt erstellen? Er kann nicht geändert werden.',
    'fiscal.taken_msg': 'Abschluss Z-Nr. {z} für {register} erstellt.',
    'fiscal.closing_empty': 'Für {register} gibt es nichts abzuschließen: Jeder Verkauf dieser Kasse steht schon in einem Abschluss.',
    'fiscal.dsfinvk': 'DSFinV-K-Export',
    'fiscal.dsfinvk_hint': 'Eine ZIP-Datei mit den Abschlüssen, deren Geschäftstag im Zeitraum liegt, für die Prüfsoftware des Finanzamts. Nur abgeschlossene Tage sind enthalten.',
    'fiscal.download_zip': 'ZIP herunterladen',
    'fiscal.registration': 'Meldung an das Finanzamt (§146a AO)',
    'fiscal.registration_hint': 'Was das ELSTER-Formular „Mitteilung über elektronische Aufzeichnungssysteme“ fragt. Kassen, die verkauft haben, und die TSE kennt posbox selbst; der Rest steht in den Stammdaten.',
    'fiscal.complete': 'Vollständig: Die Meldung kann übernommen werden.', 'fiscal.missing': 'Noch auszufüllen:',
    'fiscal.missing.business_name': 'Name des Unternehmens', 'fiscal.missing.address': 'Anschrift (Straße, PLZ, Ort)',
    'fiscal.missing.tax_number': 'Steuernummer oder USt-IdNr.', 'fiscal.missing.register_kind': 'Kasse {register}: Art, Marke und Modell',
    'fiscal.missing.register_acquired': 'Kasse {register}: Anschaffungsdatum',
    'fiscal.missing.bsi': 'Die BSI-Zertifizierungs-ID der TSE: Der Anbieter meldet keine (ein Simulator?); bei fiskaly erfragen.',
    'fiscal.print': 'Meldung zum Drucken öffnen', 'fiscal.print_blocked': 'Das Fenster wurde blockiert: hier öffnen.',
    'fiscal.master': 'Stammdaten', 'fiscal.business': 'Unternehmen', 'fiscal.location': 'Betriebsstätte',
    'fiscal.location_hint': 'Leer: die Anschrift des Unternehmens.',
    'fiscal.business_name': 'Name', 'fiscal.street': 'Straße', 'fiscal.postcode': 'PLZ', 'fiscal.city': 'Ort',
    'fiscal.country': 'Land (ISO, z. B. DEU)', 'fiscal.tax_number': 'Steuernummer', 'fiscal.vat_id': 'USt-IdNr.',
    'fiscal.tse_dates': 'TSE', 'fiscal.tse_dates_hint': 'Nur nötig, wenn posbox die Daten nicht kennen kann (eine TSE, die vorher anderswo lief).',
    'fiscal.tse_in': 'In Betrieb seit', 'fiscal.tse_out': 'Außer Betrieb seit',
    'fiscal.registers': 'Kassen', 'fiscal.register_n': 'Kasse {n}', 'fiscal.type': 'Art (z. B. Tablet-Kassensystem)',
    'fiscal.brand': 'Marke', 'fiscal.model': 'Modell', 'fiscal.software_brand': 'Software (leer: posbox)',
    'fiscal.software_version': 'Softwareversion', 'fiscal.acquired_on': 'Angeschafft am', 'fiscal.in_service_on': 'In Betrieb seit',
    'fiscal.decommissioned_on': 'Außer Betrieb seit', 'fiscal.add_register': 'Kasse hinzufügen', 'fiscal.remove_register': 'Kasse {n} entfernen',
    'fiscal.no_registers': 'Keine Kassen eingetragen.', 'fiscal.saved': 'Die Stammdaten sind gespeichert.',
  },
  en: {
    'fiscal.title': 'Fiscal records',
    'fiscal.intro': 'Everything handed over at a cash audit: the TSE archive, the daily closings, the DSFinV-K export and the §146a AO registration.',
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
    'fiscal.no_registers_sold': 'No register has sold yet.', 'fiscal.register_last_sale': '{register} (last sale {day})',
    'fiscal.register_decommissioned': '{register} (out of service)',
    'fiscal.simulated': 'No certified TSE: the simulator signs, receipts are not valid for tax purposes, and it must not be registered. Set up the fiskaly TSE (instructions in docs/TSE.md, command "posbox tse setup") and register that one.',
    'fiscal.missing.simulated': 'A certified TSE: the simulator is none (docs/TSE.md, "posbox tse setup").',
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
    'fiscal.closings': 'Daily closings', 'fiscal.register': 'Register', 'fiscal.business_day': 'Business day', 'fiscal.z_nr': 'Z no.',
    'fiscal.tx_count': 'Transactions', 'fiscal.total': 'Total', 'fiscal.cash': 'Cash', 'fiscal.per_rate': 'Per VAT rate',
    'fiscal.taken': 'Taken', 'fiscal.automatic': 'automatic', 'fiscal.no_closings': 'No closings in this range.',
    'fiscal.take_closing': 'Take today\'s closing',
    'fiscal.take_hint': 'Normally the till takes the closing at the end of the day, otherwise posbox does the next morning. Use this only when the till could not: the closing covers every sale of this register not yet closed, up to now, and cannot be changed.',
    'fiscal.client_serial': 'Register (serial)', 'fiscal.take': 'Take closing', 'fiscal.closing_register': 'Register',
    'fiscal.take_confirm': 'Take the daily closing of {register} now? It cannot be changed.',
    'fiscal.taken_msg': 'Closing Z no. {z} of {register} taken.',
    'fiscal.closing_empty': 'There is nothing to close for {register}: every sale of this register is already in a closing.',
    'fiscal.dsfinvk': 'DSFinV-K export',
    'fiscal.dsfinvk_hint': 'A ZIP file with the closings whose business day lies in the range, for the tax office\'s audit software. Only closed days are in it.',
    'fiscal.download_zip': 'Download ZIP',
    'fiscal.registration': 'Registration with the tax office (§146a AO)',
    'fiscal.registration_hint': 'What the ELSTER form "Mitteilung über elektronische Aufzeichnungssysteme" asks. posbox knows the registers that sold and the TSE itself; the rest is in the master data.',
    'fiscal.complete': 'Complete: the registration can be copied.', 'fiscal.missing': 'Still to fill in:',
    'fiscal.missing.business_name': 'Business name', 'fiscal.missing.address': 'Address (street, postcode, city)',
    'fiscal.missing.tax_number': 'Tax number or VAT ID', 'fiscal.missing.register_kind': 'Register {register}: type, brand and model',
    'fiscal.missing.register_acquired': 'Register {register}: date acquired',
    'fiscal.missing.bsi': 'The TSE\'s BSI certification ID: the provider reports none (a simulator?); ask fiskaly.',
    'fiscal.print': 'Open the printable report', 'fiscal.print_blocked': 'The window was blocked: open it here.',
    'fiscal.master': 'Master data', 'fiscal.business': 'Business', 'fiscal.location': 'Location (Betriebsstätte)',
    'fiscal.location_hint': 'Empty: the business address.',
    'fiscal.business_name': 'Name', 'fiscal.street': 'Street', 'fiscal.postcode': 'Postcode', 'fiscal.city': 'City',
    'fiscal.country': 'Country (ISO, e.g. DEU)', 'fiscal.tax_number': 'Tax number', 'fiscal.vat_id': 'VAT ID',
    'fiscal.tse_dates': 'TSE', 'fiscal.tse_dates_hint': 'Only needed when posbox cannot know them (a TSE that was used elsewhere before).',
    'fiscal.tse_in': 'In service since', 'fiscal.tse_out': 'Out of service since',
    'fiscal.registers': 'Registers', 'fiscal.register_n': 'Register {n}', 'fiscal.type': 'Type (e.g. Tablet-Kassensystem)',
    'fiscal.brand': 'Brand', 'fiscal.model': 'Model', 'fiscal.software_brand': 'Software (empty: posbox)',
    'fiscal.software_version': 'Software version', 'fiscal.acquired_on': 'Acquired on', 'fiscal.in_service_on': 'In service since',
    'fiscal.decommissioned_on': 'Decommissioned on', 'fiscal.add_register': 'Add register', 'fiscal.remove_register': 'Remove register {n}',
    'fiscal.no_registers': 'No registers listed.', 'fiscal.saved': 'The master data is saved.',
  },
});

const VAT = { NORMAL: '19 %', REDUCED_1: '7 %', SPECIAL_RATE_1: '10,7 %', SPECIAL_RATE_2: '5,5 %', NULL: '0 %' };
const REGISTER_FIELDS = [
  ['client_serial', 'fiscal.client_serial', 'text', { maxlength: 70 }], ['type', 'fiscal.type', 'text', { maxlength: 50 }],
  ['brand', 'fiscal.brand', 'text', { maxlength: 50 }], ['model', 'fiscal.model', 'text', { maxlength: 50 }],
  ['software_brand', 'fiscal.software_brand', 'text', { maxlength: 50 }], ['software_version', 'fiscal.software_version', 'text', { maxlength: 50 }],
  ['acquired_on', 'fiscal.acquired_on', 'date'], ['in_service_on', 'fiscal.in_service_on', 'date'], ['decommissioned_on', 'fiscal.decommissioned_on', 'date'],
];
const TOP_FIELDS = ['business_name', 'street', 'postcode', 'city', 'country', 'tax_number', 'vat_id', 'location_name', 'location_street',
  'location_postcode', 'location_city', 'location_country', 'tse_in_service_on', 'tse_out_of_service_on'];
const DATE_FIELDS = ['tse_in_service_on', 'tse_out_of_service_on', 'acquired_on', 'in_service_on', 'decommissioned_on'];
const DRAFT = 'fiscal-master';

// fmtBytes: 17 KB, 2,4 MB.
function fmtBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${fmtNumber(n / 1024, 0)} KB`;
  return `${fmtNumber(n / 1024 / 1024, 1)} MB`;
}

// missingText says a registration's `missing` item in words.
function missingText(m, simulated) {
  if (m.startsWith('tse.bsi_certification_id')) return t(simulated ? 'fiscal.missing.simulated' : 'fiscal.missing.bsi');
  const reg = /^registers\[(.*)\]\.(.*)$/.exec(m);
  if (reg) return t(reg[2] === 'acquired_on' ? 'fiscal.missing.register_acquired' : 'fiscal.missing.register_kind', { register: reg[1] });
  const key = `fiscal.missing.${m}`;
  const s = t(key);
  return s === key ? m : s;
}

export default {
  async render(main) {
    const today = localDate();
    const monthStart = `${today.slice(0, 8)}01`;
    let archives = [];
    const watching = new Set();
    let poll = null;
    let gone = false;
    let waiting = null; // the report's window while its report is fetched

    // --- The TSE archive ---
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
          h('dt', {}, t('fiscal.chain')), h('dd', { id: 'archive-chain' }, a.last_archived_counter ? String(a.last_archived_counter) : t('fiscal.nothing_yet')),
          h('dt', {}, t('fiscal.last_file')), h('dd', { id: 'archive-last-file' }, lastFile()),
          h('dt', {}, t('fiscal.open_exports')), h('dd', {}, String(a.open_exports)),
          h('dt', {}, t('fiscal.rejected')), h('dd', {}, a.rejected_ranges ? badge(String(a.rejected_ranges), 'bad') : '0')));
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

    const stateKind = { archived: 'ok', failed: 'bad' };
    // A dates export's period: its first and last local day.
    const period = (a) => {
      const short = { day: '2-digit', month: '2-digit', year: 'numeric' };
      const first = localDate(new Date(a.period_start)), last = localDate(new Date(Date.parse(a.period_end) - 1));
      return first === last ? fmtDay(first, short) : `${fmtDay(first, short)} – ${fmtDay(last, short)}`;
    };

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

    // finding says why a file failed its check, by its code; the API's
    // sentence (English, for technicians) only for a code not known here.
    const finding = (a) => { const k = `fiscal.finding.${a.reason_code}`; const s = t(k); return s === k ? a.reason : s; };

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

    // --- Daily closings ---
    const closingList = h('div', { id: 'closing-list' });
    const closingRange = h('form', { class: 'toolbar', id: 'closing-range', novalidate: true },
      field({ name: 'from', label: t('common.from'), type: 'date', value: addDays(today, -30), required: true }),
      field({ name: 'to', label: t('common.to'), type: 'date', value: today, required: true }),
      h('p', { class: 'form-error', role: 'alert' }),
      h('button', { type: 'submit' }, t('common.show')));
    closingRange.addEventListener('submit', (e) => { e.preventDefault(); withBusy(e.submitter, loadClosings); });
    const takeButton = h('button', { type: 'submit' }, t('fiscal.take'));
    // The register is chosen from those posbox knows: every one that sold
    // and every one in the master data (GET /api/fiscal/registration).
    const registerSlot = h('div', { class: 'register-slot' });
    const takeForm = h('form', { class: 'panel export', id: 'take-closing', novalidate: true, 'aria-labelledby': 'take-closing-heading' },
      registerSlot,
      h('p', { class: 'form-error', role: 'alert' }),
      h('div', { class: 'buttons' }, takeButton));
    function setRegisterChoice(regs) {
      const keep = takeForm.elements.client_serial && takeForm.elements.client_serial.value;
      const usable = regs.filter((r) => r.first_sale_on || !r.decommissioned_on)
        .sort((a, b) => a.client_serial.localeCompare(b.client_serial));
      const label = (r) => r.decommissioned_on ? t('fiscal.register_decommissioned', { register: r.client_serial })
        : r.last_sale_on ? t('fiscal.register_last_sale', { register: r.client_serial, day: fmtDay(r.last_sale_on, { day: '2-digit', month: '2-digit', year: 'numeric' }) })
          : r.client_serial;
      clear(registerSlot, usable.length
        ? field({ name: 'client_serial', label: t('fiscal.closing_register'), type: 'select', required: true,
          value: usable.some((r) => r.client_serial === keep) ? keep : usable[0].client_serial,
          options: usable.map((r) => [r.client_serial, label(r)]) })
        : h('p', { class: 'empty', id: 'no-registers' }, t('fiscal.no_registers_sold')));
      takeButton.disabled = !usable.length;
    }
    takeForm.addEventListener('submit', (e) => { e.preventDefault(); takeClosing(); });

    async function loadClosings() {
      clearErrors(closingRange);
      try {
        const q = api.query({ from: closingRange.elements.from.value, to: closingRange.elements.to.value });
        const list = (await api.get(`/api/tse/closings${q}`)).closings;
        clear(closingList, table([
          { label: t('fiscal.register'), cell: (c) => c.client_serial },
          { label: t('fiscal.business_day'), cell: (c) => fmtDay(c.business_date) },
          { label: t('fiscal.z_nr'), class: 'num', cell: (c) => String(c.z_nr) },
          { label: t('fiscal.tx_count'), class: 'num', cell: (c) => String(c.transactions) },
          { label: t('fiscal.total'), class: 'num', cell: (c) => fmtMoney(c.total) },
          { label: t('fiscal.cash'), class: 'num', cell: (c) => fmtMoney(c.cash) },
          { label: t('fiscal.per_rate'), cell: (c) => h('ul', { class: 'plain small-text' },
            c.amounts_per_vat_rate.map((v) => h('li', {}, `${VAT[v.vat_rate] || v.vat_rate}: ${fmtMoney(v.amount)}`))) },
          { label: t('fiscal.taken'), cell: (c) => [fmtDateTime(c.created_at), c.automatic ? [' ', badge(t('fiscal.automatic'))] : null] },
        ], list, { caption: t('fiscal.closings'), empty: t('fiscal.no_closings'), rowAttrs: (c) => ({ dataset: { id: c.id, register: c.client_serial, z: c.z_nr } }) }));
      } catch (err) {
        showError(closingRange, err);
      }
    }

    async function takeClosing() {
      clearErrors(takeForm);
      const serial = takeForm.elements.client_serial ? takeForm.elements.client_serial.value : '';
      if (serial && !(await confirmDialog(t('fiscal.take_confirm', { register: serial }), t('fiscal.take')))) return;
      await withBusy(takeButton, async () => {
        try {
          const { closing } = await api.post('/api/tse/closings', { client_serial: serial });
          toast(t('fiscal.taken_msg', { z: closing.z_nr, register: closing.client_serial }));
          if (closingRange.elements.to.value < closing.business_date) closingRange.elements.to.value = closing.business_date;
          await loadClosings();
        } catch (err) {
          // Nothing to close is said in the page's language; the API's
          // sentence names the cut-off in UTC.
          if (err.code === 'closing_empty') takeForm.querySelector('.form-error').textContent = t('fiscal.closing_empty', { register: serial });
          else showError(takeForm, err);
        }
      });
    }

    // --- DSFinV-K ---
    const zipButton = h('button', { type: 'submit' }, t('fiscal.download_zip'));
    const dsfinvkForm = h('form', { class: 'panel export', id: 'dsfinvk-form', novalidate: true, 'aria-labelledby': 'dsfinvk-heading' },
      field({ name: 'from', label: t('common.from'), type: 'date', value: monthStart, required: true }),
      field({ name: 'to', label: t('common.to'), type: 'date', value: today, required: true }),
      h('p', { class: 'form-error', role: 'alert' }),
      h('div', { class: 'buttons' }, zipButton));
    dsfinvkForm.addEventListener('submit', async (e) => {
      e.preventDefault();
      clearErrors(dsfinvkForm);
      const q = api.query({ from: dsfinvkForm.elements.from.value, to: dsfinvkForm.elements.to.value });
      await withBusy(zipButton, async () => {
        try {
          await download(`/api/fiscal/dsfinvk${q}`);
        } catch (err) {
          showError(dsfinvkForm, err);
        }
      });
    });

    // --- Registration (§146a (4) AO) ---
    const missingBox = h('div', { id: 'registration-missing', 'aria-live': 'polite' });
    const printButton = h('button', { type: 'button', class: 'secondary', id: 'print-registration' }, t('fiscal.print'));
    const printFallback = h('p', { id: 'print-fallback', hidden: true });
    printButton.addEventListener('click', () => openReport());
    const registerBox = h('div', { class: 'wide registers', id: 'registers' });
    const saveButton = h('button', { type: 'submit' }, t('common.save'));
    const txt = (name, label, attrs, extra = {}) => field({ name, label: t(label), attrs, ...extra });
    const masterForm = h('form', { class: 'panel', id: 'master-data', novalidate: true, 'aria-labelledby': 'master-heading' },
      h('h3', { class: 'wide' }, t('fiscal.business')),
      txt('business_name', 'fiscal.business_name', { maxlength: 60, autocomplete: 'organization' }),
      txt('street', 'fiscal.street', { maxlength: 60, autocomplete: 'street-address' }),
      txt('postcode', 'fiscal.postcode', { maxlength: 10, autocomplete: 'postal-code' }),
      txt('city', 'fiscal.city', { maxlength: 62 }),
      txt('country', 'fiscal.country', { maxlength: 3 }),
      txt('tax_number', 'fiscal.tax_number', { maxlength: 20 }),
      txt('vat_id', 'fiscal.vat_id', { maxlength: 15 }),
      h('h3', { class: 'wide' }, t('fiscal.location')),
      h('p', { class: 'hint wide' }, t('fiscal.location_hint')),
      txt('location_name', 'fiscal.business_name', { maxlength: 60 }),
      txt('location_street', 'fiscal.street', { maxlength: 60 }),
      txt('location_postcode', 'fiscal.postcode', { maxlength: 10 }),
      txt('location_city', 'fiscal.city', { maxlength: 62 }),
      txt('location_country', 'fiscal.country', { maxlength: 3 }),
      h('h3', { class: 'wide' }, t('fiscal.tse_dates')),
      h('p', { class: 'hint wide' }, t('fiscal.tse_dates_hint')),
      field({ name: 'tse_in_service_on', label: t('fiscal.tse_in'), type: 'date' }),
      field({ name: 'tse_out_of_service_on', label: t('fiscal.tse_out'), type: 'date' }),
      h('h3', { class: 'wide' }, t('fiscal.registers')),
      registerBox,
      h('div', { class: 'buttons' }, h('button', { type: 'button', class: 'secondary', id: 'add-register', onclick: () => setRegisters([...readRegisters(), {}], true) }, t('fiscal.add_register'))),
      h('p', { class: 'form-error', role: 'alert' }),
      h('div', { class: 'buttons' }, saveButton));
    masterForm.addEventListener('submit', (e) => { e.preventDefault(); saveMaster(); });

    // The registers are numbered fieldsets whose inputs are named as the
    // API names their errors (registers[0].client_serial), so each error
    // lands beside its field.
    function setRegisters(list, changed) {
      clear(registerBox, list.length ? list.map((r, i) => h('fieldset', { class: 'register', dataset: { index: i } },
        h('legend', {}, t('fiscal.register_n', { n: i + 1 })),
        REGISTER_FIELDS.map(([name, label, type, attrs]) => field({ name: `registers[${i}].${name}`, label: t(label), type, value: r[name] ?? '', attrs,
          required: name === 'client_serial' })),
        h('div', { class: 'buttons' }, h('button', { type: 'button', class: 'secondary small', onclick: () => {
          const rest = readRegisters();
          rest.splice(i, 1);
          setRegisters(rest, true);
        } }, t('fiscal.remove_register', { n: i + 1 }))))) : h('p', { class: 'empty' }, t('fiscal.no_registers')));
      // Adding or removing changes the draft as typing does.
      if (changed) masterForm.dispatchEvent(new Event('change'));
    }

    function readRegisters() {
      return [...registerBox.querySelectorAll('fieldset.register')].map((fs) => {
        const r = {};
        for (const [name] of REGISTER_FIELDS) r[name] = masterForm.elements[`registers[${fs.dataset.index}].${name}`].value;
        return r;
      });
    }

    // fillMaster shows the saved master data; with draft, the draft an
    // expired session left is put over it, with as many registers as it had.
    function fillMaster(m, draft) {
      for (const name of TOP_FIELDS) masterForm.elements[name].value = m[name] ?? '';
      let n = m.registers.length;
      if (draft) n = Object.keys(draft).reduce((max, k) => { const x = /^registers\[(\d+)\]/.exec(k); return x ? Math.max(max, +x[1] + 1) : max; }, 0);
      setRegisters(Array.from({ length: n }, (_, i) => m.registers[i] || {}), false);
    }

    async function loadMaster() {
      try {
        const m = (await api.get('/api/fiscal/master-data')).master_data;
        fillMaster(m, readDraft(DRAFT));
        bindDraft(masterForm, DRAFT); // restores the draft's values, then keeps it
      } catch (err) {
        showError(masterForm, err);
      }
    }

    async function saveMaster() {
      clearErrors(masterForm);
      const body = {};
      const val = (name, v) => (DATE_FIELDS.includes(name) && v === '' ? null : v);
      for (const name of TOP_FIELDS) body[name] = val(name, masterForm.elements[name].value);
      body.registers = readRegisters().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, val(k, v)])));
      await withBusy(saveButton, async () => {
        try {
          const { master_data: m } = await api.put('/api/fiscal/master-data', body);
          dropDraft(DRAFT);
          fillMaster(m, null);
          toast(t('fiscal.saved'));
          await loadRegistration();
        } catch (err) {
          showError(masterForm, err);
        }
      });
    }

    async function loadRegistration() {
      try {
        const r = (await api.get('/api/fiscal/registration')).registration;
        setRegisterChoice(r.cash_registers);
        const simulated = r.tses.some((x) => x.simulated);
        clear(missingBox,
          simulated ? h('p', { class: 'notice bad', id: 'registration-simulated', role: 'alert' }, t('fiscal.simulated')) : null,
          r.missing.length
            ? [h('p', {}, badge(t('fiscal.missing'), 'warn')), h('ul', { class: 'problems' }, r.missing.map((m) => h('li', {}, missingText(m, simulated))))]
            : h('p', {}, badge(t('fiscal.complete'), 'ok')));
      } catch (err) {
        clear(missingBox, errorLine(err));
      }
    }

    // openReport opens the printable report in a new window. The window
    // is opened in the click (so no popup blocker objects) and is sent to
    // the report once it is fetched with the token, as a blob: URL of this
    // origin (it keeps the console's CSP; the report needs no script, and
    // its one style sheet is the console's print.css).
    async function openReport() {
      printFallback.hidden = true;
      const win = window.open('', '_blank');
      waiting = win;
      await withBusy(printButton, async () => {
        try {
          const { blob } = await api.request('GET', '/api/fiscal/registration/print', undefined, { raw: true });
          // Its style sheet is the console's: a blob: page resolves no
          // path of its own, so the link names this origin.
          const html = (await blob.text()).replace('href="/assets/', `href="${location.origin}/assets/`);
          const url = URL.createObjectURL(new Blob([html], { type: 'text/html;charset=utf-8' }));
          setTimeout(() => URL.revokeObjectURL(url), 60000);
          if (win) {
            win.opener = null;
            win.location.href = url;
          } else {
            clear(printFallback, h('a', { href: url, target: '_blank', rel: 'noopener' }, t('fiscal.print_blocked')));
            printFallback.hidden = false;
          }
        } catch (err) {
          if (win) win.close();
          toast(errorText(err), 'error');
        } finally {
          waiting = null;
        }
      });
    }

    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('fiscal.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => refresh() }, t('common.refresh'))),
      h('p', { class: 'muted' }, t('fiscal.intro')),
      h('section', { class: 'card', id: 'fiscal-archive', 'aria-labelledby': 'archive-heading' },
        h('h2', { id: 'archive-heading' }, t('fiscal.archive')), stateBox,
        h('h3', {}, t('fiscal.archives')), archiveList,
        h('h3', { id: 'archive-export-heading' }, t('fiscal.export_dates')), h('p', { class: 'muted' }, t('fiscal.export_hint')), exportForm),
      h('section', { class: 'card', id: 'fiscal-closings', 'aria-labelledby': 'closings-heading' },
        h('h2', { id: 'closings-heading' }, t('fiscal.closings')), closingRange, closingList,
        h('h3', { id: 'take-closing-heading' }, t('fiscal.take_closing')), h('p', { class: 'muted' }, t('fiscal.take_hint')), takeForm),
      h('section', { class: 'card', id: 'fiscal-dsfinvk', 'aria-labelledby': 'dsfinvk-heading' },
        h('h2', { id: 'dsfinvk-heading' }, t('fiscal.dsfinvk')), h('p', { class: 'muted' }, t('fiscal.dsfinvk_hint')), dsfinvkForm),
      h('section', { class: 'card', id: 'fiscal-registration', 'aria-labelledby': 'registration-heading' },
        h('h2', { id: 'registration-heading' }, t('fiscal.registration')), h('p', { class: 'muted' }, t('fiscal.registration_hint')),
        missingBox, h('div', { class: 'buttons' }, printButton), printFallback,
        h('h3', { id: 'master-heading' }, t('fiscal.master')), masterForm));

    async function refresh() {
      await Promise.all([loadArchiveState(), loadArchives(), loadClosings(), loadRegistration()]);
    }
    await Promise.all([refresh(), loadMaster()]);
    // A report window still waiting closes with the page (the session
    // may have ended: its request never settles).
    return () => { gone = true; clearTimeout(poll); if (waiting) waiting.close(); };
  },
};
