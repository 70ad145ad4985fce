// "TSE ersetzen": the guided replacement of the TSS (an expiring
// certificate, a defective TSS), each step with its state in words, a
// step that could not finish with what to do, continued with one click.
// API: docs/API.md, "Replacing the TSS".
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, badge, field, withBusy, toast, errorText, confirmDialog } from '../ui.js';
import { fmtDateTime } from '../format.js';

addStrings({
  de: {
    'repl.title': 'TSE ersetzen',
    'repl.intro': 'Für ein ablaufendes Zertifikat oder eine defekte TSE. posbox schließt alle Kassen ab, holt den letzten Export der alten TSE ins Archiv und prüft ihn, nimmt die alte TSE außer Betrieb, richtet eine neue ein und startet neu. Während der letzten Schritte (wenige Minuten) nehmen die Kassen keine Belege an und senden sie kurz darauf erneut.',
    'repl.sim': 'Mit dem eingebauten Simulator gibt es keine TSE zu ersetzen. Richten Sie die TSE von fiskaly ein (docs/TSE.md, „posbox tse setup“).',
    'repl.start': 'TSE jetzt ersetzen', 'repl.continue': 'Fortfahren',
    'repl.confirm': 'Die alte TSE wird endgültig außer Betrieb genommen und eine neue eingerichtet. Fortfahren?',
    'repl.force': 'Die alte TSE kann nicht mehr signieren (abgelaufen, defekt, nicht erreichbar)',
    'repl.force_reason': 'Grund (wird dauerhaft gespeichert; nur nötig, wenn noch Belege auf die Signatur warten)',
    'repl.step.closing': 'Alle Kassen abschließen', 'repl.step.export': 'Letzten Export der alten TSE archivieren und prüfen',
    'repl.step.disable': 'Alte TSE außer Betrieb nehmen', 'repl.step.setup': 'Neue TSE einrichten', 'repl.step.switch': 'Neustart mit der neuen TSE',
    'repl.s.done': 'erledigt', 'repl.s.now': 'läuft', 'repl.s.wait': 'wartet', 'repl.s.failed': 'nicht abgeschlossen',
    'repl.err.closing': 'Es warten noch Belege auf die Signatur der TSE. Warten Sie, bis die Warteschlange leer ist, und klicken Sie dann „Fortfahren“. Kann die TSE nicht mehr signieren, geben Sie oben einen Grund an.',
    'repl.err.export': 'Der letzte Export der alten TSE ist noch nicht vollständig geprüft im Archiv (Verbindung zur TSE?). „Fortfahren“ versucht es erneut.',
    'repl.err.disable': 'Die alte TSE konnte nicht außer Betrieb genommen werden (Verbindung zur TSE?). „Fortfahren“ versucht es erneut.',
    'repl.err.setup': 'Die neue TSE konnte nicht eingerichtet werden (Verbindung zu fiskaly?). „Fortfahren“ versucht es erneut.',
    'repl.switching': 'Die neue TSE ist eingerichtet. posbox startet neu und signiert danach mit ihr; diese Anzeige aktualisiert sich, sobald posbox wieder antwortet.',
    'repl.done': 'Zuletzt ersetzt am {time}: alte TSE {old}, neue TSE {new}. Melden Sie die neue TSE innerhalb eines Monats dem Finanzamt (§ 146a Abs. 4 AO).',
    'repl.started': 'Die TSE wird ersetzt.',
  },
  en: {
    'repl.title': 'Replace the TSE',
    'repl.intro': 'For an expiring certificate or a defective TSE. posbox closes every register, pulls the old TSE\'s last export into the archive and verifies it, takes the old TSE out of service, sets up a new one and restarts. During the last steps (a few minutes) the tills\' receipts are not accepted; they send them again shortly after.',
    'repl.sim': 'With the built-in simulator there is no TSE to replace. Set up the fiskaly TSE (docs/TSE.md, "posbox tse setup").',
    'repl.start': 'Replace the TSE now', 'repl.continue': 'Continue',
    'repl.confirm': 'The old TSE is taken out of service for good and a new one set up. Continue?',
    'repl.force': 'The old TSE can no longer sign (expired, defective, unreachable)',
    'repl.force_reason': 'Reason (kept for good; only needed while receipts wait for their signature)',
    'repl.step.closing': 'Close every register', 'repl.step.export': 'Archive and verify the old TSE\'s last export',
    'repl.step.disable': 'Take the old TSE out of service', 'repl.step.setup': 'Set up the new TSE', 'repl.step.switch': 'Restart with the new TSE',
    'repl.s.done': 'done', 'repl.s.now': 'running', 'repl.s.wait': 'waiting', 'repl.s.failed': 'not finished',
    'repl.err.closing': 'Receipts still wait for the TSE\'s signature. Wait until the queue is empty, then click "Continue". If the TSE can no longer sign, give a reason above.',
    'repl.err.export': 'The old TSE\'s last export is not yet completely verified in the archive (connection to the TSE?). "Continue" tries again.',
    'repl.err.disable': 'The old TSE could not be taken out of service (connection to the TSE?). "Continue" tries again.',
    'repl.err.setup': 'The new TSE could not be set up (connection to fiskaly?). "Continue" tries again.',
    'repl.switching': 'The new TSE is set up. posbox restarts and then signs with it; this view updates as soon as posbox answers again.',
    'repl.done': 'Last replaced on {time}: old TSE {old}, new TSE {new}. Report the new TSE to the tax office within a month (§ 146a (4) AO).',
    'repl.started': 'The TSE is being replaced.',
  },
});

