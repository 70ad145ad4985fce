// The §146a (4) AO registration through ELSTER (docs/FISCAL.md,
// "Registration with the tax office"): whether one is due and by when,
// the upload file for Mein ELSTER (or, in words, what it still lacks),
// marking the registration as submitted, and the files kept as proof.
// The dashboard shows the same deadline (dueCard). API: docs/API.md 5.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, withBusy, showError, clearErrors, errorLine, errorText, toast, download } from '../ui.js';
import { fmtDay, fmtDateTime, localDate } from '../format.js';

addStrings({
  de: {
    'elster.due': 'Meldung ans Finanzamt fällig bis {date}',
    'elster.due_why': 'Eine Kasse oder die TSE wurde in oder außer Betrieb genommen. Das muss dem Finanzamt innerhalb eines Monats über Mein ELSTER mitgeteilt werden (§146a Abs. 4 AO):',
    'elster.change.register_in_service': 'Kasse {subject} am {date} in Betrieb genommen',
    'elster.change.register_out_of_service': 'Kasse {subject} am {date} außer Betrieb genommen',
    'elster.change.tse_in_service': 'TSE {subject} am {date} in Betrieb genommen',
    'elster.change.tse_out_of_service': 'TSE {subject} am {date} außer Betrieb genommen',
    'elster.open': 'Zur Meldung',
    'elster.title': 'Meldung über Mein ELSTER',
    'elster.how': 'So melden Sie: Laden Sie die ELSTER-Datei herunter. Melden Sie sich bei Mein ELSTER (www.elster.de) an und öffnen Sie über die Formularsuche das Formular „Mitteilung über elektronische Aufzeichnungssysteme (§ 146a Absatz 4 AO)“. Geben Sie dort Ihre Steuernummer und die Anschrift der Betriebsstätte ein und laden Sie bei den Aufzeichnungssystemen diese Datei hoch. Prüfen Sie die übernommenen Kassen und senden Sie die Mitteilung ab.',
    'elster.download': 'ELSTER-Datei herunterladen',
    'elster.incomplete': 'Die ELSTER-Datei kann noch nicht erstellt werden. Bitte zuerst in den Stammdaten unten ergänzen:',
    'elster.m.registers': 'Mindestens eine Kasse',
    'elster.m.brand': 'Kasse {register}: Marke', 'elster.m.model': 'Kasse {register}: Modell',
    'elster.m.software': 'Kasse {register}: Software', 'elster.m.software_version': 'Kasse {register}: Softwareversion',
    'elster.m.acquired_on': 'Kasse {register}: Anschaffungsdatum', 'elster.m.in_service_on': 'Kasse {register}: In Betrieb seit',
    'elster.m.tse': 'Eine TSE: posbox kennt noch keine. Bitte die TSE einrichten (docs/TSE.md).',
    'elster.m.simulator': 'Eine zertifizierte TSE: Der eingebaute Simulator ist keine und wird nie gemeldet. Richten Sie die TSE von fiskaly ein (docs/TSE.md, „posbox tse setup“).',
    'elster.m.serial': 'Die Seriennummer der TSE hat nicht die erwartete Form; bitte bei fiskaly erfragen.',
    'elster.m.bsi': 'Die BSI-Zertifizierungs-ID der TSE: Der Anbieter meldet keine gültige; bitte bei fiskaly erfragen.',
    'elster.m.tse_in': 'Seit wann die TSE in Betrieb ist (Stammdaten, TSE)',
    'elster.submitted_on': 'Gemeldet am', 'elster.mark': 'Als gemeldet eintragen',
    'elster.marked': 'Eingetragen. Die gemeldete Datei ist unverändert aufbewahrt.',
    'elster.history': 'Bisherige Meldungen', 'elster.no_history': 'Noch keine Meldung eingetragen.',
    'elster.history_row': 'Gemeldet am {date} (eingetragen {time})', 'elster.kept_file': 'Gemeldete Datei',
    'elster.nothing_due': 'Zurzeit ist keine Meldung fällig: Seit der letzten eingetragenen Meldung wurde laut Stammdaten keine Kasse und keine TSE in oder außer Betrieb genommen.',
    'elster.after': 'Nach dem Hochladen',
    'elster.after_hint': 'Tragen Sie den Tag ein, an dem Sie die Mitteilung in Mein ELSTER abgeschickt haben. posbox bewahrt die Datei, wie sie jetzt ist, unverändert als Nachweis auf, und der Hinweis auf die fällige Meldung verschwindet.',
  },
  en: {
    'elster.due': 'Registration with the tax office due by {date}',
    'elster.due_why': 'A register or the TSE was put into or out of service. The tax office must be told within a month through Mein ELSTER (§146a (4) AO):',
    'elster.change.register_in_service': 'register {subject} put into service on {date}',
    'elster.change.register_out_of_service': 'register {subject} taken out of service on {date}',
    'elster.change.tse_in_service': 'TSE {subject} put into service on {date}',
    'elster.change.tse_out_of_service': 'TSE {subject} taken out of service on {date}',
    'elster.open': 'Go to the registration',
    'elster.title': 'Registration through Mein ELSTER',
    'elster.how': 'How to register: download the ELSTER file. Log in to Mein ELSTER (www.elster.de) and open the form "Mitteilung über elektronische Aufzeichnungssysteme (§ 146a Absatz 4 AO)" through the form search. Enter your tax number and the address of the location there, and upload this file with the recording systems. Check the registers it took over and send the notification.',
    'elster.download': 'Download the ELSTER file',
    'elster.incomplete': 'The ELSTER file cannot be made yet. Please complete the master data below first:',
    'elster.m.registers': 'At least one register',
    'elster.m.brand': 'Register {register}: brand', 'elster.m.model': 'Register {register}: model',
    'elster.m.software': 'Register {register}: software', 'elster.m.software_version': 'Register {register}: software version',
    'elster.m.acquired_on': 'Register {register}: date acquired', 'elster.m.in_service_on': 'Register {register}: in service since',
    'elster.m.tse': 'A TSE: posbox knows none yet. Please set up the TSE (docs/TSE.md).',
    'elster.m.simulator': 'A certified TSE: the built-in simulator is none and is never registered. Set up the fiskaly TSE (docs/TSE.md, "posbox tse setup").',
    'elster.m.serial': 'The TSE\'s serial number does not have the expected form; please ask fiskaly.',
    'elster.m.bsi': 'The TSE\'s BSI certification ID: the provider reports no valid one; please ask fiskaly.',
    'elster.m.tse_in': 'Since when the TSE is in service (master data, TSE)',
    'elster.submitted_on': 'Registered on', 'elster.mark': 'Record as registered',
    'elster.marked': 'Recorded. The registered file is kept unchanged.',
    'elster.history': 'Past registrations', 'elster.no_history': 'No registration recorded yet.',
    'elster.history_row': 'Registered on {date} (recorded {time})', 'elster.kept_file': 'Registered file',
    'elster.nothing_due': 'No registration is due at the moment: since the last recorded registration, by the master data, no register and no TSE was put into or out of service.',
    'elster.after': 'After uploading',
    'elster.after_hint': 'Enter the day you sent the notification in Mein ELSTER. posbox keeps the file as it is now, unchanged, as proof, and the notice of a registration due goes away.',
  },
});

