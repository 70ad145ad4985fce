// The recovery sheet (GET /api/replica/recovery-sheet): the replica's
// address, its keys and the restore command, to print and keep away from
// the box. Shown until the admin confirms she printed and stored it
// (POST .../confirm); after that the API refuses and only `posbox replica
// key` on the box prints the key. The dashboard's prompt
// (recoverySheetPrompt) asks GET .../status, which never carries the key.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, errorLine, errorText, toast, withBusy } from '../ui.js';
import { fmtDateTime } from '../format.js';

addStrings({
  de: {
    'sheet.title': 'Notfallblatt',
    'sheet.heading': 'Notfallblatt der Datensicherung außer Haus',
    'sheet.intro': 'Mit diesem Blatt holen Sie alle Daten auf ein neues Gerät, wenn diese posbox kaputtgeht oder gestohlen wird. Drucken Sie es aus und bewahren Sie es getrennt von der posbox auf, zum Beispiel im Tresor; eine zweite Kopie gehört zu Ihrem Steuerberater.',
    'sheet.secret': 'Ohne den Wiederherstellungsschlüssel kann niemand die Kopie außer Haus lesen, auch Sie nicht. Mit ihm kann sie jeder lesen: Zeigen Sie das Blatt niemandem sonst und legen Sie es nicht als Foto oder Datei ab.',
    'sheet.print': 'Drucken',
    'sheet.doc_title': 'posbox – Notfallblatt',
    'sheet.made': 'Ausgedruckt am {time}',
    'sheet.target': 'Ziel der Kopie',
    'sheet.public_key': 'Öffentlicher Schlüssel',
    'sheet.key': 'Wiederherstellungsschlüssel',
    'sheet.how': 'So stellen Sie die Daten wieder her',
    'sheet.step1': 'Auf dem neuen Gerät den Wiederherstellungsschlüssel allein in eine Datei schreiben, die nur Sie lesen dürfen (Rechte 0600).',
    'sheet.step2': 'Steht in der Adresse des Ziels „xxxxx“, dort das Passwort oder die Schlüsseldatei wieder einsetzen: Geheimnisse druckt das Blatt nie.',
    'sheet.step3': 'In einen leeren Ordner wiederherstellen, die Platzhalter ersetzt:',
    'sheet.step4': 'Die ganze Anleitung steht im Handbuch: docs/OPERATIONS.md, Abschnitt „Off the box“.',
    'sheet.confirm_label': 'Ich habe das Blatt ausgedruckt und sicher verwahrt',
    'sheet.confirm': 'Bestätigen',
    'sheet.confirm_hint': 'Danach zeigt die Konsole den Schlüssel nie wieder. Auf der posbox selbst druckt ihn weiterhin der Befehl „posbox replica key“.',
    'sheet.done': 'Bestätigt. Die Konsole zeigt den Wiederherstellungsschlüssel nicht mehr.',
    'sheet.confirmed': 'Das Notfallblatt wurde am {time} von {name} als ausgedruckt und sicher verwahrt bestätigt.',
    'sheet.gone': 'Die Konsole zeigt den Wiederherstellungsschlüssel nicht mehr. Wird er noch einmal gebraucht, druckt ihn auf der posbox der Befehl „posbox replica key“.',
    'sheet.off': 'Die Datensicherung außer Haus ist nicht eingerichtet: Es gibt kein Notfallblatt.',
    'sheet.back': 'Zur Übersicht',
    'sheet.prompt_title': 'Notfallblatt drucken',
    'sheet.prompt_text': 'Die Datensicherung außer Haus läuft. Ohne das Notfallblatt lässt sich die Kopie nie wieder lesen: Bitte jetzt ausdrucken und sicher verwahren.',
    'sheet.prompt_button': 'Notfallblatt anzeigen',
  },
  en: {
    'sheet.title': 'Recovery sheet',
    'sheet.heading': 'Recovery sheet of the off-site copy',
    'sheet.intro': 'With this sheet you bring all data to a new box if this posbox breaks or is stolen. Print it and keep it apart from the posbox, for example in a safe; a second copy belongs with your tax adviser.',
    'sheet.secret': 'Without the recovery key nobody can read the off-site copy, you neither. With it anyone can: show the sheet to nobody else and do not keep it as a photo or a file.',
    'sheet.print': 'Print',
    'sheet.doc_title': 'posbox – recovery sheet',
    'sheet.made': 'Printed on {time}',
    'sheet.target': 'Copy kept at',
    'sheet.public_key': 'Public key',
    'sheet.key': 'Recovery key',
    'sheet.how': 'How to restore the data',
    'sheet.step1': 'On the new box, write the recovery key alone into a file only you may read (mode 0600).',
    'sheet.step2': 'Where the copy\'s address shows "xxxxx", put the password or key file back: the sheet never prints secrets.',
    'sheet.step3': 'Restore into an empty folder, the placeholders replaced:',
    'sheet.step4': 'The whole procedure is in the handbook: docs/OPERATIONS.md, section "Off the box".',
    'sheet.confirm_label': 'I have printed the sheet and stored it safely',
    'sheet.confirm': 'Confirm',
    'sheet.confirm_hint': 'After this the console never shows the key again. On the posbox itself, the command "posbox replica key" still prints it.',
    'sheet.done': 'Confirmed. The console no longer shows the recovery key.',
    'sheet.confirmed': 'The recovery sheet was confirmed as printed and stored safely on {time} by {name}.',
    'sheet.gone': 'The console no longer shows the recovery key. Should it be needed again, the command "posbox replica key" on the posbox prints it.',
    'sheet.off': 'The off-site copy is not set up: there is no recovery sheet.',
    'sheet.back': 'To the overview',
    'sheet.prompt_title': 'Print the recovery sheet',
    'sheet.prompt_text': 'The off-site copy is running. Without the recovery sheet the copy can never be read: please print it now and store it safely.',
    'sheet.prompt_button': 'Show the recovery sheet',
  },
});

