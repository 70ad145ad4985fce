// After a restore from the copy off the box (GET /api/tse/after-restore):
// the sales the TSE signed that the restored box does not have, with what
// their receipts said, for the owner to re-enter at the till and tick off
// here ("nachgetragen"). The dashboard shows afterRestoreCard while the
// comparison waits for the TSE or anything is left to re-enter.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, badge, errorLine, toast, withBusy, confirmDialog, errorText } from '../ui.js';
import { fmtDateTime, fmtMoney, fmtNumber } from '../format.js';
import { paymentType } from '../tse_words.js';

addStrings({
  de: {
    'ar.title': 'Nach der Wiederherstellung',
    'ar.card_title': 'Fehlende Verkäufe nach der Wiederherstellung',
    'ar.card_pending': 'Diese posbox wurde aus der Sicherung wiederhergestellt. Der Abgleich mit der TSE wartet noch, weil die TSE nicht erreichbar ist; posbox versucht es weiter. Die Kassen verkaufen währenddessen normal.',
    'ar.card_open': 'Die TSE hat {n} Verkäufe signiert, die in der wiederhergestellten posbox fehlen. Bitte an der Kasse nachtragen.',
    'ar.card_open_one': 'Die TSE hat einen Verkauf signiert, der in der wiederhergestellten posbox fehlt. Bitte an der Kasse nachtragen.',
    'ar.show': 'Anzeigen',
    'ar.none': 'Diese posbox wurde nicht aus einer Sicherung wiederhergestellt. Hier ist nichts zu tun.',
    'ar.intro': 'Diese posbox wurde am {restored} aus der Sicherung außer Haus wiederhergestellt. Die Sicherung reichte bis {through}. Was die TSE kurz vor dem Ausfall noch signiert hat, fehlt in den Kassendaten: Bitte tragen Sie diese Verkäufe an der Kasse nach und haken Sie sie hier ab.',
    'ar.intro_unknown': 'Diese posbox wurde am {restored} aus der Sicherung außer Haus wiederhergestellt. Was die TSE kurz vor dem Ausfall noch signiert hat, fehlt in den Kassendaten: Bitte tragen Sie diese Verkäufe an der Kasse nach und haken Sie sie hier ab.',
    'ar.pending': 'Der Abgleich mit der TSE wartet: Die TSE ist noch nicht erreichbar (Versuche bisher: {attempts}, zuletzt {time}). posbox versucht es weiter; die Kassen verkaufen währenddessen normal.',
    'ar.pending_first': 'Der Abgleich mit der TSE läuft gleich an.',
    'ar.compared': 'Abgeglichen am {time} (alle Vorgänge der TSE ab {from}).',
    'ar.nothing': 'Die TSE hat nichts signiert, was hier fehlt. Es ist nichts nachzutragen.',
    'ar.all_done': 'Alle fehlenden Verkäufe sind nachgetragen.',
    'ar.open_count': 'Noch nachzutragen: {n}',
    'ar.sale': 'TSE-Vorgang Nr. {number}',
    'ar.when': 'Zeit', 'ar.till': 'Kasse', 'ar.kind': 'Art', 'ar.state': 'Stand bei der TSE',
    'ar.per_rate': 'Betrag je Steuersatz', 'ar.payments': 'Bezahlt', 'ar.total': 'Summe', 'ar.counter': 'Signaturzähler',
    'ar.raw': 'Inhalt wie signiert',
    'ar.state.FINISHED': 'abgeschlossen', 'ar.state.CANCELLED': 'abgebrochen', 'ar.state.ACTIVE': 'begonnen, nicht abgeschlossen',
    'ar.kind.Beleg': 'Beleg', 'ar.kind.AVBelegstorno': 'Storno', 'ar.kind.AVTraining': 'Trainingsbeleg', 'ar.kind.AVTransfer': 'Geldtransfer',
    'ar.kind.AVBestellung': 'Bestellung', 'ar.kind.AVBelegabbruch': 'Abgebrochener Vorgang', 'ar.kind.AVSachbezug': 'Sachbezug',
    'ar.kind.AVRechnung': 'Rechnung', 'ar.kind.AVSonstige': 'Sonstiger Vorgang',
    'ar.kind.order': 'Bestellung', 'ar.kind.started': 'Vorgang ohne Belegdaten', 'ar.kind.other': 'Sonstiger Vorgang',
    'ar.to_do': 'nachzutragen', 'ar.done': 'nachgetragen',
    'ar.done_by': 'Nachgetragen am {time} von {name}',
    'ar.mark': 'Als nachgetragen markieren', 'ar.mark_all': 'Alle als nachgetragen markieren',
    'ar.mark_all_confirm': 'Alle {n} Verkäufe als nachgetragen markieren? Das lässt sich nicht rückgängig machen.',
    'ar.marked': 'Als nachgetragen markiert.',
  },
  en: {
    'ar.title': 'After the restore',
    'ar.card_title': 'Sales missing after the restore',
    'ar.card_pending': 'This posbox was restored from the backup. The comparison with the TSE is still waiting because the TSE cannot be reached; posbox keeps trying. The tills sell as usual meanwhile.',
    'ar.card_open': 'The TSE signed {n} sales that the restored posbox lacks. Please re-enter them at the till.',
    'ar.card_open_one': 'The TSE signed one sale that the restored posbox lacks. Please re-enter it at the till.',
    'ar.show': 'Show',
    'ar.none': 'This posbox was not restored from a backup. Nothing to do here.',
    'ar.intro': 'This posbox was restored on {restored} from the off-site copy, which reached up to {through}. What the TSE signed shortly before the failure is missing from the sales records: please re-enter these sales at the till and tick them off here.',
    'ar.intro_unknown': 'This posbox was restored on {restored} from the off-site copy. What the TSE signed shortly before the failure is missing from the sales records: please re-enter these sales at the till and tick them off here.',
    'ar.pending': 'The comparison with the TSE is waiting: the TSE cannot be reached yet (attempts so far: {attempts}, last at {time}). posbox keeps trying; the tills sell as usual meanwhile.',
    'ar.pending_first': 'The comparison with the TSE is about to start.',
    'ar.compared': 'Compared on {time} (every TSE transaction since {from}).',
    'ar.nothing': 'The TSE signed nothing that is missing here. Nothing to re-enter.',
    'ar.all_done': 'All missing sales have been re-entered.',
    'ar.open_count': 'Left to re-enter: {n}',
    'ar.sale': 'TSE transaction no. {number}',
    'ar.when': 'Time', 'ar.till': 'Till', 'ar.kind': 'Kind', 'ar.state': 'State at the TSE',
    'ar.per_rate': 'Amount per VAT rate', 'ar.payments': 'Paid', 'ar.total': 'Total', 'ar.counter': 'Signature counter',
    'ar.raw': 'Content as signed',
    'ar.state.FINISHED': 'finished', 'ar.state.CANCELLED': 'cancelled', 'ar.state.ACTIVE': 'started, not finished',
    'ar.kind.Beleg': 'Receipt', 'ar.kind.AVBelegstorno': 'Storno', 'ar.kind.AVTraining': 'Training receipt', 'ar.kind.AVTransfer': 'Money transfer',
    'ar.kind.AVBestellung': 'Order', 'ar.kind.AVBelegabbruch': 'Aborted transaction', 'ar.kind.AVSachbezug': 'Benefit in kind',
    'ar.kind.AVRechnung': 'Invoice', 'ar.kind.AVSonstige': 'Other',
    'ar.kind.order': 'Order', 'ar.kind.started': 'Transaction without receipt data', 'ar.kind.other': 'Other',
    'ar.to_do': 'to re-enter', 'ar.done': 're-entered',
    'ar.done_by': 'Re-entered on {time} by {name}',
    'ar.mark': 'Mark as re-entered', 'ar.mark_all': 'Mark all as re-entered',
    'ar.mark_all_confirm': 'Mark all {n} sales as re-entered? This cannot be undone.',
    'ar.marked': 'Marked as re-entered.',
  },
});

