// The TSE in an owner's words, shared by the header banner, the
// dashboard and the TSE page: whether a certified TSE signs (the built-in
// simulator does not), what is wrong with it, and a receipt's type and
// state. API codes are looked up here; none is ever shown as such.
import { t, addStrings } from './i18n.js';
import { h } from './ui.js';
import { fmtDateTime, fmtMoney, fmtCurrency } from './format.js';

addStrings({
  de: {
    'tsew.cert_warn': 'Das Zertifikat der TSE läuft am {date} ab (noch {n} Tage). Danach kann die TSE nicht mehr signieren. Ersetzen Sie die TSE vorher: auf der Seite „TSE“ unter „TSE ersetzen“ (Anleitung in docs/TSE.md).',
    'tsew.cert_warn_one': 'Das Zertifikat der TSE läuft morgen ab ({date}). Danach kann die TSE nicht mehr signieren. Ersetzen Sie die TSE jetzt: auf der Seite „TSE“ unter „TSE ersetzen“ (Anleitung in docs/TSE.md).',
    'tsew.cert_warn_today': 'Das Zertifikat der TSE läuft heute ab ({date}). Ersetzen Sie die TSE jetzt: auf der Seite „TSE“ unter „TSE ersetzen“ (Anleitung in docs/TSE.md).',
    'tsew.cert_warn_expired': 'Das Zertifikat der TSE ist am {date} abgelaufen: sie kann nicht mehr signieren, die Belege warten. Ersetzen Sie die TSE jetzt: auf der Seite „TSE“ unter „TSE ersetzen“ (Anleitung in docs/TSE.md).',
    'tsew.banner_title': 'Keine zertifizierte TSE: Belege sind steuerlich nicht gültig.',
    'tsew.banner_todo': 'posbox signiert mit einem Simulator, der nur zum Ausprobieren und Üben gedacht ist. Richten Sie die TSE von fiskaly ein: Anleitung in docs/TSE.md, Befehl „posbox tse setup“.',
    'tsew.simulated': 'Simulator – keine echte TSE',
    'tsew.p.circuit': 'Die Verbindung zur TSE ist unterbrochen. Die Kassen verkaufen weiter; die Belege tragen „TSE ausgefallen“ und werden nachsigniert, sobald die Verbindung zurück ist.',
    'tsew.p.paused': 'Die TSE kann gerade nicht signieren ({cause}). Die Belege warten und werden signiert, sobald die Ursache behoben ist (docs/TSE.md).',
    'tsew.p.refused': 'Die TSE nimmt die Kasse {register} nicht an ({cause}). Ihre Belege warten; die anderen Kassen signieren weiter.',
    'tsew.p.never': 'Die TSE wurde noch nie erreicht. Bitte die Internetverbindung prüfen.',
    'tsew.p.state': 'Die TSE ist nicht betriebsbereit. Es muss eine neue TSE eingerichtet werden (docs/TSE.md).',
    'tsew.p.cert': 'Das Zertifikat der TSE ist abgelaufen. Es muss eine neue TSE eingerichtet werden (docs/TSE.md).',
    'tsew.p.attention': '{n} Beleg(e) hat die TSE abgelehnt: bitte unten in der Warteschlange prüfen.',
    'tsew.p.self_test': 'Der letzte Selbsttest ist fehlgeschlagen.',
    'tsew.p.outage': 'Ausfall seit {time}: {cause}. Die Belege tragen „TSE ausgefallen“.',
    'tsew.cause.unknown': 'die TSE meldet einen Fehler',
    'tsew.cause.E_NETWORK': 'TSE-Anbieter nicht erreichbar (Netzwerkfehler)',
    'tsew.cause.E_TIMEOUT': 'TSE-Anbieter antwortet nicht rechtzeitig',
    'tsew.cause.E_UNAVAILABLE': 'TSE-Anbieter nicht erreichbar',
    'tsew.cause.E_TSS_LOCKED': 'TSE vom Anbieter vorübergehend gesperrt',
    'tsew.cause.E_TOO_MANY_REQUESTS': 'Anfragelimit des TSE-Anbieters erreicht',
    'tsew.cause.E_UNAUTHORIZED': 'der TSE-Anbieter lehnt die Zugangsdaten ab',
    'tsew.cause.E_TSS_NOT_FOUND': 'TSE beim Anbieter nicht gefunden',
    'tsew.cause.E_TSS_NOT_INITIALIZED': 'TSE nicht eingerichtet',
    'tsew.cause.E_TSS_DISABLED': 'TSE deaktiviert',
    'tsew.cause.E_TSS_DEFECTIVE': 'TSE defekt',
    'tsew.cause.E_CERTIFICATE_EXPIRED': 'Zertifikat der TSE abgelaufen',
    'tsew.cause.E_TX_LIMIT_REACHED': 'zu viele offene Vorgänge in der TSE',
    'tsew.cause.E_CLIENT_LIMIT_REACHED': 'Höchstzahl an Kassen erreicht',
    'tsew.cause.E_CLIENT_DEREGISTERED': 'Kasse bei der TSE abgemeldet',
    'tsew.cause.E_CLIENT_NOT_FOUND': 'Kasse bei der TSE nicht registriert',
    'tsew.cause.E_FAILED_SCHEMA_VALIDATION': 'die TSE lehnt die Belegdaten ab',
    'tsew.type.RECEIPT': 'Beleg', 'tsew.type.TRAINING': 'Trainingsbeleg', 'tsew.type.TRANSFER': 'Geldtransfer', 'tsew.type.ORDER': 'Bestellung',
    'tsew.type.CANCELLATION': 'Abgebrochener Vorgang', 'tsew.type.ABORT': 'Abbruch', 'tsew.type.storno': 'Storno', 'tsew.type.BENEFIT_IN_KIND': 'Sachbezug', 'tsew.type.INVOICE': 'Rechnung',
    'tsew.type.OTHER': 'Sonstiger Vorgang', 'tsew.type.none': 'Vorgang (nur bei der TSE bekannt)',
    'tsew.pay.CASH': 'Bar', 'tsew.pay.NON_CASH': 'Karte/unbar',
    'tsew.pay.foreign': '{amount} (entspricht {eur})', 'tsew.pay.eur_unknown': 'Euro-Wert nicht erfasst',
  },
  en: {
    'tsew.cert_warn': 'The TSE\'s certificate expires on {date} ({n} days left). After that the TSE cannot sign. Replace the TSE before then: on the "TSE" page under "Replace the TSE" (instructions in docs/TSE.md).',
    'tsew.cert_warn_one': 'The TSE\'s certificate expires tomorrow ({date}). After that the TSE cannot sign. Replace the TSE now: on the "TSE" page under "Replace the TSE" (instructions in docs/TSE.md).',
    'tsew.cert_warn_today': 'The TSE\'s certificate expires today ({date}). Replace the TSE now: on the "TSE" page under "Replace the TSE" (instructions in docs/TSE.md).',
    'tsew.cert_warn_expired': 'The TSE\'s certificate expired on {date}: it cannot sign any more, receipts wait. Replace the TSE now: on the "TSE" page under "Replace the TSE" (instructions in docs/TSE.md).',
    'tsew.banner_title': 'No certified TSE: receipts are not valid for tax purposes.',
    'tsew.banner_todo': 'posbox signs with a simulator meant for trying things out and training. Set up the fiskaly TSE: instructions in docs/TSE.md, command "posbox tse setup".',
    'tsew.simulated': 'Simulator – no real TSE',
    'tsew.p.circuit': 'The connection to the TSE is interrupted. The tills keep selling; receipts say "TSE ausgefallen" and are signed later, once the connection is back.',
    'tsew.p.paused': 'The TSE cannot sign right now ({cause}). Receipts wait and are signed once the cause is fixed (docs/TSE.md).',
    'tsew.p.refused': 'The TSE does not accept the till {register} ({cause}). Its receipts wait; the other tills keep signing.',
    'tsew.p.never': 'The TSE was never reached. Please check the internet connection.',
    'tsew.p.state': 'The TSE is not ready to sign. A new TSE has to be set up (docs/TSE.md).',
    'tsew.p.cert': 'The TSE\'s certificate has expired. A new TSE has to be set up (docs/TSE.md).',
    'tsew.p.attention': 'The TSE refused {n} receipt(s): please check the queue below.',
    'tsew.p.self_test': 'The last self-test failed.',
    'tsew.p.outage': 'Outage since {time}: {cause}. Receipts say "TSE ausgefallen".',
    'tsew.cause.unknown': 'the TSE reports an error',
    'tsew.cause.E_NETWORK': 'TSE provider unreachable (network error)',
    'tsew.cause.E_TIMEOUT': 'TSE provider did not answer in time',
    'tsew.cause.E_UNAVAILABLE': 'TSE provider unreachable',
    'tsew.cause.E_TSS_LOCKED': 'TSE temporarily locked by the provider',
    'tsew.cause.E_TOO_MANY_REQUESTS': 'TSE provider rate limit reached',
    'tsew.cause.E_UNAUTHORIZED': 'the TSE provider refuses the credentials',
    'tsew.cause.E_TSS_NOT_FOUND': 'TSE not found at the provider',
    'tsew.cause.E_TSS_NOT_INITIALIZED': 'TSE not set up',
    'tsew.cause.E_TSS_DISABLED': 'TSE disabled',
    'tsew.cause.E_TSS_DEFECTIVE': 'TSE defective',
    'tsew.cause.E_CERTIFICATE_EXPIRED': 'TSE certificate expired',
    'tsew.cause.E_TX_LIMIT_REACHED': 'too many open transactions at the TSE',
    'tsew.cause.E_CLIENT_LIMIT_REACHED': 'terminal limit reached',
    'tsew.cause.E_CLIENT_DEREGISTERED': 'till deregistered at the TSE',
    'tsew.cause.E_CLIENT_NOT_FOUND': 'till not registered at the TSE',
    'tsew.cause.E_FAILED_SCHEMA_VALIDATION': 'the TSE refuses the receipt data',
    'tsew.type.RECEIPT': 'Receipt', 'tsew.type.TRAINING': 'Training receipt', 'tsew.type.TRANSFER': 'Money transfer', 'tsew.type.ORDER': 'Order',
    'tsew.type.CANCELLATION': 'Aborted transaction', 'tsew.type.ABORT': 'Aborted', 'tsew.type.storno': 'Storno', 'tsew.type.BENEFIT_IN_KIND': 'Benefit in kind', 'tsew.type.INVOICE': 'Invoice',
    'tsew.type.OTHER': 'Other', 'tsew.type.none': 'Transaction (known only at the TSE)',
    'tsew.pay.CASH': 'Cash', 'tsew.pay.NON_CASH': 'Card/non-cash',
    'tsew.pay.foreign': '{amount} (worth {eur})', 'tsew.pay.eur_unknown': 'euro value not recorded',
  },
});

