// Discounts: the list (active and inactive), one form to create or edit
// a discount, activate/deactivate with one click, delete after asking.
// API: docs/API.md section 4. Times in the form are the restaurant's wall
// clock; money and percentages are typed as 12,50 or 12.50.
import { t, addStrings, lang } from '../i18n.js';
import * as api from '../api.js';
import { ApiError } from '../api.js';
import { h, clear, field, values, showError, clearErrors, confirmDialog, withBusy, bindDraft, dropDraft, readDraft,
  table, badge, toast, errorText } from '../ui.js';
import { fmtMoney, fmtDateTime, locale, timeZone, instantOfLocal, wallClockOf } from '../format.js';
import { codesPanel } from './discount_codes.js';
import { redemptionsPanel } from './discount_redemptions.js';
import { scheduleEditor, scheduleSummary } from './discount_schedule.js';
import { targetPicker, targetCell, emptyCatalogue } from './discount_target.js';

addStrings({
  de: {
    'disc.title': 'Rabatte', 'disc.new': 'Neuer Rabatt', 'disc.edit_title': 'Rabatt bearbeiten: {name}',
    'disc.active_list': 'Aktive Rabatte', 'disc.inactive_list': 'Inaktive Rabatte',
    'disc.none_active': 'Keine aktiven Rabatte.', 'disc.none_inactive': 'Keine inaktiven Rabatte.',
    'disc.name': 'Name', 'disc.description': 'Beschreibung', 'disc.type': 'Art', 'disc.value': 'Wert',
    'disc.type.percentage': 'Prozent (%)', 'disc.type.fixed': 'Festbetrag (€)',
    'disc.value_hint.percentage': 'Prozent von 0 bis 100, z. B. 12,5', 'disc.value_hint.fixed': 'Euro, z. B. 2,50',
    'disc.scope': 'Gilt für', 'disc.scope.order': 'Ganze Bestellung', 'disc.scope.category': 'Eine Kategorie', 'disc.scope.item': 'Einen Artikel',
    'disc.category_id': 'Kategorie-ID', 'disc.item_id': 'Artikel-ID',
    'disc.min_order': 'Mindestbestellwert (€)', 'disc.min_order_hint': 'Leer: kein Mindestwert.',
    'disc.max_discount': 'Höchstens abziehen (€)', 'disc.max_discount_hint': 'Leer: keine Obergrenze.',
    'disc.usage_limit': 'Einlösungen höchstens', 'disc.usage_limit_hint': 'Leer: unbegrenzt.',
    'disc.valid_from': 'Gültig ab', 'disc.valid_from_hint_new': 'Ortszeit ({zone}). Leer: ab sofort.',
    'disc.valid_from_hint_edit': 'Ortszeit ({zone}).',
    'disc.valid_until': 'Gültig bis (ausschließlich)', 'disc.valid_until_hint': 'Ortszeit ({zone}). Leer: ohne Ende.',
    'disc.is_active': 'Aktiv (an der Kasse einlösbar)',
    'disc.requires_code': 'Nur mit Code einlösbar', 'disc.requires_code_hint': 'Die Codes erzeugen Sie mit „Codes“ in der Liste.', 'disc.code_only': 'Nur mit Code',
    'disc.combinable': 'Mit anderen Rabatten kombinierbar',
    'disc.combinable_hint': 'Aus: Der Rabatt gilt allein, wenn er der größte ist. An: Er gilt zusammen mit den anderen kombinierbaren Rabatten, jeder auf den Rest.',
    'disc.priority': 'Priorität',
    'disc.priority_hint': 'Ganze Zahl von −1000 bis 1000. Kombinierbare Rabatte werden nach Priorität angewandt, die höhere zuerst. Leer: 0.',
    'disc.combinable_badge': 'Kombinierbar',
    'disc.approval': 'Wer darf den Rabatt geben?',
    'disc.approval.none': 'Alle Mitarbeiter',
    'disc.approval.admin_approval': 'Mitarbeiter mit Freigabe durch einen Admin',
    'disc.approval.admins_only': 'Nur Admins',
    'disc.approval_hint': 'Mit Freigabe: An der Kasse gibt ein Admin seine E-Mail und sein Passwort ein. In beiden Fällen muss ein Grund angegeben werden; er wird gespeichert.',
    'disc.approval_badge.admin_approval': 'Freigabe nötig',
    'disc.approval_badge.admins_only': 'Nur Admins',
    'disc.codes': 'Codes',
    'disc.redemptions': 'Einlösungen',
    'disc.col.discount': 'Rabatt', 'disc.col.window': 'Zeitraum', 'disc.col.usage': 'Einlösungen', 'disc.col.status': 'Status',
    'disc.min_order_short': 'ab {amount} Bestellwert', 'disc.max_short': 'höchstens {amount}',
    'disc.from': 'ab {time}', 'disc.until': 'bis {time}', 'disc.forever': 'ohne Ende', 'disc.unlimited': 'unbegrenzt',
    'disc.status.active': 'Aktiv', 'disc.status.inactive': 'Inaktiv', 'disc.status.expired': 'Abgelaufen',
    'disc.status.scheduled': 'Geplant', 'disc.status.used_up': 'Aufgebraucht',
    'disc.activate': 'Aktivieren', 'disc.deactivate': 'Deaktivieren',
    'disc.activated': '„{name}“ ist aktiv.', 'disc.deactivated': '„{name}“ ist deaktiviert.',
    'disc.created': '„{name}“ wurde angelegt.', 'disc.saved': '„{name}“ wurde gespeichert.', 'disc.deleted': '„{name}“ wurde gelöscht.',
    'disc.confirm_delete': 'Rabatt „{name}“ endgültig löschen? Bisherige Einlösungen bleiben in den Berichten. Zum Aufheben genügt „Deaktivieren“.',
    'disc.draft_restored': 'Nicht gespeicherte Eingaben wurden wiederhergestellt.',
    'disc.bad_amount': 'Bitte einen Betrag wie 12,50 eingeben (höchstens zwei Nachkommastellen).',
    'disc.bad_integer': 'Bitte eine ganze Zahl eingeben.',
    'disc.bad_datetime': 'Bitte Datum und Uhrzeit angeben.',
  },
  en: {
    'disc.title': 'Discounts', 'disc.new': 'New discount', 'disc.edit_title': 'Edit discount: {name}',
    'disc.active_list': 'Active discounts', 'disc.inactive_list': 'Inactive discounts',
    'disc.none_active': 'No active discounts.', 'disc.none_inactive': 'No inactive discounts.',
    'disc.name': 'Name', 'disc.description': 'Description', 'disc.type': 'Type', 'disc.value': 'Value',
    'disc.type.percentage': 'Percentage (%)', 'disc.type.fixed': 'Fixed amount (€)',
    'disc.value_hint.percentage': 'Percent from 0 to 100, e.g. 12.5', 'disc.value_hint.fixed': 'Euros, e.g. 2.50',
    'disc.scope': 'Applies to', 'disc.scope.order': 'Whole order', 'disc.scope.category': 'One category', 'disc.scope.item': 'One item',
    'disc.category_id': 'Category ID', 'disc.item_id': 'Item ID',
    'disc.min_order': 'Minimum order (€)', 'disc.min_order_hint': 'Empty: no minimum.',
    'disc.max_discount': 'Deduct at most (€)', 'disc.max_discount_hint': 'Empty: no cap.',
    'disc.usage_limit': 'Redemptions at most', 'disc.usage_limit_hint': 'Empty: unlimited.',
    'disc.valid_from': 'Valid from', 'disc.valid_from_hint_new': 'Local time ({zone}). Empty: from now.',
    'disc.valid_from_hint_edit': 'Local time ({zone}).',
    'disc.valid_until': 'Valid until (exclusive)', 'disc.valid_until_hint': 'Local time ({zone}). Empty: no end.',
    'disc.is_active': 'Active (redeemable at the till)',
    'disc.requires_code': 'Redeemed with a code only', 'disc.requires_code_hint': 'Make the codes with “Codes” in the list.', 'disc.code_only': 'Code only',
    'disc.combinable': 'Combines with other discounts',
    'disc.combinable_hint': 'Off: the discount applies alone when it is the largest. On: it applies together with the other combinable discounts, each on what is left.',
    'disc.priority': 'Priority',
    'disc.priority_hint': 'A whole number from −1000 to 1000. Combinable discounts apply by priority, the higher first. Empty: 0.',
    'disc.combinable_badge': 'Combinable',
    'disc.approval': 'Who may give the discount?',
    'disc.approval.none': 'All staff',
    'disc.approval.admin_approval': 'Staff with an admin\'s approval',
    'disc.approval.admins_only': 'Admins only',
    'disc.approval_hint': 'With approval: at the till an admin types in her email and password. Either way a reason is required and kept.',
    'disc.approval_badge.admin_approval': 'Approval needed',
    'disc.approval_badge.admins_only': 'Admins only',
    'disc.codes': 'Codes',
    'disc.redemptions': 'Redemptions',
    'disc.col.discount': 'Discount', 'disc.col.window': 'Period', 'disc.col.usage': 'Redemptions', 'disc.col.status': 'Status',
    'disc.min_order_short': 'orders from {amount}', 'disc.max_short': 'at most {amount}',
    'disc.from': 'from {time}', 'disc.until': 'until {time}', 'disc.forever': 'no end', 'disc.unlimited': 'unlimited',
    'disc.status.active': 'Active', 'disc.status.inactive': 'Inactive', 'disc.status.expired': 'Expired',
    'disc.status.scheduled': 'Scheduled', 'disc.status.used_up': 'Used up',
    'disc.activate': 'Activate', 'disc.deactivate': 'Deactivate',
    'disc.activated': '“{name}” is active.', 'disc.deactivated': '“{name}” is deactivated.',
    'disc.created': '“{name}” was created.', 'disc.saved': '“{name}” was saved.', 'disc.deleted': '“{name}” was deleted.',
    'disc.confirm_delete': 'Delete the discount “{name}” for good? Past redemptions stay in the reports. To stop it, “Deactivate” is enough.',
    'disc.draft_restored': 'Unsaved input was restored.',
    'disc.bad_amount': 'Please enter an amount like 12.50 (at most two decimals).',
    'disc.bad_integer': 'Please enter a whole number.',
    'disc.bad_datetime': 'Please enter a date and a time.',
  },
});