// recoverySheetPrompt is the dashboard's prompt while the sheet waits to
// be printed: empty (hidden) otherwise, or when the state cannot be read
// (the replica card says what is wrong with the copy).
export function recoverySheetPrompt(navigate) {
  const box = h('section', { class: 'notice sheet-prompt', id: 'recovery-sheet-prompt', role: 'alert', hidden: true });
  api.get('/api/replica/recovery-sheet/status').then(({ recovery_sheet_status: st }) => {
    if (!st.enabled || st.confirmed) return;
    clear(box, h('h2', {}, t('sheet.prompt_title')), h('p', {}, t('sheet.prompt_text')),
      h('button', { type: 'button', onclick: () => navigate('/recovery-sheet') }, t('sheet.prompt_button')));
    box.hidden = false;
  }).catch(() => {});
  return box;
}

// usePrintSheet loads print.css for printing while the page is open:
// the console's own pages do not carry it.
function usePrintSheet() {
  const link = h('link', { rel: 'stylesheet', href: '/assets/print.css', media: 'print', id: 'print-css' });
  document.head.append(link);
  return () => link.remove();
}

function sheetView(sh, restaurant) {
  return h('article', { class: 'recovery-sheet', id: 'recovery-sheet', 'aria-labelledby': 'sheet-doc-title' },
    h('h2', { id: 'sheet-doc-title' }, t('sheet.doc_title'), ' · ', restaurant.name),
    h('p', { class: 'muted' }, t('sheet.made', { time: fmtDateTime(new Date().toISOString()) })),
    h('p', { class: 'sheet-warning' }, t('sheet.secret')),
    h('dl', { class: 'facts' },
      h('dt', {}, t('sheet.target')), h('dd', { class: 'mono', id: 'sheet-url' }, sh.url),
      h('dt', {}, t('sheet.public_key')), h('dd', { class: 'mono', id: 'sheet-public-key' }, sh.public_key),
      h('dt', {}, t('sheet.key')), h('dd', {}, h('code', { class: 'sheet-key', id: 'sheet-key' }, sh.recovery_key))),
    h('h3', {}, t('sheet.how')),
    h('ol', { class: 'sheet-steps' },
      h('li', {}, t('sheet.step1')), h('li', {}, t('sheet.step2')),
      h('li', {}, t('sheet.step3'), h('pre', { class: 'sheet-command', id: 'sheet-command' }, sh.restore_command)),
      h('li', {}, t('sheet.step4'))));
}

export default {
  async render(main, { navigate, restaurant }) {
    const dropPrint = usePrintSheet();
    const back = h('button', { type: 'button', class: 'secondary', onclick: () => navigate('/') }, t('sheet.back'));
    const body = h('div', { id: 'sheet-body' });
    main.append(h('div', { class: 'page-head' }, h('h1', {}, t('sheet.heading')), back), body);

    // gone says the key is no longer shown, and since when.
    function gone(st, ...lead) {
      clear(body, lead, st && st.confirmed ? h('p', { id: 'sheet-confirmed' }, t('sheet.confirmed', { time: fmtDateTime(st.confirmed_at), name: st.confirmed_by })) : null,
        h('p', { class: 'notice ok', id: 'sheet-gone' }, t('sheet.gone')));
    }

    let st;
    try {
      st = (await api.get('/api/replica/recovery-sheet/status')).recovery_sheet_status;
    } catch (err) {
      clear(body, errorLine(err));
      return dropPrint;
    }
    if (!st.enabled) { clear(body, h('p', { class: 'notice', id: 'sheet-off' }, t('sheet.off'))); return dropPrint; }
    if (st.confirmed) { gone(st); return dropPrint; }
    let sh;
    try {
      sh = (await api.get('/api/replica/recovery-sheet')).recovery_sheet;
    } catch (err) {
      clear(body, errorLine(err));
      return dropPrint;
    }

    const check = h('input', { type: 'checkbox', id: 'sheet-confirm-check', onchange: () => { confirm.disabled = !check.checked; } });
    const confirm = h('button', { type: 'button', id: 'sheet-confirm', disabled: true, onclick: () => withBusy(confirm, async () => {
      try {
        const r = await api.post('/api/replica/recovery-sheet/confirm', { public_key: sh.public_key });
        sh = null; // the key leaves the page with the sheet
        toast(t('sheet.done'));
        gone(r.recovery_sheet_status);
      } catch (err) {
        toast(errorText(err), 'error');
      }
    }) }, t('sheet.confirm'));
    clear(body,
      h('div', { class: 'no-print' }, h('p', {}, t('sheet.intro')),
        h('div', { class: 'buttons' }, h('button', { type: 'button', id: 'sheet-print', onclick: () => window.print() }, t('sheet.print')))),
      sheetView(sh, restaurant),
      h('section', { class: 'card no-print', id: 'sheet-confirm-box' },
        h('label', { class: 'check' }, check, ' ', t('sheet.confirm_label')),
        h('p', { class: 'muted' }, t('sheet.confirm_hint')),
        h('div', { class: 'buttons' }, confirm)));
    return dropPrint;
  },
};
