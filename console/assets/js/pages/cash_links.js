// What the cash page links to that other pages already do: the day's
// daily closings with their Z-reports (closings_list.js) and the month's
// DATEV file (datev_download.js); the DATEV accounts are set on the
// fiscal page.
import { t, addStrings } from '../i18n.js';
import { h, clear, errorLine } from '../ui.js';
import { fmtDay } from '../format.js';
import { closingsList } from './closings_list.js';
import { datevDownloadForm } from './datev_download.js';

addStrings({
  de: {
    'cash.closings': 'Tagesabschlüsse und Z-Bons am {day}', 'cash.no_closings': 'Für diesen Tag gibt es noch keinen Tagesabschluss.',
    'cash.datev': 'DATEV-Datei für die Steuerberatung',
    'cash.datev_hint': 'Die Buchungsdatei eines Monats. Beraternummer, Mandantennummer und Konten stehen unter',
    'cash.datev_link': 'Steuerdaten',
  },
  en: {
    'cash.closings': 'Daily closings and Z reports on {day}', 'cash.no_closings': 'There is no daily closing for this day yet.',
    'cash.datev': 'DATEV file for the tax adviser',
    'cash.datev_hint': 'A month\'s booking file. Consultant number, client number and accounts are set under',
    'cash.datev_link': 'Fiscal records',
  },
});

// linksSections are the two cards; load(day) shows that day's closings.
export function linksSections({ today, navigate }) {
  const closings = closingsList({ listId: 'cash-closing-list', fallbackId: 'cash-closing-print-fallback', empty: t('cash.no_closings') });
  const heading = h('h2', { id: 'cash-closings-heading' });
  const closingsCard = h('section', { class: 'card', id: 'cash-closings', 'aria-labelledby': 'cash-closings-heading' },
    heading, closings.list, closings.fallback);
  const datevCard = h('section', { class: 'card', id: 'cash-datev', 'aria-labelledby': 'cash-datev-heading' },
    h('h2', { id: 'cash-datev-heading' }, t('cash.datev')),
    h('p', { class: 'muted' }, `${t('cash.datev_hint')} `,
      h('a', { href: '/fiscal', onclick: (e) => { e.preventDefault(); navigate('/fiscal'); } }, t('cash.datev_link')), '.'),
    datevDownloadForm({ id: 'cash-datev-download', today }));

  async function load(day) {
    heading.textContent = t('cash.closings', { day: fmtDay(day) });
    try {
      await closings.load(day, day);
    } catch (err) {
      clear(closings.list, errorLine(err));
    }
  }
  return { cards: [closingsCard, datevCard], load, stop: closings.stop };
}