// lookup is a translated code, or the fallback key's text.
function lookup(prefix, code, fallback) {
  const key = `${prefix}${code}`;
  const s = t(key);
  return s === key ? t(fallback) : s;
}

// cause is a TSE error code in words.
export const cause = (code) => lookup('tsew.cause.', code || '', 'tsew.cause.unknown');

// receiptType is a sale's kind in words ("Beleg", "Storno"): a storno is a
// receipt that names the sale it reverses (docs/API.md); CANCELLATION is
// an aborted transaction, never a storno.
export const receiptType = (rt, cancels) => (cancels ? t('tsew.type.storno')
  : rt ? lookup('tsew.type.', rt, 'tsew.type.OTHER') : t('tsew.type.none'));

// paymentType is CASH or NON_CASH in words.
export const paymentType = (p) => lookup('tsew.pay.', p, 'tsew.pay.NON_CASH');

// paymentAmount is a payment's amount in words: euros, or a foreign
// currency with its euro value ("9,50 CHF (entspricht 10,00 €)"); a
// foreign payment recorded before posbox took its euro value says so.
export function paymentAmount(p) {
  if (p.currency_code === 'EUR') return fmtMoney(p.amount);
  const eur = p.amount_eur === null || p.amount_eur === undefined ? t('tsew.pay.eur_unknown') : fmtMoney(p.amount_eur);
  return t('tsew.pay.foreign', { amount: fmtCurrency(p.amount, p.currency_code), eur });
}