const NULLABLE = ['description', 'category_id', 'item_id', 'min_order_amount', 'max_discount_amount', 'usage_limit', 'valid_until'];

export default {
  async render(main) {
    const editor = h('div', { id: 'discount-editor' });
    const codesBox = h('div', { id: 'discount-codes-box' });
    const activeBox = h('div', { id: 'discounts-active-list' });
    const inactiveBox = h('div', { id: 'discounts-inactive-list' });
    const listError = h('p', { class: 'form-error', role: 'alert', id: 'discounts-error' });
    const newButton = h('button', { type: 'button', id: 'discount-new', onclick: () => openEditor(null) }, t('disc.new'));
    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('disc.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => load() }, t('common.refresh')), newButton),
      editor, codesBox, listError,
      h('section', { class: 'card', id: 'discounts-active' }, h('h2', {}, t('disc.active_list')), activeBox),
      h('section', { class: 'card', id: 'discounts-inactive' }, h('h2', {}, t('disc.inactive_list')), inactiveBox));

    let discounts = [];
    let catalogue = emptyCatalogue; // the till's categories and items, for the form
    let editing = undefined; // undefined: no form; null: a new discount; else the discount's id

    async function load() {
      try {
        // Without the catalogue the form asks for the id, as before.
        const cat = api.get('/api/catalogue').then((r) => r.catalogue, () => emptyCatalogue);
        discounts = (await api.get('/api/discounts')).discounts;
        catalogue = await cat;
      } catch (err) {
        listError.textContent = errorText(err);
        return false;
      }
      listError.textContent = '';
      const columns = listColumns();
      clear(activeBox, table(columns, discounts.filter((d) => d.is_active),
        { caption: t('disc.active_list'), empty: t('disc.none_active'), rowAttrs: (d) => ({ dataset: { id: d.id } }) }));
      clear(inactiveBox, table(columns, discounts.filter((d) => !d.is_active),
        { caption: t('disc.inactive_list'), empty: t('disc.none_inactive'), rowAttrs: (d) => ({ dataset: { id: d.id } }) }));
      return true;
    }

    function listColumns() {
      return [
        { label: t('disc.name'), cell: (d) => one(h('strong', {}, d.name), d.description ? h('div', { class: 'muted small-text' }, d.description) : null,
          d.requires_code ? h('div', {}, badge(t('disc.code_only'), 'neutral')) : null,
          d.combinable ? h('div', {}, badge(t('disc.combinable_badge'), 'neutral')) : null,
          d.approval !== 'none' ? h('div', {}, badge(t(`disc.approval_badge.${d.approval}`), 'warn')) : null) },
        { label: t('disc.col.discount'), cell: (d) => one(
          h('span', { class: 'discount-value' }, d.discount_type === 'percentage' ? fmtPercent(d.value) : fmtMoney(d.value)),
          d.max_discount_amount !== null ? h('div', { class: 'muted small-text' }, t('disc.max_short', { amount: fmtMoney(d.max_discount_amount) })) : null,
          d.min_order_amount !== null ? h('div', { class: 'muted small-text' }, t('disc.min_order_short', { amount: fmtMoney(d.min_order_amount) })) : null) },
        { label: t('disc.scope'), cell: (d) => one(t(`disc.scope.${d.applicable_to}`), targetCell(d)) },
        { label: t('disc.col.window'), cell: (d) => one(h('div', { class: 'nowrap' }, t('disc.from', { time: fmtDateTime(d.valid_from) })),
          h('div', { class: 'nowrap' }, d.valid_until ? t('disc.until', { time: fmtDateTime(d.valid_until) }) : h('span', { class: 'muted' }, t('disc.forever'))),
          d.schedule ? h('div', { class: 'discount-schedule' }, scheduleSummary(d.schedule)) : null) },
        { label: t('disc.col.usage'), class: 'num', cell: (d) => `${d.usage_count} / ${d.usage_limit ?? '∞'}` },
        { label: t('disc.col.status'), cell: (d) => one(statusBadge(d)) },
        { label: t('common.actions'), cell: (d) => h('div', { class: 'buttons row-actions' },
          h('button', { type: 'button', class: 'secondary small', 'aria-label': `${t('common.edit')}: ${d.name}`, onclick: () => openEditor(d) }, t('common.edit')),
          h('button', { type: 'button', class: 'secondary small', 'aria-label': `${t(d.is_active ? 'disc.deactivate' : 'disc.activate')}: ${d.name}`,
            onclick: (e) => toggleActive(d, e.currentTarget) }, t(d.is_active ? 'disc.deactivate' : 'disc.activate')),
          h('button', { type: 'button', class: 'secondary small codes', 'aria-label': `${t('disc.codes')}: ${d.name}`,
            onclick: () => { closeEditor(); codesPanel(codesBox, d, () => newButton.focus()); } }, t('disc.codes')),
          h('button', { type: 'button', class: 'secondary small redemptions', 'aria-label': `${t('disc.redemptions')}: ${d.name}`,
            onclick: () => { closeEditor(); redemptionsPanel(codesBox, d, () => newButton.focus()); } }, t('disc.redemptions')),
          h('button', { type: 'button', class: 'danger small', 'aria-label': `${t('common.delete')}: ${d.name}`,
            onclick: (e) => remove(d, e.currentTarget) }, t('common.delete'))) },
      ];
    }

    async function toggleActive(d, button) {
      await withBusy(button, async () => {
        try {
          // PUT is partial: only is_active changes.
          const res = await api.put(`/api/discounts/${d.id}`, { is_active: !d.is_active });
          toast(t(res.discount.is_active ? 'disc.activated' : 'disc.deactivated', { name: res.discount.name }));
        } catch (err) {
          showError(null, err);
        }
      });
      await load();
    }

    async function remove(d, button) {
      if (!(await confirmDialog(t('disc.confirm_delete', { name: d.name }), t('common.delete')))) return;
      const gone = await withBusy(button, async () => {
        try {
          await api.del(`/api/discounts/${d.id}`);
        } catch (err) {
          if (err.status !== 404) { showError(null, err); return false; } // 404: someone else deleted it
        }
        return true;
      });
      if (gone) {
        closeCodes();
        dropDraft(draftKey(d.id));
        if (editing === d.id) closeEditor();
        toast(t('disc.deleted', { name: d.name }));
      }
      await load();
    }

    function closeEditor() {
      editing = undefined;
      clear(editor);
    }

    // openEditor and the codes share the place below the head: one at a time.
    function closeCodes() {
      clear(codesBox);
    }

    // openEditor shows the form for a discount (null: a new one), with
    // whatever draft the session kept for it.
    function openEditor(d) {
      closeCodes();
      editing = d ? d.id : null;
      const key = draftKey(d ? d.id : null);
      const restored = !!readDraft(key);
      const init = formValuesOf(d);
      const zone = timeZone();
      const msg = h('p', { class: 'form-error', role: 'alert' });
      const submit = h('button', { type: 'submit' }, d ? t('common.save') : t('common.create'));
      const f = (opts) => field({ ...opts, value: init[opts.name] });
      const schedule = scheduleEditor(d ? d.schedule : null);
      const form = h('form', { class: 'panel', id: 'discount-form', novalidate: true },
        f({ name: 'name', label: t('disc.name'), required: true, attrs: { maxlength: 200, autocomplete: 'off' } }),
        f({ name: 'discount_type', label: t('disc.type'), type: 'select', required: true,
          options: [['percentage', t('disc.type.percentage')], ['fixed', t('disc.type.fixed')]] }),
        f({ name: 'value', label: t('disc.value'), required: true, hint: ' ', attrs: { inputmode: 'decimal', autocomplete: 'off' } }),
        f({ name: 'applicable_to', label: t('disc.scope'), type: 'select',
          options: ['order', 'category', 'item'].map((s) => [s, t(`disc.scope.${s}`)]) }),
        f({ name: 'category_id', label: t('disc.category_id'), required: true, hint: ' ', attrs: { autocomplete: 'off', spellcheck: 'false' } }),
        f({ name: 'item_id', label: t('disc.item_id'), required: true, hint: ' ', attrs: { autocomplete: 'off', spellcheck: 'false' } }),
        f({ name: 'min_order_amount', label: t('disc.min_order'), hint: t('disc.min_order_hint'), attrs: { inputmode: 'decimal', autocomplete: 'off' } }),
        f({ name: 'max_discount_amount', label: t('disc.max_discount'), hint: t('disc.max_discount_hint'), attrs: { inputmode: 'decimal', autocomplete: 'off' } }),
        f({ name: 'usage_limit', label: t('disc.usage_limit'), hint: t('disc.usage_limit_hint'), attrs: { inputmode: 'numeric', autocomplete: 'off' } }),
        f({ name: 'valid_from', label: t('disc.valid_from'), type: 'datetime-local',
          hint: t(d ? 'disc.valid_from_hint_edit' : 'disc.valid_from_hint_new', { zone }) }),
        f({ name: 'valid_until', label: t('disc.valid_until'), type: 'datetime-local', hint: t('disc.valid_until_hint', { zone }) }),
        schedule.element,
        f({ name: 'description', label: t('disc.description'), type: 'textarea', attrs: { maxlength: 2000 } }),
        f({ name: 'is_active', label: t('disc.is_active'), type: 'checkbox' }),
        f({ name: 'requires_code', label: t('disc.requires_code'), type: 'checkbox', hint: t('disc.requires_code_hint') }),
        f({ name: 'combinable', label: t('disc.combinable'), type: 'checkbox', hint: t('disc.combinable_hint') }),
        f({ name: 'priority', label: t('disc.priority'), hint: t('disc.priority_hint'), attrs: { inputmode: 'numeric', autocomplete: 'off' } }),
        f({ name: 'approval', label: t('disc.approval'), type: 'select', hint: t('disc.approval_hint'),
          options: ['none', 'admin_approval', 'admins_only'].map((a) => [a, t(`disc.approval.${a}`)]) }),
        msg,
        h('div', { class: 'buttons' }, submit,
          h('button', { type: 'button', class: 'secondary', onclick: () => { dropDraft(key); closeEditor(); newButton.focus(); } }, t('common.cancel'))));
      for (const n of ['description', 'is_active', 'requires_code', 'combinable']) form.querySelector(`[data-field="${n}"]`).classList.add('wide');
      bindDraft(form, key);

      const byName = (n) => form.querySelector(`[data-field="${n}"]`);
      // After the draft: the pickers show what its ids name.
      targetPicker(byName('category_id'), 'category', catalogue);
      targetPicker(byName('item_id'), 'item', catalogue);
      function sync() {
        const v = values(form);
        byName('category_id').hidden = v.applicable_to !== 'category';
        byName('item_id').hidden = v.applicable_to !== 'item';
        byName('value').querySelector('.hint').textContent = t(`disc.value_hint.${v.discount_type}`);
      }
      form.addEventListener('change', sync);
      sync();

      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        const current = d ? discounts.find((x) => x.id === d.id) || d : null;
        const { body, errors } = payloadOf(values(form, NULLABLE));
        const sched = schedule.read();
        body.schedule = sched.schedule;
        errors.push(...sched.errors);
        if (errors.length) {
          showError(form, new ApiError(422, { detail: t('error.fields'), errors }));
          return;
        }
        let send = body;
        if (current) {
          // PUT is partial: send only what differs from the discount as it is.
          const before = { ...payloadOf(formValuesOf(current)).body, schedule: current.schedule ?? null };
          send = {};
          for (const [k, v] of Object.entries(body)) if (JSON.stringify(v) !== JSON.stringify(before[k])) send[k] = v;
          if (!('value' in body)) send.value = null; // emptied: the API says it cannot be
        }
        await withBusy(submit, async () => {
          try {
            const res = current ? await api.put(`/api/discounts/${current.id}`, send) : await api.post('/api/discounts', send);
            dropDraft(key);
            closeEditor();
            toast(t(current ? 'disc.saved' : 'disc.created', { name: res.discount.name }));
            newButton.focus();
          } catch (err) {
            showError(form, err);
            return;
          }
          await load();
        });
      });

      clear(editor, h('section', { class: 'card editor' },
        h('h2', {}, d ? t('disc.edit_title', { name: d.name }) : t('disc.new')),
        restored ? h('p', { class: 'notice', role: 'status' }, t('disc.draft_restored')) : null,
        form));
      editor.scrollIntoView({ block: 'start' });
      form.querySelector('input[name=name]').focus({ preventScroll: true });
    }

    if (await load()) {
      // A draft the session kept (it expired mid-edit): open its form again.
      if (readDraft(draftKey(null))) openEditor(null);
      else {
        const d = discounts.find((x) => readDraft(draftKey(x.id)));
        if (d) openEditor(d);
      }
    }
  },
};

