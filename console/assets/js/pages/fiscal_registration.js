// The fiscal page's registration with the tax office (§146a (4) AO):
// what the registration still lacks, the printable report, and the
// master data it is made from (the business, the location, the TSE's
// dates, the registers). API: docs/API.md section 5.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, badge, field, withBusy, showError, clearErrors, errorLine, toast, bindDraft, readDraft, dropDraft, openPrintPage } from '../ui.js';
import { elsterSection } from './fiscal_registration_elster.js';

addStrings({
  de: {
    'fiscal.simulated': 'Keine zertifizierte TSE: Der Simulator signiert, die Belege sind steuerlich nicht gültig, und er darf nicht gemeldet werden. Richten Sie die TSE von fiskaly ein (Anleitung in docs/TSE.md, Befehl „posbox tse setup“) und melden Sie dann diese.',
    'fiscal.missing.simulated': 'Eine zertifizierte TSE: Der Simulator ist keine (docs/TSE.md, „posbox tse setup“).',
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
    'fiscal.registers': 'Kassen', 'fiscal.client_serial': 'Kasse (Seriennummer)', 'fiscal.register_n': 'Kasse {n}', 'fiscal.type': 'Art (z. B. Tablet-Kassensystem)',
    'fiscal.brand': 'Marke', 'fiscal.model': 'Modell', 'fiscal.software_brand': 'Software (leer: posbox)',
    'fiscal.software_version': 'Softwareversion', 'fiscal.acquired_on': 'Angeschafft am', 'fiscal.in_service_on': 'In Betrieb seit',
    'fiscal.decommissioned_on': 'Außer Betrieb seit', 'fiscal.add_register': 'Kasse hinzufügen', 'fiscal.remove_register': 'Kasse {n} entfernen',
    'fiscal.no_registers': 'Keine Kassen eingetragen.', 'fiscal.saved': 'Die Stammdaten sind gespeichert.',
  },
  en: {
    'fiscal.simulated': 'No certified TSE: the simulator signs, receipts are not valid for tax purposes, and it must not be registered. Set up the fiskaly TSE (instructions in docs/TSE.md, command "posbox tse setup") and register that one.',
    'fiscal.missing.simulated': 'A certified TSE: the simulator is none (docs/TSE.md, "posbox tse setup").',
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
    'fiscal.registers': 'Registers', 'fiscal.client_serial': 'Register (serial)', 'fiscal.register_n': 'Register {n}', 'fiscal.type': 'Type (e.g. Tablet-Kassensystem)',
    'fiscal.brand': 'Brand', 'fiscal.model': 'Model', 'fiscal.software_brand': 'Software (empty: posbox)',
    'fiscal.software_version': 'Software version', 'fiscal.acquired_on': 'Acquired on', 'fiscal.in_service_on': 'In service since',
    'fiscal.decommissioned_on': 'Decommissioned on', 'fiscal.add_register': 'Add register', 'fiscal.remove_register': 'Remove register {n}',
    'fiscal.no_registers': 'No registers listed.', 'fiscal.saved': 'The master data is saved.',
  },
});

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

// missingText says a registration's `missing` item in words.
function missingText(m, simulated) {
  if (m.startsWith('tse.bsi_certification_id')) return t(simulated ? 'fiscal.missing.simulated' : 'fiscal.missing.bsi');
  const reg = /^registers\[(.*)\]\.(.*)$/.exec(m);
  if (reg) return t(reg[2] === 'acquired_on' ? 'fiscal.missing.register_acquired' : 'fiscal.missing.register_kind', { register: reg[1] });
  const key = `fiscal.missing.${m}`;
  const s = t(key);
  return s === key ? m : s;
}

// registrationSection is the registration's card. load fetches what the
// registration lacks and hands its registers to onRegisters; loadMaster
// fills the master data form (and its draft); stop closes a report
// window still waiting (the page's cleanup: the session may have ended).
export function registrationSection({ onRegisters, readOnly = false }) {
  let waiting = null; // the report's window while its report is fetched
  const missingBox = h('div', { id: 'registration-missing', 'aria-live': 'polite' });
  const printButton = h('button', { type: 'button', class: 'secondary', id: 'print-registration' }, t('fiscal.print'));
  const printFallback = h('p', { id: 'print-fallback', hidden: true });
  printButton.addEventListener('click', () => openReport());
  const registerBox = h('div', { class: 'wide registers', id: 'registers' });
  const elster = elsterSection({ readOnly });
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

  // lock shows the master data to the tax office's auditor: every value
  // readable, nothing to change or save.
  function lock() {
    masterForm.classList.add('read-only');
    for (const el of masterForm.querySelectorAll('input, select, textarea')) {
      if (el.tagName === 'INPUT') el.readOnly = true; else el.disabled = true;
    }
  }

  async function loadMaster() {
    try {
      const m = (await api.get('/api/fiscal/master-data')).master_data;
      if (readOnly) { fillMaster(m, null); lock(); return; }
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
    elster.load();
    try {
      const r = (await api.get('/api/fiscal/registration')).registration;
      onRegisters(r.cash_registers);
      const simulated = r.tses.some((x) => x.simulated);
      clear(missingBox,
        simulated ? h('p', { class: 'notice bad', id: 'registration-simulated', role: 'alert' }, t('fiscal.simulated')) : null,
        r.missing.length
          ? [h('p', {}, badge(t('fiscal.missing'), 'warn wrap')), h('ul', { class: 'problems' }, r.missing.map((m) => h('li', {}, missingText(m, simulated))))]
          : h('p', {}, badge(t('fiscal.complete'), 'ok wrap')));
    } catch (err) {
      clear(missingBox, errorLine(err));
    }
  }

  // openReport opens the printable report in a new window.
  function openReport() {
    return openPrintPage('/api/fiscal/registration/print',
      { button: printButton, fallback: printFallback, blockedText: t('fiscal.print_blocked'), track: (w) => { waiting = w; } });
  }

  const card = h('section', { class: 'card', id: 'fiscal-registration', 'aria-labelledby': 'registration-heading' },
    h('h2', { id: 'registration-heading' }, t('fiscal.registration')), h('p', { class: 'muted' }, t('fiscal.registration_hint')),
    missingBox, h('div', { class: 'buttons' }, printButton), printFallback, elster.box,
    h('h3', { id: 'master-heading' }, t('fiscal.master')), masterForm);
  return {
    card, load: loadRegistration, loadMaster,
    stop: () => { if (waiting) waiting.close(); },
  };
}
