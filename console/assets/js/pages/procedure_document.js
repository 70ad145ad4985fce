// The procedure document (Verfahrensdokumentation): the version in force
// with what posbox wrote into it, the owner's own sections to fill in
// (each save a new version; the old ones stay), the page to print, and
// every earlier version with its own page. API: docs/API.md section 5;
// what it holds and why: docs/FISCAL.md, "The procedure document".
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, badge, table, field, withBusy, showError, clearErrors, errorLine, toast, bindDraft, dropDraft, openPrintPage } from '../ui.js';
import { fmtDateTime } from '../format.js';

addStrings({
  de: {
    'procdoc.title': 'Verfahrensdokumentation',
    'procdoc.intro': 'Die Beschreibung Ihres Kassensystems, die das Finanzamt bei einer Prüfung verlangt (GoBD). posbox schreibt hinein, was es selbst weiß: Programmversionen, Kassen, TSE, Archiv, Datensicherung und wer welche Rechte hat. Den Rest beschreiben Sie unten selbst. Jede Änderung ergibt eine neue Fassung; frühere Fassungen bleiben unverändert.',
    'procdoc.current': 'Gültige Fassung', 'procdoc.version_n': 'Fassung {n}', 'procdoc.valid_from': 'Gültig ab {time}',
    'procdoc.checksum': 'Prüfsumme (SHA-256): {sum}', 'procdoc.print': 'Zum Drucken öffnen', 'procdoc.print_blocked': 'Das Fenster wurde blockiert: hier öffnen.',
    'procdoc.program': 'Programm: posbox {version}', 'procdoc.tse': 'TSE: {serial}', 'procdoc.tse_none': 'Keine TSE eingerichtet.',
    'procdoc.registers': 'Kassen: {list}', 'procdoc.registers_none': 'Noch keine Kasse bekannt.',
    'procdoc.simulated': 'Es signiert der Simulator, keine TSE. Die Dokumentation sagt das so; richten Sie die TSE von fiskaly ein (docs/TSE.md).',
    'procdoc.owner': 'Ihre Angaben', 'procdoc.owner_hint': 'Was nur Sie beschreiben können. Leere Abschnitte werden mit Fragen und Linien gedruckt, zum Ausfüllen von Hand.',
    'procdoc.owner_none': 'Noch nicht gespeichert.', 'procdoc.owner_saved': 'Zuletzt gespeichert am {time} von {name}.',
    'procdoc.organisation': 'Organisation des Betriebs',
    'procdoc.organisation_hint': 'Rechtsform und Inhaber; wer für die Kasse verantwortlich ist; Öffnungszeiten; Bereiche (Restaurant, Außer-Haus, Lieferung); wer bucht (Steuerberater, Buchhaltung).',
    'procdoc.till_operation': 'Bedienung der Kassen (Kassieranweisung)',
    'procdoc.till_operation_hint': 'Wer an welcher Kasse verkauft; Anmeldung; Stornos, Rabatte, Gutscheine, Trinkgeld; was bei Ausfall der Kasse oder der TSE zu tun ist.',
    'procdoc.cash_counting': 'Kassensturz und Bargeld',
    'procdoc.cash_counting_hint': 'Wann und von wem das Bargeld gezählt wird; Wechselgeld; Differenzen; Einlagen, Entnahmen, Bankeinzahlungen; Abrechnung der Bedienungen.',
    'procdoc.internal_control': 'Kontrollen des Unternehmers (internes Kontrollsystem)',
    'procdoc.internal_control_hint': 'Wer Tagesabschlüsse und Stornos prüft und wie oft; wer Benutzer, Stammdaten und Preise ändert; wie Sicherung und TSE-Archiv kontrolliert werden.',
    'procdoc.saved': 'Gespeichert. Die Dokumentation ist jetzt Fassung {n}.', 'procdoc.saved_text': 'Gespeichert.',
    'procdoc.history': 'Frühere Fassungen', 'procdoc.version': 'Fassung', 'procdoc.generated': 'Gültig ab',
    'procdoc.sum': 'Prüfsumme', 'procdoc.open': 'Fassung {n} drucken',
    'procdoc.owner_history': 'Gespeicherte Angaben', 'procdoc.saved_at': 'Gespeichert am', 'procdoc.saved_by': 'Von',
  },
  en: {
    'procdoc.title': 'Procedure document',
    'procdoc.intro': 'The description of your till system the tax office asks for at an audit (GoBD). posbox writes what it knows itself: program versions, registers, TSE, archive, backups and who has which rights. You describe the rest below. Every change makes a new version; earlier versions stay unchanged.',
    'procdoc.current': 'Version in force', 'procdoc.version_n': 'Version {n}', 'procdoc.valid_from': 'Valid from {time}',
    'procdoc.checksum': 'Checksum (SHA-256): {sum}', 'procdoc.print': 'Open for printing', 'procdoc.print_blocked': 'The window was blocked: open it here.',
    'procdoc.program': 'Program: posbox {version}', 'procdoc.tse': 'TSE: {serial}', 'procdoc.tse_none': 'No TSE set up.',
    'procdoc.registers': 'Registers: {list}', 'procdoc.registers_none': 'No register known yet.',
    'procdoc.simulated': 'The simulator signs, not a TSE. The document says so; set up the fiskaly TSE (docs/TSE.md).',
    'procdoc.owner': 'Your sections', 'procdoc.owner_hint': 'What only you can describe. Empty sections are printed with questions and lines, to be filled in by hand.',
    'procdoc.owner_none': 'Not saved yet.', 'procdoc.owner_saved': 'Last saved on {time} by {name}.',
    'procdoc.organisation': 'How the business is organised',
    'procdoc.organisation_hint': 'Legal form and owner; who is responsible for the till; opening hours; areas (restaurant, take-away, delivery); who keeps the books.',
    'procdoc.till_operation': 'Operating the tills (cashier instructions)',
    'procdoc.till_operation_hint': 'Who sells at which till; logging in; stornos, discounts, vouchers, tips; what to do when the till or the TSE fails.',
    'procdoc.cash_counting': 'Counting cash',
    'procdoc.cash_counting_hint': 'When and by whom cash is counted; change float; differences; deposits, withdrawals, bank deposits; how the waiters settle.',
    'procdoc.internal_control': 'The owner\'s checks (internal control system)',
    'procdoc.internal_control_hint': 'Who checks closings and stornos, how often; who changes users, master data and prices; how backups and the TSE archive are checked.',
    'procdoc.saved': 'Saved. The document is now version {n}.', 'procdoc.saved_text': 'Saved.',
    'procdoc.history': 'Earlier versions', 'procdoc.version': 'Version', 'procdoc.generated': 'Valid from',
    'procdoc.sum': 'Checksum', 'procdoc.open': 'Print version {n}',
    'procdoc.owner_history': 'Saved sections', 'procdoc.saved_at': 'Saved on', 'procdoc.saved_by': 'By',
  },
});