const draftKey = (id) => `discount.${id || 'new'}`;

// one wraps a table cell's parts in one element (on a phone a cell is a
// two-column grid: its label, then one item).
const one = (...children) => h('div', {}, ...children);

function statusBadge(d) {
  const now = Date.now();
  if (!d.is_active) return badge(t('disc.status.inactive'), 'neutral');
  if (d.valid_until && now >= Date.parse(d.valid_until)) return badge(t('disc.status.expired'), 'warn');
  if (now < Date.parse(d.valid_from)) return badge(t('disc.status.scheduled'), 'neutral');
  if (d.usage_limit !== null && d.usage_count >= d.usage_limit) return badge(t('disc.status.used_up'), 'warn');
  return badge(t('disc.status.active'), 'ok');
}

// fmtPercent: 12,50 % (two decimals, the locale's separator).
function fmtPercent(n) {
  return `${new Intl.NumberFormat(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(n))}\u00a0%`;
}

// formValuesOf is what the form shows for a discount (null: a new one).
function formValuesOf(d) {
  if (!d) {
    return { name: '', description: '', discount_type: 'percentage', value: '', applicable_to: 'order', category_id: '', item_id: '',
      min_order_amount: '', max_discount_amount: '', usage_limit: '', valid_from: '', valid_until: '', is_active: true, requires_code: false,
      combinable: false, priority: '', approval: 'none' };
  }
  return {
    name: d.name, description: d.description ?? '', discount_type: d.discount_type,
    value: numberInput(d.value, d.discount_type === 'fixed'), applicable_to: d.applicable_to,
    category_id: d.category_id ?? '', item_id: d.item_id ?? '',
    min_order_amount: numberInput(d.min_order_amount, true), max_discount_amount: numberInput(d.max_discount_amount, true),
    usage_limit: d.usage_limit === null ? '' : String(d.usage_limit),
    valid_from: wallClockOf(d.valid_from), valid_until: d.valid_until ? wallClockOf(d.valid_until) : '',
    is_active: d.is_active, requires_code: d.requires_code,
    combinable: d.combinable, priority: d.priority === 0 ? '' : String(d.priority), approval: d.approval,
  };
}