const day = (d) => fmtDay(d, { day: '2-digit', month: '2-digit', year: 'numeric' });

// changeText says one change in words; a TSS serial (64 hex digits) is
// shortened to its start, as the owner sees it in fiskaly's dashboard.
function changeText(c) {
  const subject = c.subject.length > 16 ? `${c.subject.slice(0, 8)}…` : c.subject;
  return t(`elster.change.${c.change}`, { subject, date: day(c.date) });
}

function dueNotice(due, ...extra) {
  return h('div', { class: 'notice warn', id: 'registration-due', role: 'alert' },
    h('strong', {}, t('elster.due', { date: day(due.due_by) })),
    h('p', {}, t('elster.due_why')),
    h('ul', {}, due.changes.map((c) => h('li', {}, changeText(c)))), ...extra);
}

// dueCard is the dashboard's card from the settled GET
// /api/fiscal/registration/due; null when nothing is due (or it cannot
// be read: the fiscal page says why).
export function dueCard(res, navigate) {
  if (res.status !== 'fulfilled' || !res.value.due.due_by) return null;
  return h('section', { class: 'card', id: 'dash-registration-due' },
    dueNotice(res.value.due, h('div', { class: 'buttons' },
      h('button', { type: 'button', class: 'secondary', onclick: () => navigate('/fiscal') }, t('elster.open')))));
}