const PATH = '/tse/after-restore';
const VAT = { NORMAL: '19 %', REDUCED_1: '7 %', SPECIAL_RATE_1: '10,7 %', SPECIAL_RATE_2: '5,5 %', NULL: '0 %' };
const vat = (r) => VAT[r] || r;

// afterRestoreCard is the dashboard's card from the settled GET; null
// when there is nothing to say (never restored, or everything re-entered).
export function afterRestoreCard(res, navigate) {
  if (res.status === 'rejected') return null; // the TSE card says what is wrong
  const a = res.value.after_restore;
  if (a.state === 'none' || (a.state === 'done' && a.open === 0)) return null;
  const text = a.state === 'pending' ? t('ar.card_pending') : a.open === 1 ? t('ar.card_open_one') : t('ar.card_open', { n: fmtNumber(a.open, 0) });
  return h('section', { class: 'card', id: 'after-restore', dataset: { state: a.state } }, h('h2', {}, t('ar.card_title')),
    h('p', { class: a.state === 'pending' ? 'notice' : 'notice bad' }, text),
    h('p', {}, h('a', { href: PATH, onclick: (e) => { e.preventDefault(); navigate(PATH); } }, t('ar.show'))));
}

// kindOf is what the transaction was, in words.
function kindOf(m) {
  if (m.receipt_kind) { const s = t(`ar.kind.${m.receipt_kind}`); return s.startsWith('ar.kind.') ? t('ar.kind.other') : s; }
  if (m.process_type === 'Bestellung-V1') return t('ar.kind.order');
  return m.process_type ? t('ar.kind.other') : t('ar.kind.started');
}

