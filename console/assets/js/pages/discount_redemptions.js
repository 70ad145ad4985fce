// The redemptions of one discount (docs/API.md, "A discount's
// redemptions"): who gave it when, for how much, who approved it and
// why, and whether the receipt books it. The discounts page opens it
// below its list with the row's "Einlösungen" button.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, table, errorText } from '../ui.js';
import { fmtDateTime, fmtMoney } from '../format.js';

addStrings({
  de: {
    'red.title': 'Einlösungen: {name}',
    'red.intro': 'Die neuesten 200 Einlösungen, die neueste zuerst. „Auf dem Beleg“ heißt: Die Kasse hat den Rabatt mit dieser Einlösung auf einen Beleg gebucht.',
    'red.list': 'Einlösungen', 'red.none': 'Dieser Rabatt wurde noch nicht eingelöst.',
    'red.col.when': 'Zeitpunkt', 'red.col.amount': 'Rabatt', 'red.col.order': 'Bestellsumme', 'red.col.by': 'Gegeben von',
    'red.col.approved': 'Freigabe durch', 'red.col.reason': 'Grund', 'red.col.code': 'Code', 'red.col.order_ref': 'Bestellung',
    'red.col.booked': 'Auf dem Beleg',
  },
  en: {
    'red.title': 'Redemptions: {name}',
    'red.intro': 'The newest 200 redemptions, newest first. “On the receipt” means: the till booked the discount with this redemption on a receipt.',
    'red.list': 'Redemptions', 'red.none': 'This discount has not been redeemed yet.',
    'red.col.when': 'When', 'red.col.amount': 'Discount', 'red.col.order': 'Order total', 'red.col.by': 'Given by',
    'red.col.approved': 'Approved by', 'red.col.reason': 'Reason', 'red.col.code': 'Code', 'red.col.order_ref': 'Order',
    'red.col.booked': 'On the receipt',
  },
});

// redemptionsPanel fills container with the redemptions of discount d;
// onClose runs when the admin closes it.
export async function redemptionsPanel(container, d, onClose) {
  const listBox = h('div', { id: 'redemptions-list' });
  const closeButton = h('button', { type: 'button', class: 'secondary', id: 'redemptions-close', onclick: () => { clear(container); onClose(); } },
    t('common.close'));
  clear(container, h('section', { class: 'card', id: 'discount-redemptions' },
    h('h2', {}, t('red.title', { name: d.name })),
    h('p', { class: 'hint' }, t('red.intro')),
    h('div', { class: 'buttons' }, closeButton),
    listBox));
  try {
    const list = (await api.get(`/api/discounts/${d.id}/redemptions`)).redemptions;
    clear(listBox, table(columns(), list, { caption: t('red.list'), empty: t('red.none'), rowAttrs: (r) => ({ dataset: { id: r.id } }) }));
  } catch (err) {
    clear(listBox, h('p', { class: 'form-error', role: 'alert' }, errorText(err)));
  }
  container.scrollIntoView({ block: 'start' });
}

function columns() {
  const orDash = (v) => v ?? '–';
  return [
    { label: t('red.col.when'), cell: (r) => fmtDateTime(r.redeemed_at) },
    { label: t('red.col.amount'), class: 'num', cell: (r) => fmtMoney(r.amount) },
    { label: t('red.col.order'), class: 'num', cell: (r) => fmtMoney(r.order_total) },
    { label: t('red.col.by'), cell: (r) => r.redeemed_by },
    { label: t('red.col.approved'), cell: (r) => orDash(r.approved_by) },
    { label: t('red.col.reason'), cell: (r) => orDash(r.reason) },
    { label: t('red.col.code'), cell: (r) => (r.code ? h('span', { class: 'mono code-text' }, r.code) : '–') },
    { label: t('red.col.order_ref'), cell: (r) => orDash(r.order_ref) },
    { label: t('red.col.booked'), cell: (r) => t(r.booked ? 'common.yes' : 'common.no') },
  ];
}
