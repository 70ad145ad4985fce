// The cash page's shared words: the kinds of cash movement as the owner
// reads them (fiscal/cashbook/kinds.go), signed amounts, a count's
// difference, and the register choice of its forms.
import { t, addStrings } from '../i18n.js';
import { h, field } from '../ui.js';
import { fmtMoney, locale } from '../format.js';

addStrings({
  de: {
    'cash.kind.opening_float': 'Anfangsbestand (Wechselgeld)', 'cash.kind.tip_payout': 'Trinkgeld-Auszahlung an Personal',
    'cash.kind.transfer_out': 'Geldtransit an Bank oder Tresor', 'cash.kind.transfer_in': 'Geldtransit aus Bank oder Tresor',
    'cash.kind.deposit': 'Einzahlung', 'cash.kind.private_deposit': 'Privateinlage', 'cash.kind.private_withdrawal': 'Privatentnahme',
    'cash.kind.wage': 'Lohnzahlung', 'cash.kind.expense': 'Auszahlung (Ausgabe)', 'cash.kind.difference': 'Kassendifferenz',
    'cash.kind.unknown': 'Sonstige Buchung',
    'cash.register': 'Kasse', 'cash.register_other': 'Andere Kasse …', 'cash.register_name': 'Name der Kasse',
    'cash.register_name_hint': 'Genau so, wie die Kasse ihn zeigt, z. B. KASSE-01.',
    'cash.amount_bad': 'Bitte einen Betrag wie 12,50 eingeben.',
    'cash.shortfall': 'Fehlbetrag {amount}', 'cash.surplus': 'Überschuss {amount}', 'cash.no_difference': 'keine Differenz',
  },
  en: {
    'cash.kind.opening_float': 'Opening float (change)', 'cash.kind.tip_payout': 'Tips paid out to staff',
    'cash.kind.transfer_out': 'Cash to the bank or safe', 'cash.kind.transfer_in': 'Cash from the bank or safe',
    'cash.kind.deposit': 'Deposit', 'cash.kind.private_deposit': 'Owner\'s deposit', 'cash.kind.private_withdrawal': 'Owner\'s withdrawal',
    'cash.kind.wage': 'Wage payment', 'cash.kind.expense': 'Payout (expense)', 'cash.kind.difference': 'Cash difference',
    'cash.kind.unknown': 'Other entry',
    'cash.register': 'Register', 'cash.register_other': 'Another register …', 'cash.register_name': 'Name of the register',
    'cash.register_name_hint': 'Exactly as the register shows it, e.g. KASSE-01.',
    'cash.amount_bad': 'Please enter an amount such as 12.50.',
    'cash.shortfall': 'Shortfall {amount}', 'cash.surplus': 'Surplus {amount}', 'cash.no_difference': 'no difference',
  },
});

// KINDS are the movements one books, in kinds.go's order: sign +1 puts
// money into the drawer, −1 takes it out; a count's difference is booked
// by the count only and is not here.
export const KINDS = [
  { name: 'opening_float', sign: +1 }, { name: 'tip_payout', sign: -1 },
  { name: 'transfer_out', sign: -1 }, { name: 'transfer_in', sign: +1 },
  { name: 'deposit', sign: +1 }, { name: 'private_deposit', sign: +1 }, { name: 'private_withdrawal', sign: -1 },
  { name: 'wage', sign: -1, reason: true }, { name: 'expense', sign: -1, reason: true, voucher: true },
];

// kindLabel is a kind's name for the owner (never the API's).
export function kindLabel(kind) {
  const key = `cash.kind.${kind}`;
  const s = t(key);
  return s === key ? t('cash.kind.unknown') : s;
}

// fmtSigned: +50,00 € or −12,50 €, which way the money went.
export function fmtSigned(n) {
  return new Intl.NumberFormat(locale(), { style: 'currency', currency: 'EUR', signDisplay: 'exceptZero' }).format(Number(n));
}

// differenceText says a count's difference in words: Fehlbetrag (cash
// missing), Überschuss (more than expected) or none.
export function differenceText(d) {
  const n = Number(d);
  if (n < 0) return t('cash.shortfall', { amount: fmtMoney(-n) });
  if (n > 0) return t('cash.surplus', { amount: fmtMoney(n) });
  return t('cash.no_difference');
}

// euroCents reads an amount the way it is typed ("12,50", "1.234,50",
// "12.50") as cents; NaN when it is no amount of at most two decimals.
export function euroCents(text) {
  let s = String(text).replace(/[\s\u00a0€]/g, '');
  const comma = s.lastIndexOf(','), dot = s.lastIndexOf('.');
  if (comma >= 0 && dot >= 0) s = s.split(comma > dot ? '.' : ',').join('');
  s = s.replace(',', '.');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(s)) return NaN;
  return Math.round(Number(s) * 100);
}

// registerField chooses a register of serials (keeping keep when it is
// one); with other, a register posbox has not seen yet can be named
// (registerOf reads the choice).
export function registerField(serials, { keep, other = false } = {}) {
  const value = serials.includes(keep) ? keep : serials[0] || '';
  const options = serials.map((s) => [s, s]);
  if (other) options.push(['', t('cash.register_other')]);
  const select = field({ name: 'client_serial', label: t('cash.register'), type: 'select', required: true, value, options });
  if (!other) return select;
  const name = field({ name: 'other_serial', label: t('cash.register_name'), hint: t('cash.register_name_hint'), required: true,
    attrs: { autocomplete: 'off', maxlength: 50 } });
  const show = () => { name.hidden = select.querySelector('select').value !== ''; };
  select.querySelector('select').addEventListener('change', show);
  show();
  return h('div', { class: 'register-choice' }, select, name);
}

// registerOf is the register a form names (its choice or the typed name).
export function registerOf(form) {
  const el = form.elements;
  const v = el.client_serial ? el.client_serial.value : '';
  return v !== '' || !el.other_serial ? v : el.other_serial.value.trim();
}