// cents adds amounts as signed (up to five decimals) in whole cents.
const cents = (list) => list.reduce((sum, x) => sum + Math.round(Number(x.amount) * 100), 0);

function missingItem(m, mark) {
  const open = !m.acknowledged_at;
  const facts = [
    [t('ar.when'), fmtDateTime(m.time_start)], [t('ar.till'), m.client_serial], [t('ar.kind'), kindOf(m)],
    [t('ar.state'), t(`ar.state.${m.state}`)],
  ];
  if (m.amounts_per_vat_rate.length) {
    facts.push([t('ar.per_rate'), m.amounts_per_vat_rate.map((v) => h('div', {}, `${vat(v.vat_rate)}: ${fmtMoney(v.amount)}`))]);
    facts.push([t('ar.total'), h('strong', {}, fmtMoney(cents(m.amounts_per_vat_rate) / 100))]);
  }
  if (m.amounts_per_payment_type.length) {
    facts.push([t('ar.payments'), m.amounts_per_payment_type.map((p) =>
      h('div', {}, `${paymentType(p.payment_type)}: ${p.currency_code === 'EUR' ? fmtMoney(p.amount) : `${fmtNumber(p.amount)} ${p.currency_code}`}`))]);
  }
  if (!m.receipt_kind && m.process_data) facts.push([t('ar.raw'), h('code', { class: 'wrap-anywhere' }, m.process_data)]);
  facts.push([t('ar.counter'), String(m.signature_counter)]);
  return h('li', { class: 'card missing-sale', dataset: { number: m.number, open: String(open) } },
    h('h3', {}, t('ar.sale', { number: m.number }), ' ', open ? badge(t('ar.to_do'), 'bad') : badge(t('ar.done'), 'ok')),
    h('dl', { class: 'facts' }, facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    open ? h('p', {}, h('button', { type: 'button', class: 'mark', onclick: (e) => mark(e.currentTarget, { tx_ids: [m.id] }) }, t('ar.mark')))
      : h('p', { class: 'muted done-by' }, t('ar.done_by', { time: fmtDateTime(m.acknowledged_at), name: m.acknowledged_by ? m.acknowledged_by.name : '' })));
}

function view(a, mark) {
  if (a.state === 'none') return [h('p', { class: 'empty' }, t('ar.none'))];
  const out = [h('p', { id: 'after-restore-intro' }, a.replicated_through ?
    t('ar.intro', { restored: fmtDateTime(a.restored_at), through: fmtDateTime(a.replicated_through) }) :
    t('ar.intro_unknown', { restored: fmtDateTime(a.restored_at) }))];
  if (a.state === 'pending') {
    out.push(h('p', { class: 'notice', role: 'status', id: 'after-restore-pending' }, a.attempts ?
      t('ar.pending', { attempts: fmtNumber(a.attempts, 0), time: fmtDateTime(a.last_attempt_at) }) : t('ar.pending_first')));
    return out;
  }
  out.push(h('p', { class: 'muted' }, t('ar.compared', { time: fmtDateTime(a.compared_at), from: fmtDateTime(a.compared_from) })));
  if (!a.missing.length) return [...out, h('p', { class: 'notice ok', id: 'after-restore-status' }, t('ar.nothing'))];
  out.push(a.open ? h('div', { class: 'page-head' }, h('p', { id: 'after-restore-status' }, h('strong', {}, t('ar.open_count', { n: fmtNumber(a.open, 0) }))),
    h('button', { type: 'button', class: 'secondary', id: 'mark-all', onclick: async (e) => {
      const btn = e.currentTarget;
      if (await confirmDialog(t('ar.mark_all_confirm', { n: fmtNumber(a.open, 0) }), t('ar.mark_all'))) mark(btn, { all: true });
    } }, t('ar.mark_all'))) : h('p', { class: 'notice ok', id: 'after-restore-status' }, t('ar.all_done')));
  out.push(h('ul', { class: 'plain', id: 'missing-sales' }, a.missing.map((m) => missingItem(m, mark))));
  return out;
}

export default {
  async render(main) {
    const body = h('div', { id: 'after-restore-page' });
    main.append(h('div', { class: 'page-head' }, h('h1', {}, t('ar.title'))), body);
    const show = (a) => clear(body, view(a, mark));
    async function mark(button, req) {
      await withBusy(button, async () => {
        try {
          show((await api.post('/api/tse/after-restore/acknowledge', req)).after_restore);
          toast(t('ar.marked'));
        } catch (err) {
          toast(errorText(err), 'error');
        }
      });
    }
    try {
      show((await api.get('/api/tse/after-restore')).after_restore);
    } catch (err) {
      clear(body, errorLine(err));
    }
  },
};
