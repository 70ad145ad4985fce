// The Kasse page's waiter settlement (Bedienerabrechnung): a staff
// member and a day, their settlement and its print page (A4, 80 mm).
// API: docs/API.md "The waiter settlement"; the formula: docs/CASHDESK.md.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, withBusy, showError, clearErrors, openPrintPage } from '../ui.js';
import { fmtMoney, fmtDay, localDate } from '../format.js';

addStrings({
  de: {
    'settle.title': 'Bedienerabrechnung', 'settle.user': 'Bedienung', 'settle.date': 'Geschäftstag', 'settle.show': 'Abrechnung anzeigen',
    'settle.inactive': '{name} (deaktiviert)', 'settle.receipts': 'Belege', 'settle.cash': 'Bar', 'settle.card': 'Karte (unbar)',
    'settle.total': 'Umsatz gesamt', 'settle.stornos': 'Stornos ({count}), enthalten', 'settle.tips_cash': 'Trinkgeld bar',
    'settle.tips_card': 'Trinkgeld Karte', 'settle.paid_out': 'Trinkgeld ausgezahlt', 'settle.tips_open': 'Trinkgeld noch nicht ausgezahlt',
    'settle.float': 'Wechselgeld (Anfangsbestand)', 'settle.hand_over': 'Abzugeben',
    'settle.formula': 'Abzugeben = Wechselgeld + Bareinnahmen − ausgezahltes Trinkgeld.',
    'settle.of': 'Abrechnung von {name} für {day}', 'settle.print_a4': 'Drucken (A4)', 'settle.print_receipt': 'Bon 80 mm',
    'settle.print_blocked': 'Das Fenster wurde blockiert: Abrechnung hier öffnen.', 'settle.no_users': 'Es gibt noch keine Bedienung.',
  },
  en: {
    'settle.title': 'Waiter settlement', 'settle.user': 'Staff member', 'settle.date': 'Business day', 'settle.show': 'Show settlement',
    'settle.inactive': '{name} (deactivated)', 'settle.receipts': 'Receipts', 'settle.cash': 'Cash', 'settle.card': 'Card (non-cash)',
    'settle.total': 'Total sales', 'settle.stornos': 'Stornos ({count}), included', 'settle.tips_cash': 'Tips in cash',
    'settle.tips_card': 'Tips by card', 'settle.paid_out': 'Tips paid out', 'settle.tips_open': 'Tips not yet paid out',
    'settle.float': 'Float', 'settle.hand_over': 'To hand over',
    'settle.formula': 'To hand over = float + cash taken − tips paid out.',
    'settle.of': 'Settlement of {name} for {day}', 'settle.print_a4': 'Print (A4)', 'settle.print_receipt': '80 mm receipt',
    'settle.print_blocked': 'The window was blocked: open the settlement here.', 'settle.no_users': 'There is no staff member yet.',
  },
});

// settlementSection renders the form and, once asked, the settlement
// into container. me is the signed-in user: an admin chooses anyone
// (GET /api/users), anyone else sees their own. today is YYYY-MM-DD.
export async function settlementSection(container, { me, today = localDate() } = {}) {
  const result = h('div', { id: 'settlement-result', 'aria-live': 'polite' });
  const printFallback = h('p', { id: 'settlement-print-fallback', hidden: true });
  let users = [me];
  if (me.role === 'admin') {
    users = (await api.get('/api/users')).users.filter((u) => u.role !== 'auditor');
  }
  if (!users.length) {
    clear(container, h('h2', {}, t('settle.title')), h('p', { class: 'empty' }, t('settle.no_users')));
    return;
  }
  const options = users.map((u) => [u.id, u.is_active === false ? t('settle.inactive', { name: u.name }) : u.name]);
  const show = h('button', { type: 'submit', class: 'primary' }, t('settle.show'));
  const form = h('form', { id: 'settlement-form', class: 'inline', novalidate: true },
    field({ name: 'user_id', label: t('settle.user'), type: 'select', options, value: me.role === 'admin' ? users[0].id : me.id, required: true }),
    field({ name: 'date', label: t('settle.date'), type: 'date', value: today, required: true }),
    h('div', { class: 'buttons' }, show));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clearErrors(form);
    const q = { user_id: form.elements.user_id.value, date: form.elements.date.value };
    await withBusy(show, async () => {
      try {
        const { settlement } = await api.get('/api/cash/settlement' + api.query(q));
        clear(result, settlementView(settlement, q, printFallback));
      } catch (err) {
        clear(result);
        showError(form, err);
      }
    });
  });
  clear(container, h('h2', { id: 'settlement-heading' }, t('settle.title')), form, result, printFallback);
}

// settlementView is one settlement: its figures and the print buttons.
function settlementView(s, q, fallback) {
  const row = (label, value, cls) => h('tr', { class: cls }, h('th', { scope: 'row' }, label), h('td', { class: 'num' }, value));
  const print = (layout, label) => {
    const button = h('button', { type: 'button', class: 'print-settlement', dataset: { layout } }, label);
    const path = '/api/cash/settlement/print' + api.query({ ...q, layout: layout === 'a4' ? '' : layout });
    button.addEventListener('click', () => openPrintPage(path, { button, fallback, blockedText: t('settle.print_blocked') }));
    return button;
  };
  return h('div', { class: 'settlement' },
    h('h3', {}, t('settle.of', { name: s.user.name, day: fmtDay(s.date) })),
    h('table', { class: 'facts' }, h('tbody', {},
      row(t('settle.receipts'), String(s.receipts)),
      row(t('settle.cash'), fmtMoney(s.cash)),
      row(t('settle.card'), fmtMoney(s.card)),
      row(t('settle.total'), fmtMoney(s.total)),
      row(t('settle.stornos', { count: s.stornos.count }), fmtMoney(s.stornos.amount)),
      row(t('settle.tips_cash'), fmtMoney(s.tips.cash)),
      row(t('settle.tips_card'), fmtMoney(s.tips.card)),
      row(t('settle.paid_out'), fmtMoney(s.tips.paid_out)),
      row(t('settle.tips_open'), fmtMoney(s.tips.open)),
      row(t('settle.float'), fmtMoney(s.float)),
      row(t('settle.hand_over'), fmtMoney(s.hand_over), 'total'))),
    h('p', { class: 'hint' }, t('settle.formula')),
    h('div', { class: 'buttons' }, print('a4', t('settle.print_a4')), print('receipt', t('settle.print_receipt'))));
}