const STEPS = ['closing', 'export', 'disable', 'setup', 'switch'];
const STAMP = { closing: 'closed_at', export: 'exported_at', disable: 'disabled_at', setup: 'set_up_at', switch: 'switched_at' };
const short = (serial) => (serial ? `${serial.slice(0, 12)}…` : '–');

// replaceSection is the wizard's card; simulated hides the start (there
// is nothing to replace). stop ends its polling.
export function replaceSection() {
  const box = h('div', { id: 'tse-replace-state', 'aria-live': 'polite' });
  const reason = field({ name: 'force_reason', label: t('repl.force_reason'), type: 'textarea', attrs: { maxlength: 1000 } });
  const force = h('details', { id: 'tse-replace-force' }, h('summary', {}, t('repl.force')), reason);
  const startButton = h('button', { type: 'button', id: 'tse-replace-start', class: 'danger' }, t('repl.start'));
  const continueButton = h('button', { type: 'button', id: 'tse-replace-continue' }, t('repl.continue'));
  let timer = null;
  let simulated = false;
  let lastStep = null;

  const forceReason = () => reason.querySelector('textarea').value.trim();
  startButton.addEventListener('click', () => withBusy(startButton, async () => {
    if (!(await confirmDialog(t('repl.confirm'), t('repl.start')))) return;
    try {
      const body = forceReason() ? { force_reason: forceReason() } : {};
      show((await api.post('/api/tse/replacement', body)).replacement, []);
      toast(t('repl.started'));
      follow();
    } catch (err) { toast(errorText(err), 'error'); }
  }));
  continueButton.addEventListener('click', () => withBusy(continueButton, async () => {
    try { await api.post('/api/tse/replacement/continue'); follow(); } catch (err) { toast(errorText(err), 'error'); }
  }));

  function stepState(r, s) {
    const i = STEPS.indexOf(r.step), j = STEPS.indexOf(s);
    if (r.step === 'done' || j < i) return ['done', 'ok'];
    if (j > i) return ['wait', 'neutral'];
    return r.last_error ? ['failed', 'bad'] : ['now', 'warn'];
  }

  function show(r, all) {
    lastStep = r ? r.step : null;
    const last = all.filter((x) => x.step === 'done').pop();
    clear(box,
      h('p', { class: 'muted' }, t('repl.intro')),
      last ? h('p', { class: 'notice', id: 'tse-replace-last' }, t('repl.done', { time: fmtDateTime(last.switched_at), old: short(last.old_serial_number), new: short(last.new_serial_number) })) : null,
      r ? h('ol', { class: 'steps', id: 'tse-replace-steps' }, STEPS.map((s) => {
        const [state, kind] = stepState(r, s);
        return h('li', { dataset: { step: s, state } }, t(`repl.step.${s}`), ' ', badge(t(`repl.s.${state}`), kind),
          r[STAMP[s]] ? h('span', { class: 'muted small-text' }, ' ', fmtDateTime(r[STAMP[s]])) : null,
          state === 'failed' ? h('p', { class: 'error-text', role: 'alert' }, t(`repl.err.${s}`)) : null);
      })) : null,
      r && r.step === 'switch' ? h('p', { class: 'notice', id: 'tse-replace-switching' }, t('repl.switching')) : null,
      simulated ? h('p', { class: 'notice' }, t('repl.sim')) : null,
      !simulated && (!r || r.last_error) ? force : null,
      !simulated && !r ? h('div', { class: 'buttons' }, startButton) : null,
      r && r.last_error ? h('div', { class: 'buttons' }, continueButton) : null);
  }

  async function load() {
    try {
      const all = (await api.get('/api/tse/replacements')).replacements;
      const cur = all.find((x) => x.step !== 'done') || null;
      show(cur, all);
      return cur;
    } catch (err) {
      if (lastStep === 'switch') return { step: 'switch' }; // restarting: ask again
      clear(box, h('p', { class: 'form-error' }, errorText(err)));
      return null;
    }
  }

  // follow polls every 2 s while steps run; at the switch the service
  // restarts, so it keeps asking until the box answers again.
  function follow() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const r = await load();
      if (r && !r.last_error) follow();
    }, 2000);
  }

  const card = h('section', { class: 'card', id: 'tse-replace' }, h('h2', {}, t('repl.title')), box);
  return {
    card,
    load: async (isSimulated) => { simulated = isSimulated; const r = await load(); if (r && !r.last_error) follow(); },
    stop: () => clearTimeout(timer),
  };
}