// missingItem says one item of a registration_incomplete answer.
function missingItem(fe) {
  const reg = /^registers\[(.*)\]\.(.*)$/.exec(fe.field);
  if (reg) return t(`elster.m.${reg[2]}`, { register: reg[1] });
  if (fe.field === 'tse') return t(fe.code === 'not_certified' ? 'elster.m.simulator' : 'elster.m.tse');
  return t({ registers: 'elster.m.registers', 'tse.serial_number': 'elster.m.serial', 'tse.bsi_certification_id': 'elster.m.bsi',
    'tse.in_service_on': 'elster.m.tse_in' }[fe.field] || 'elster.m.registers');
}

function problemBox(err) {
  if (err.code !== 'registration_incomplete') return errorLine(err);
  return h('div', { class: 'notice bad', role: 'alert' }, h('p', {}, t('elster.incomplete')),
    h('ul', { class: 'problems' }, err.errors.map((fe) => h('li', {}, missingItem(fe)))));
}

// elsterSection is the ELSTER part of the registration card; reload
// redraws the registration after a submission. readOnly is the tax
// office's auditor's: the file and the kept submissions, not the owner's
// to-do (what is due, marking a submission).
export function elsterSection({ readOnly = false } = {}) {
  const dueBox = h('div', { id: 'registration-due-box', 'aria-live': 'polite' });
  const problem = h('div', { id: 'elster-problem', 'aria-live': 'polite' });
  const history = h('div', { id: 'elster-history' });
  const downloadButton = h('button', { type: 'button', id: 'download-elster' }, t('elster.download'));
  const markButton = h('button', { type: 'submit', class: 'secondary' }, t('elster.mark'));
  const markForm = h('form', { class: 'panel export', id: 'elster-submitted', novalidate: true, 'aria-labelledby': 'elster-submitted-heading' },
    field({ name: 'submitted_on', label: t('elster.submitted_on'), type: 'date', value: localDate(), attrs: { max: localDate() }, required: true }),
    h('p', { class: 'form-error', role: 'alert' }), h('div', { class: 'buttons' }, markButton));

  downloadButton.addEventListener('click', () => withBusy(downloadButton, async () => {
    clear(problem);
    try {
      await download('/api/fiscal/registration/elster.xml');
    } catch (err) {
      clear(problem, problemBox(err));
    }
  }));
  markForm.addEventListener('submit', (e) => {
    e.preventDefault();
    clearErrors(markForm);
    clear(problem);
    withBusy(markButton, async () => {
      try {
        await api.post('/api/fiscal/registration/submitted', { submitted_on: markForm.elements.submitted_on.value || null });
        toast(t('elster.marked'));
        await load();
      } catch (err) {
        if (err.code === 'registration_incomplete') clear(problem, problemBox(err));
        else showError(markForm, err);
      }
    });
  });

  async function load() {
    const [due, subs] = await Promise.allSettled([readOnly ? null : api.get('/api/fiscal/registration/due'), api.get('/api/fiscal/registration/submissions')]);
    if (readOnly) clear(dueBox);
    else if (due.status === 'rejected') clear(dueBox, errorLine(due.reason));
    else clear(dueBox, due.value.due.due_by ? dueNotice(due.value.due) : h('p', { class: 'muted', id: 'registration-not-due' }, t('elster.nothing_due')));
    if (subs.status === 'rejected') {
      clear(history, errorLine(subs.reason));
      return;
    }
    const list = subs.value.submissions;
    clear(history, h('h4', {}, t('elster.history')), list.length === 0 ? h('p', { class: 'empty' }, t('elster.no_history'))
      : h('ul', { class: 'plain' }, list.map((s) => h('li', {},
        t('elster.history_row', { date: day(s.submitted_on), time: fmtDateTime(s.created_at) }), ' ',
        h('button', { type: 'button', class: 'secondary small', onclick: (ev) => withBusy(ev.currentTarget, async () => {
          try { await download(`/api/fiscal/registration/submissions/${encodeURIComponent(s.id)}/elster.xml`); } catch (err) { toast(errorText(err), 'error'); }
        }) }, t('elster.kept_file'))))));
  }

  const box = readOnly
    ? h('div', { id: 'elster' }, h('h3', {}, t('elster.title')), h('div', { class: 'buttons' }, downloadButton), problem, history)
    : h('div', { id: 'elster' }, h('h3', {}, t('elster.title')), dueBox, h('p', { class: 'hint' }, t('elster.how')),
      h('div', { class: 'buttons' }, downloadButton), problem,
      h('h4', { id: 'elster-submitted-heading' }, t('elster.after')), h('p', { class: 'muted' }, t('elster.after_hint')), markForm, history);
  return { box, load };
}