const SECTIONS = ['organisation', 'till_operation', 'cash_counting', 'internal_control'];
const DRAFT = 'procdoc-owner';

export default {
  // readOnly is the tax office's auditor's: the document, its versions and
  // the owner's saved sections, nothing to edit.
  async render(main, { readOnly = false } = {}) {
    let waiting = null; // a print window while its page is fetched
    let bound = false; // the form keeps its draft
    const current = h('div', { id: 'procdoc-current', 'aria-live': 'polite' });
    const printFallback = h('p', { id: 'procdoc-print-fallback', hidden: true });
    const printButton = h('button', { type: 'button', class: 'secondary', id: 'procdoc-print' }, t('procdoc.print'));
    printButton.addEventListener('click', () => openPrint('/api/fiscal/procedure-document/print', printButton));
    const ownerState = h('p', { class: 'muted', id: 'procdoc-owner-state' });
    const saveButton = h('button', { type: 'submit' }, t('common.save'));
    const form = h('form', { class: 'panel', id: 'procdoc-owner', novalidate: true, 'aria-labelledby': 'procdoc-owner-heading' },
      SECTIONS.map((name) => {
        const f = field({ name, label: t(`procdoc.${name}`), type: 'textarea', hint: t(`procdoc.${name}_hint`), attrs: { maxlength: 20000 } });
        f.classList.add('wide');
        f.querySelector('textarea').rows = 6;
        return f;
      }),
      h('p', { class: 'form-error', role: 'alert' }),
      h('div', { class: 'buttons' }, saveButton));
    form.addEventListener('submit', (e) => { e.preventDefault(); save(); });
    const history = h('div', { id: 'procdoc-versions' });
    const ownerRead = h('dl', { id: 'procdoc-owner-read' });
    const ownerHistory = h('div', { id: 'procdoc-owner-texts' });

    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('procdoc.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => load() }, t('common.refresh'))),
      h('p', { class: 'muted' }, t('procdoc.intro')),
      h('section', { class: 'card', 'aria-labelledby': 'procdoc-current-heading' },
        h('h2', { id: 'procdoc-current-heading' }, t('procdoc.current')), current, h('div', { class: 'buttons' }, printButton), printFallback),
      h('section', { class: 'card', 'aria-labelledby': 'procdoc-owner-heading' },
        h('h2', { id: 'procdoc-owner-heading' }, t('procdoc.owner')), readOnly ? null : h('p', { class: 'muted' }, t('procdoc.owner_hint')), ownerState,
        readOnly ? ownerRead : form),
      h('section', { class: 'card', 'aria-labelledby': 'procdoc-history-heading' },
        h('h2', { id: 'procdoc-history-heading' }, t('procdoc.history')), history,
        h('h3', {}, t('procdoc.owner_history')), ownerHistory));

    // showCurrent says which version is in force and what posbox put in it.
    function showCurrent(doc) {
      const c = doc.content;
      const simulated = c.tses.some((x) => x.simulated);
      clear(current,
        h('p', {}, badge(t('procdoc.version_n', { n: doc.version }), 'ok'), ' ', t('procdoc.valid_from', { time: fmtDateTime(doc.generated_at) })),
        simulated ? h('p', { class: 'notice bad', role: 'alert', id: 'procdoc-simulated' }, t('procdoc.simulated')) : null,
        h('ul', {},
          h('li', {}, t('procdoc.program', { version: c.software.version })),
          c.tses.length ? c.tses.map((x) => h('li', { class: 'mono' }, t('procdoc.tse', { serial: x.serial_number }))) : h('li', {}, t('procdoc.tse_none')),
          h('li', {}, c.registers.length ? t('procdoc.registers', { list: c.registers.map((r) => r.client_serial).join(', ') }) : t('procdoc.registers_none'))),
        h('p', { class: 'muted mono' }, t('procdoc.checksum', { sum: doc.sha256 })));
      const o = c.owner_text;
      ownerState.textContent = o.version ? t('procdoc.owner_saved', { time: fmtDateTime(o.saved_at), name: o.saved_by_name }) : t('procdoc.owner_none');
      return o;
    }

    function showHistory(versions, texts) {
      clear(history, table([
        { label: t('procdoc.version'), cell: (v) => String(v.version) },
        { label: t('procdoc.generated'), cell: (v) => fmtDateTime(v.generated_at) },
        { label: t('procdoc.sum'), cell: (v) => h('span', { class: 'mono' }, v.sha256.slice(0, 12) + '…') },
        { label: t('common.actions'), cell: (v) => {
          const b = h('button', { type: 'button', class: 'secondary small', dataset: { version: v.version } }, t('procdoc.open', { n: v.version }));
          b.addEventListener('click', () => openPrint(`/api/fiscal/procedure-document/versions/${v.version}/print`, b));
          return b;
        } },
      ], versions, { caption: t('procdoc.history') }));
      clear(ownerHistory, table([
        { label: t('procdoc.version'), cell: (o) => String(o.version) },
        { label: t('procdoc.saved_at'), cell: (o) => fmtDateTime(o.saved_at) },
        { label: t('procdoc.saved_by'), cell: (o) => o.saved_by_name },
      ], texts, { caption: t('procdoc.owner_history'), empty: t('procdoc.owner_none') }));
    }

    // load shows the version in force (made now if the box changed), the
    // saved sections (under a draft an expired session left) and the history.
    async function load({ fill = true } = {}) {
      try {
        // The document first: asking for it makes the new version the
        // list then holds.
        const { procedure_document: doc } = await api.get('/api/fiscal/procedure-document');
        const [{ versions }, { owner_texts: texts }] = await Promise.all([
          api.get('/api/fiscal/procedure-document/versions'), api.get('/api/fiscal/procedure-document/owner-texts')]);
        const o = showCurrent(doc);
        if (readOnly) {
          clear(ownerRead, SECTIONS.flatMap((name) => [h('dt', {}, t(`procdoc.${name}`)), h('dd', { class: 'owner-text' }, o[name] || '–')]));
        } else if (fill) {
          for (const name of SECTIONS) form.elements[name].value = o[name] ?? '';
          // The draft an expired session left goes over the saved text,
          // and from now on every edit is kept as the draft.
          if (!bound) { bindDraft(form, DRAFT); bound = true; }
        }
        showHistory(versions, texts);
      } catch (err) {
        clear(current, errorLine(err));
      }
    }

    async function save() {
      clearErrors(form);
      const body = Object.fromEntries(SECTIONS.map((name) => [name, form.elements[name].value]));
      await withBusy(saveButton, async () => {
        try {
          const res = await api.put('/api/fiscal/procedure-document/owner-text', body);
          dropDraft(DRAFT);
          toast(res.procedure_document ? t('procdoc.saved', { n: res.procedure_document.version }) : t('procdoc.saved_text'));
          await load({ fill: false });
        } catch (err) {
          showError(form, err);
        }
      });
    }

    // openPrint opens a page to print (the version in force, or one of
    // the versions before) in a new window.
    function openPrint(path, button) {
      return openPrintPage(path, { button, fallback: printFallback, blockedText: t('procdoc.print_blocked'), track: (w) => { waiting = w; } });
    }

    await load();
    return () => { if (waiting) waiting.close(); };
  },
};
