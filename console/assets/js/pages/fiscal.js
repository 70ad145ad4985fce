// Fiscal records, what an owner hands over at a cash audit, one card per
// module: the TSE archive (fiscal_archive.js: its state, the verified TAR
// files, an export of dates), the daily closings (fiscal_closings.js),
// the DSFinV-K export (fiscal_dsfinvk.js), the adviser's DATEV file
// (fiscal_datev.js, admins only) and the §146a registration
// (fiscal_registration.js: master data and the printable report). The tax
// office's auditor (readOnly) sees all of it and can change none of it.
// API: docs/API.md section 5; what the records are: docs/FISCAL.md.
import { t, addStrings } from '../i18n.js';
import { h } from '../ui.js';
import { localDate } from '../format.js';
import { archiveSection } from './fiscal_archive.js';
import { closingsSection } from './fiscal_closings.js';
import { dsfinvkSection } from './fiscal_dsfinvk.js';
import { datevSection } from './fiscal_datev.js';
import { registrationSection } from './fiscal_registration.js';

addStrings({
  de: {
    'fiscal.title': 'Steuerdaten',
    'fiscal.intro': 'Alles, was bei einer Kassennachschau übergeben wird: das TSE-Archiv, die Tagesabschlüsse, der DSFinV-K-Export und die Meldung nach §146a AO.',
  },
  en: {
    'fiscal.title': 'Fiscal records',
    'fiscal.intro': 'Everything handed over at a cash audit: the TSE archive, the daily closings, the DSFinV-K export and the §146a AO registration.',
  },
});

export default {
  async render(main, { readOnly = false } = {}) {
    const today = localDate();
    const monthStart = `${today.slice(0, 8)}01`;
    const archive = archiveSection({ today, monthStart, readOnly });
    const closings = closingsSection({ today, readOnly });
    const dsfinvk = dsfinvkSection({ today, monthStart });
    // The DATEV file is the adviser's, not the auditor's: admins only.
    const datev = readOnly ? null : datevSection({ today });
    // The registration knows every register (sold or in the master
    // data): the closings offer them.
    const registration = registrationSection({ onRegisters: closings.setRegisters, readOnly });

    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('fiscal.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => refresh() }, t('common.refresh'))),
      h('p', { class: 'muted' }, t('fiscal.intro')),
      archive.card, closings.card, dsfinvk.card, ...(datev ? [datev.card] : []), registration.card);

    async function refresh() {
      await Promise.all([archive.load(), closings.load(), registration.load()]);
    }
    await Promise.all([refresh(), registration.loadMaster(), datev && datev.load()]);
    return () => { archive.stop(); registration.stop(); closings.stop(); };
  },
};