// numberInput writes a number as the form shows it: 12,5 or 2,50 in
// German, 12.5 or 2.50 in English.
function numberInput(n, money) {
  if (n === null || n === undefined) return '';
  const s = money ? Number(n).toFixed(2) : String(n);
  return lang() === 'de' ? s.replace('.', ',') : s;
}

// payloadOf turns the form's values into the API's members; errors are
// the field errors found before asking the API (amounts it cannot read).
// Nullable members come as null when empty (values(form, NULLABLE)).
function payloadOf(v) {
  const errors = [];
  const empty = (x) => x === null || x === undefined || String(x).trim() === '';
  const amount = (name) => {
    if (empty(v[name])) return null;
    const n = parseAmount(v[name]);
    if (n === undefined) errors.push({ field: name, message: t('disc.bad_amount') });
    return n;
  };
  const body = { name: v.name, discount_type: v.discount_type };
  body.description = empty(v.description) ? null : v.description;
  const value = amount('value');
  if (value !== null) body.value = value; // absent: the API says it is required
  body.applicable_to = v.applicable_to;
  body.category_id = v.applicable_to === 'category' && !empty(v.category_id) ? v.category_id.trim() : null;
  body.item_id = v.applicable_to === 'item' && !empty(v.item_id) ? v.item_id.trim() : null;
  body.min_order_amount = amount('min_order_amount');
  body.max_discount_amount = amount('max_discount_amount');
  if (empty(v.usage_limit)) body.usage_limit = null;
  else if (/^\s*\d{1,9}\s*$/.test(v.usage_limit)) body.usage_limit = Number(v.usage_limit);
  else errors.push({ field: 'usage_limit', message: t('disc.bad_integer') });
  if (!empty(v.valid_from)) {
    body.valid_from = instantOfLocal(v.valid_from);
    if (!body.valid_from) errors.push({ field: 'valid_from', message: t('disc.bad_datetime') });
  } // empty: now for a new discount; an edit leaves it as it is (it cannot be cleared)
  if (empty(v.valid_until)) body.valid_until = null;
  else {
    body.valid_until = instantOfLocal(v.valid_until);
    if (!body.valid_until) errors.push({ field: 'valid_until', message: t('disc.bad_datetime') });
  }
  body.is_active = !!v.is_active;
  body.requires_code = !!v.requires_code;
  body.combinable = !!v.combinable;
  body.approval = v.approval || 'none';
  // The form may show a typographic minus; empty is the default 0.
  const prio = empty(v.priority) ? '0' : String(v.priority).trim().replace('\u2212', '-');
  if (/^-?\d{1,4}$/.test(prio)) body.priority = Number(prio);
  else errors.push({ field: 'priority', message: t('disc.bad_integer') });
  return { body, errors };
}

// parseAmount reads "12,50", "12.50", "1.234,50" or "1,234.50" as a
// number with at most two decimals; undefined when it is not one.
export function parseAmount(text) {
  let s = String(text).replace(/[\s\u00a0€%]/g, '');
  const lastComma = s.lastIndexOf(','), lastDot = s.lastIndexOf('.');
  const dec = Math.max(lastComma, lastDot);
  if (lastComma >= 0 && lastDot >= 0) {
    // The later one is the decimal mark, the other groups thousands.
    const group = dec === lastComma ? '.' : ',';
    s = s.split(group).join('');
  }
  s = s.replace(',', '.');
  if (!/^-?\d{1,13}(\.\d{1,2})?$/.test(s)) return undefined;
  return Number(s); // JSON.stringify writes it back with the same digits
}
