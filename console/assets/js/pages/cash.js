// The cash page (Kasse), one card per module: the cash per register now
// (cash_registers.js), booking a movement (cash_booking.js), the cash
// count (cash_count.js), the chosen day's movements with their reversal
// (cash_movements.js, cash_reverse.js) and counts (cash_counts.js), and
// that day's closings and the DATEV file (cash_links.js), the waiter
// settlement (cash_settlement.js). Admins only.
// API: docs/API.md "The cash book"; what it records: docs/CASHDESK.md.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, field, errorLine } from '../ui.js';
import { localDate } from '../format.js';
import { registersSection } from './cash_registers.js';
import { bookingSection } from './cash_booking.js';
import { countSection } from './cash_count.js';
import { movementsSection } from './cash_movements.js';
import { countsSection } from './cash_counts.js';
import { linksSections } from './cash_links.js';
import { settlementSection } from './cash_settlement.js';

addStrings({
  de: {
    'cash.title': 'Kasse',
    'cash.intro': 'Das Bargeld in jeder Kasse: was drin sein sollte, was hinein- und herausgeht, und der Kassensturz. Jede Buchung ist ein Beleg der Kasse und steht im Tagesabschluss.',
    'cash.day': 'Tag',
  },
  en: {
    'cash.title': 'Cash',
    'cash.intro': 'The cash in each register: what should be in it, what goes in and out, and the cash count. Every entry is a receipt of the register and is in the daily closing.',
    'cash.day': 'Day',
  },
});

export default {
  async render(main, { me, navigate }) {
    const today = localDate();
    const registers = registersSection();
    const booking = bookingSection({ onBooked: refresh });
    const count = countSection({ onCounted: refresh });
    const movements = movementsSection({ today, mayReverse: me.role === 'admin', onChanged: refresh });
    const counts = countsSection();
    const links = linksSections({ today, navigate });
    const loadError = h('div', { id: 'cash-load-error' });
    const dayForm = h('form', { class: 'toolbar', id: 'cash-day', novalidate: true },
      field({ name: 'day', label: t('cash.day'), type: 'date', value: today, required: true, attrs: { max: today } }));
    dayForm.addEventListener('submit', (e) => e.preventDefault());
    dayForm.elements.day.addEventListener('change', () => { if (dayForm.elements.day.value) loadDay(); });
    // The waiter settlement (Bedienerabrechnung), cash_settlement.js.
    const settlement = h('section', { class: 'card', id: 'cash-settlement', 'aria-labelledby': 'settlement-heading' });

    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('cash.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => refresh() }, t('common.refresh'))),
      h('p', { class: 'muted' }, t('cash.intro')),
      loadError, registers.card, booking.card, count.card, dayForm, movements.card, counts.card, settlement, ...links.cards);

    async function loadRegisters() {
      try {
        const list = (await api.get('/api/cash/registers')).registers;
        loadError.replaceChildren();
        registers.show(list);
        booking.setRegisters(list.map((r) => r.client_serial));
        count.setRegisters(list.filter((r) => r.book_started).map((r) => r.client_serial));
      } catch (err) {
        loadError.replaceChildren(errorLine(err));
      }
    }
    function loadDay() {
      const day = dayForm.elements.day.value || today;
      return Promise.all([movements.load(day), counts.load(day), links.load(day)]);
    }
    async function refresh() {
      await Promise.all([loadRegisters(), loadDay()]);
    }
    await Promise.all([refresh(), settlementSection(settlement, { me, today })
      .catch((err) => settlement.replaceChildren(errorLine(err)))]);
    return () => links.stop();
  },
};