// payment is a payment in words: its type and amount.
export const payment = (p) => `${paymentType(p.payment_type)} ${paymentAmount(p)}`;

// problems lists what is wrong with the TSE, from GET /api/tse/status's
// fields (its `problems` are English sentences for technicians).
export function problems(s) {
  const out = [];
  if (s.open_outage) out.push(t('tsew.p.outage', { time: fmtDateTime(s.open_outage.started_at), cause: cause(s.open_outage.reason_code) }));
  if (s.circuit === 'open') out.push(t('tsew.p.circuit'));
  if (s.queue_paused) out.push(t('tsew.p.paused', { cause: cause(s.last_error && s.last_error.code) }));
  for (const r of s.refused_terminals || []) out.push(t('tsew.p.refused', { register: r.client_serial, cause: cause(r.code) }));
  if (s.state === null) out.push(t('tsew.p.never'));
  else if (s.days_to_certificate_expiry !== null && s.days_to_certificate_expiry < 0) out.push(t('tsew.p.cert'));
  else if (s.state !== 'INITIALIZED') out.push(t('tsew.p.state'));
  if (s.attention_count) out.push(t('tsew.p.attention', { n: s.attention_count }));
  if (s.last_self_test && s.last_self_test.state === 'FAILED') out.push(t('tsew.p.self_test'));
  return out;
}

// certWarning is the certificate's expiry warning (from 90 days before,
// GET /api/tse/status `certificate_warning`) with what to do, or null.
export function certWarning(s) {
  const w = s.certificate_warning;
  if (!w) return null;
  const date = fmtDateTime(w.certificate_expiry);
  const key = w.days_left < 0 ? 'tsew.cert_warn_expired' : w.days_left === 0 ? 'tsew.cert_warn_today'
    : w.days_left === 1 ? 'tsew.cert_warn_one' : 'tsew.cert_warn';
  return h('p', { class: `notice ${w.threshold_days <= 30 ? 'bad' : 'warn'}`, id: 'cert-warning', role: 'alert',
    dataset: { threshold: String(w.threshold_days) } }, t(key, { date, n: w.days_left }));
}

// simulatorBanner is the notice every page shows while the simulator
// signs: she cannot miss it, and it says what to do.
export function simulatorBanner() {
  return h('div', { class: 'sim-banner', id: 'sim-banner', role: 'alert' },
    h('strong', {}, t('tsew.banner_title')), ' ', h('span', {}, t('tsew.banner_todo')));
}
