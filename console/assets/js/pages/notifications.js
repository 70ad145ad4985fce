// Notifications: the rules (which event goes where), a test send, the
// queue (what waits or is stuck, and why) and the delivery log. API:
// docs/API.md section 6. The queue and the log refresh every 30 seconds.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, values, showError, clearErrors, confirmDialog, withBusy, bindDraft, dropDraft,
  table, badge, toast, errorText, errorLine } from '../ui.js';
import { fmtDateTime, fmtTime } from '../format.js';

addStrings({
  de: {
    'notif.title': 'Benachrichtigungen',
    'notif.rules': 'Regeln', 'notif.rules_intro': 'Jedes Ereignis eines Typs geht an jede aktive Regel dieses Typs.',
    'notif.no_rules': 'Noch keine Regeln.', 'notif.new_rule': 'Neue Regel',
    'notif.channel': 'Kanal', 'notif.event_type': 'Ereignis', 'notif.destination': 'Ziel', 'notif.secret': 'Signatur-Geheimnis',
    'notif.enabled': 'Aktiv', 'notif.disabled': 'Aus', 'notif.is_enabled': 'Aktiv (sofort senden)', 'notif.status': 'Status',
    'notif.channel.email': 'E-Mail', 'notif.channel.sms': 'SMS', 'notif.channel.webhook': 'Webhook',
    'notif.dest_hint.email': 'Eine E-Mail-Adresse, z. B. kueche@example.com',
    'notif.dest_hint.sms': 'Eine Mobilnummer im Format +4915112345678',
    'notif.dest_hint.webhook': 'Eine http- oder https-Adresse, z. B. https://example.com/hook',
    'notif.secret_hint': 'Für Webhooks erzeugt die posbox beim Anlegen ein Geheimnis (whsec_…), mit dem der Empfänger die Signatur prüft. Es steht danach in der Liste.',
    'notif.show_secret': 'Anzeigen', 'notif.other_type': 'Anderes Ereignis …', 'notif.custom_type': 'Name des Ereignisses',
    'notif.custom_type_hint': 'Kleinbuchstaben, Ziffern, _ und ., z. B. table.call',
    'notif.enable': 'Aktivieren', 'notif.disable': 'Deaktivieren',
    'notif.created': 'Die Regel wurde angelegt.', 'notif.enabled_msg': 'Die Regel ist aktiv.',
    'notif.disabled_msg': 'Die Regel ist aus; wartende Zustellungen wurden verworfen.', 'notif.deleted': 'Die Regel wurde gelöscht.',
    'notif.confirm_delete': 'Die Regel „{type} → {destination}“ löschen? Wartende Zustellungen werden verworfen; das Protokoll bleibt.',
    'notif.test': 'Testnachricht senden', 'notif.test_intro': 'Sendet sofort eine Testnachricht, ohne Regel und ohne Wiederholung.',
    'notif.test_send': 'Senden', 'notif.test_ok': 'Zugestellt', 'notif.test_failed': 'Fehlgeschlagen',
    'notif.test_at': '{channel} an {destination}, {time}',
    'notif.queue': 'Warteschlange', 'notif.queue_intro': 'Zustellungen, die noch warten oder endgültig gescheitert sind.',
    'notif.pending': 'Wartend', 'notif.failed': 'Fehlgeschlagen',
    'notif.no_pending': 'Nichts wartet.', 'notif.no_failed': 'Keine fehlgeschlagenen Zustellungen.',
    'notif.rule': 'Regel', 'notif.rule_gone': 'Regel gelöscht', 'notif.attempts': 'Versuche', 'notif.next_attempt': 'Nächster Versuch',
    'notif.last_error': 'Letzter Fehler', 'notif.created_at': 'Angelegt',
    'notif.log': 'Versandprotokoll', 'notif.log_intro': 'Die letzten 50 Versuche, neueste zuerst.', 'notif.no_log': 'Noch nichts gesendet.',
    'notif.time': 'Zeit', 'notif.result': 'Ergebnis', 'notif.message': 'Nachricht', 'notif.attempt_n': '{n}. Versuch',
    'notif.delivered': 'Zugestellt', 'notif.error': 'Fehler',
    'notif.technical': 'Meldung des Empfängers oder Mailservers (technisch, unübersetzt):',
    'notif.auto': 'Warteschlange und Protokoll aktualisieren sich alle 30 Sekunden.',
    'notif.type.new_order': 'Neue Bestellung', 'notif.type.order_cancelled': 'Storno', 'notif.type.payment_received': 'Zahlung eingegangen',
    'notif.type.low_stock': 'Bestand niedrig', 'notif.type.shift_change': 'Schichtänderung', 'notif.type.clock_in': 'Eingestempelt',
    'notif.type.clock_out': 'Ausgestempelt', 'notif.type.discount_exhausted': 'Rabatt aufgebraucht', 'notif.type.tse_error': 'TSE-Fehler',
    'notif.type.tse_recovered': 'TSE wieder in Ordnung',
    'notif.type.replication_stalled': 'Datensicherung außer Haus stockt', 'notif.type.replication_recovered': 'Datensicherung außer Haus läuft wieder', 'notif.type.tse_certificate_expiring': 'TSE-Zertifikat läuft ab',
    'notif.type.daily_report': 'Tagesbericht', 'notif.type.test': 'Testnachricht',
    'notif.type.labour_law_warning': 'Arbeitszeit-Warnung (ArbZG)', 'notif.type.time_entry_open_too_long': 'Zu lange eingestempelt',
    'notif.not_set_up.email': 'E-Mail ist nicht eingerichtet', 'notif.not_set_up.sms': 'SMS ist nicht eingerichtet',
    'notif.to_settings': 'Einstellungen',
    'notif.refused_not_set_up': 'Diese Regel kann erst aktiv sein, wenn der Versand eingerichtet ist (Einstellungen). Sie können sie ausgeschaltet anlegen.',
    'notif.edit_rule': 'Regel bearbeiten', 'notif.saved': 'Die Regel ist gespeichert.',
  },
  en: {
    'notif.title': 'Notifications',
    'notif.rules': 'Rules', 'notif.rules_intro': 'Every event of a type goes to every enabled rule of that type.',
    'notif.no_rules': 'No rules yet.', 'notif.new_rule': 'New rule',
    'notif.channel': 'Channel', 'notif.event_type': 'Event', 'notif.destination': 'Destination', 'notif.secret': 'Signing secret',
    'notif.enabled': 'Enabled', 'notif.disabled': 'Off', 'notif.is_enabled': 'Enabled (send right away)', 'notif.status': 'Status',
    'notif.channel.email': 'Email', 'notif.channel.sms': 'SMS', 'notif.channel.webhook': 'Webhook',
    'notif.dest_hint.email': 'One email address, e.g. kitchen@example.com',
    'notif.dest_hint.sms': 'A mobile number like +4915112345678',
    'notif.dest_hint.webhook': 'An http or https address, e.g. https://example.com/hook',
    'notif.secret_hint': 'For webhooks the posbox makes a secret (whsec_…) on creation, with which the receiver checks the signature. It is shown in the list afterwards.',
    'notif.show_secret': 'Show', 'notif.other_type': 'Other event …', 'notif.custom_type': 'Event name',
    'notif.custom_type_hint': 'Lower-case letters, digits, _ and ., e.g. table.call',
    'notif.enable': 'Enable', 'notif.disable': 'Disable',
    'notif.created': 'The rule was created.', 'notif.enabled_msg': 'The rule is enabled.',
    'notif.disabled_msg': 'The rule is off; its queued deliveries were dropped.', 'notif.deleted': 'The rule was deleted.',
    'notif.confirm_delete': 'Delete the rule “{type} → {destination}”? Queued deliveries are dropped; the log stays.',
    'notif.test': 'Send a test message', 'notif.test_intro': 'Sends a test message right away, without a rule and without retries.',
    'notif.test_send': 'Send', 'notif.test_ok': 'Delivered', 'notif.test_failed': 'Failed',
    'notif.test_at': '{channel} to {destination}, {time}',
    'notif.queue': 'Queue', 'notif.queue_intro': 'Deliveries that are still waiting or have failed for good.',
    'notif.pending': 'Waiting', 'notif.failed': 'Failed',
    'notif.no_pending': 'Nothing is waiting.', 'notif.no_failed': 'No failed deliveries.',
    'notif.rule': 'Rule', 'notif.rule_gone': 'rule deleted', 'notif.attempts': 'Attempts', 'notif.next_attempt': 'Next attempt',
    'notif.last_error': 'Last error', 'notif.created_at': 'Created',
    'notif.log': 'Delivery log', 'notif.log_intro': 'The last 50 attempts, newest first.', 'notif.no_log': 'Nothing sent yet.',
    'notif.time': 'Time', 'notif.result': 'Result', 'notif.message': 'Message', 'notif.attempt_n': 'attempt {n}',
    'notif.delivered': 'Delivered', 'notif.error': 'Error',
    'notif.technical': 'What the receiver or mail server said (technical):',
    'notif.auto': 'The queue and the log refresh themselves every 30 seconds.',
    'notif.type.new_order': 'New order', 'notif.type.order_cancelled': 'Order cancelled', 'notif.type.payment_received': 'Payment received',
    'notif.type.low_stock': 'Low stock', 'notif.type.shift_change': 'Shift change', 'notif.type.clock_in': 'Clock-in',
    'notif.type.clock_out': 'Clock-out', 'notif.type.discount_exhausted': 'Discount used up', 'notif.type.tse_error': 'TSE error',
    'notif.type.tse_recovered': 'TSE recovered',
    'notif.type.replication_stalled': 'Off-site copy stalled', 'notif.type.replication_recovered': 'Off-site copy working again', 'notif.type.tse_certificate_expiring': 'TSE certificate expiring',
    'notif.type.daily_report': 'Daily report', 'notif.type.test': 'Test message',
    'notif.type.labour_law_warning': 'Working-time warning (ArbZG)', 'notif.type.time_entry_open_too_long': 'Clocked in too long',
    'notif.not_set_up.email': 'Email is not set up', 'notif.not_set_up.sms': 'SMS is not set up',
    'notif.to_settings': 'Settings',
    'notif.refused_not_set_up': 'This rule can only be enabled once sending is set up (Settings). You can add it switched off.',
    'notif.edit_rule': 'Edit rule', 'notif.saved': 'The rule is saved.',
  },
});

// The documented event types (docs/NOTIFICATIONS.md); the list is open,
// so "other" takes any name.
const EVENT_TYPES = ['new_order', 'order_cancelled', 'payment_received', 'low_stock', 'shift_change', 'clock_in', 'clock_out',
  'discount_exhausted', 'tse_error', 'tse_recovered', 'tse_certificate_expiring', 'daily_report', 'labour_law_warning',
  'time_entry_open_too_long', 'replication_stalled', 'replication_recovered'];
const CHANNELS = ['email', 'sms', 'webhook'];
const OTHER = '__other';
const EVERY = 30000;

const channelName = (c) => t(`notif.channel.${c}`);
const typeName = (type) => { const k = `notif.type.${type}`; const s = t(k); return s === k ? null : s; };
const typeCell = (type) => { const n = typeName(type); return n ? h('div', {}, n, ' ', h('code', { class: 'muted small-text' }, type)) : h('code', {}, type); };

export default {
  async render(main, ctx) {
    const rulesBox = h('div', { id: 'rules-list' });
    const rulesError = h('p', { class: 'form-error', role: 'alert', id: 'rules-error' });
    const pendingBox = h('div', { id: 'deliveries-pending' });
    const failedBox = h('div', { id: 'deliveries-failed' });
    const logBox = h('div', { id: 'log-list' });
    const stamp = h('span', { class: 'stamp', role: 'status', 'aria-live': 'polite' });
    let rules = [];
    let setup = { email: true, sms: true, webhook: true }; // channel → set up
    const editBox = h('section', { class: 'card', id: 'rule-edit', hidden: true });

    // notSetUp warns beside a rule (or in a form) whose channel cannot
    // send yet, with the way to the settings page.
    const notSetUp = (channel) => setup[channel] ? null : h('p', { class: 'error-text small-text channel-missing' },
      t(`notif.not_set_up.${channel}`), ' → ',
      h('a', { href: '/settings', onclick: (e) => { e.preventDefault(); ctx.navigate('/settings'); } }, t('notif.to_settings')));
    // ruleError shows a refusal; "not set up" in plain words.
    const ruleError = (form, err) => {
      showError(form, err);
      if (err.code === 'channel_not_configured') {
        clearErrors(form);
        form.querySelector('.form-error').textContent = t('notif.refused_not_set_up');
      }
    };

    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('notif.title')), stamp,
        h('button', { type: 'button', class: 'secondary', onclick: () => loadAll() }, t('common.refresh'))),
      h('p', { class: 'muted' }, t('notif.auto')),
      h('section', { class: 'card', id: 'rules' }, h('h2', {}, t('notif.rules')), h('p', { class: 'muted' }, t('notif.rules_intro')),
        rulesError, rulesBox, h('h3', {}, t('notif.new_rule')), ruleForm()),
      editBox,
      h('section', { class: 'card', id: 'test-send' }, h('h2', {}, t('notif.test')), h('p', { class: 'muted' }, t('notif.test_intro')), testForm()),
      h('section', { class: 'card', id: 'queue' }, h('h2', {}, t('notif.queue')), h('p', { class: 'muted' }, t('notif.queue_intro')),
        h('h3', {}, t('notif.pending')), pendingBox, h('h3', {}, t('notif.failed')), failedBox),
      h('section', { class: 'card', id: 'log' }, h('h2', {}, t('notif.log')), h('p', { class: 'muted' }, t('notif.log_intro')), logBox));

    async function loadRules() {
      try {
        const [list, email, sms] = await Promise.all([api.get('/api/notifications/settings'),
          api.get('/api/settings/email'), api.get('/api/settings/sms')]);
        rules = list.settings;
        setup = { email: email.email.configured, sms: sms.sms.configured, webhook: true };
        main.querySelectorAll('form[data-setup]').forEach((f) => f.dispatchEvent(new Event('change')));
      } catch (err) {
        rulesError.textContent = errorText(err);
        return;
      }
      rulesError.textContent = '';
      clear(rulesBox, table([
        { label: t('notif.channel'), cell: (r) => channelName(r.channel) },
        { label: t('notif.event_type'), cell: (r) => typeCell(r.event_type) },
        { label: t('notif.destination'), class: 'wrap-anywhere', cell: (r) => r.destination },
        { label: t('notif.secret'), cell: (r) => r.secret ? h('details', { class: 'secret' }, h('summary', {}, t('notif.show_secret')),
          h('code', { class: 'wrap-anywhere' }, r.secret)) : '–' },
        { label: t('notif.status'), cell: (r) => h('div', {}, r.is_enabled ? badge(t('notif.enabled'), 'ok') : badge(t('notif.disabled'), 'neutral'),
          notSetUp(r.channel)) },
        { label: t('common.actions'), cell: (r) => h('div', { class: 'buttons row-actions' },
          h('button', { type: 'button', class: 'secondary small', 'aria-label': `${t(r.is_enabled ? 'notif.disable' : 'notif.enable')}: ${r.event_type} → ${r.destination}`,
            onclick: (e) => toggle(r, e.currentTarget) }, t(r.is_enabled ? 'notif.disable' : 'notif.enable')),
          h('button', { type: 'button', class: 'secondary small edit', 'aria-label': `${t('common.edit')}: ${r.event_type} → ${r.destination}`,
            onclick: () => edit(r) }, t('common.edit')),
          h('button', { type: 'button', class: 'danger small', 'aria-label': `${t('common.delete')}: ${r.event_type} → ${r.destination}`,
            onclick: (e) => remove(r, e.currentTarget) }, t('common.delete'))) },
      ], rules, { caption: t('notif.rules'), empty: t('notif.no_rules'), rowAttrs: (r) => ({ dataset: { id: r.id } }) }));
    }

    async function loadActivity() {
      const [pending, failed, logs] = await Promise.allSettled([
        api.get('/api/notifications/deliveries?status=pending&limit=50'),
        api.get('/api/notifications/deliveries?status=failed&limit=50'),
        api.get('/api/notifications/logs?limit=50')]);
      const rule = (id) => rules.find((r) => r.id === id);
      const deliveryColumns = [
        { label: t('notif.event_type'), cell: (d) => typeCell(d.event_type) },
        { label: t('notif.rule'), class: 'wrap-anywhere', cell: (d) => {
          const r = rule(d.setting_id);
          return r ? `${channelName(r.channel)} → ${r.destination}` : h('span', { class: 'muted' }, t('notif.rule_gone'));
        } },
        { label: t('notif.attempts'), class: 'num', cell: (d) => String(d.attempts) },
        { label: t('notif.next_attempt'), cell: (d) => d.next_attempt_at ? fmtDateTime(d.next_attempt_at) : '–' },
        { label: t('notif.last_error'), class: 'wrap-anywhere', cell: (d) => d.last_error ? technical(d.last_error) : '–' },
        { label: t('notif.created_at'), cell: (d) => fmtDateTime(d.created_at) },
      ];
      const show = (box, res, empty, caption, render) => clear(box, res.status === 'rejected'
        ? errorLine(res.reason) : render(res.value, empty, caption));
      show(pendingBox, pending, t('notif.no_pending'), t('notif.pending'), (v, empty, caption) =>
        table(deliveryColumns, v.deliveries, { caption, empty, rowAttrs: (d) => ({ dataset: { id: d.id } }) }));
      show(failedBox, failed, t('notif.no_failed'), t('notif.failed'), (v, empty, caption) =>
        table(deliveryColumns, v.deliveries, { caption, empty, rowAttrs: (d) => ({ dataset: { id: d.id } }) }));
      show(logBox, logs, t('notif.no_log'), t('notif.log'), (v, empty, caption) => table([
        { label: t('notif.time'), cell: (l) => fmtDateTime(l.sent_at) },
        { label: t('notif.destination'), class: 'wrap-anywhere', cell: (l) => h('div', {}, h('div', { class: 'muted small-text' }, channelName(l.channel)), l.destination) },
        { label: t('notif.event_type'), cell: (l) => typeCell(l.event_type) },
        { label: t('notif.result'), class: 'wrap-anywhere', cell: (l) => h('div', {},
          l.status === 'delivered' ? badge(t('notif.delivered'), 'ok') : [badge(t('notif.error'), 'bad'), ' ', technical(l.error || '')],
          l.attempt > 1 ? h('div', { class: 'muted small-text' }, t('notif.attempt_n', { n: l.attempt })) : null) },
        { label: t('notif.message'), class: 'wrap-anywhere', cell: (l) => h('span', { class: 'muted' }, l.message || '') },
      ], v.logs, { caption, empty, rowAttrs: (l) => ({ dataset: { id: l.id, status: l.status, eventType: l.event_type } }) }));
      stamp.textContent = t('common.updated_at', { time: fmtTime(new Date().toISOString()) });
    }

    async function loadAll() {
      await loadRules();
      await loadActivity();
    }

    async function toggle(r, button) {
      await withBusy(button, async () => {
        try {
          const res = await api.put(`/api/notifications/settings/${r.id}`, { is_enabled: !r.is_enabled });
          toast(t(res.setting.is_enabled ? 'notif.enabled_msg' : 'notif.disabled_msg'));
        } catch (err) {
          rulesError.textContent = err.code === 'channel_not_configured' ? t('notif.refused_not_set_up') : errorText(err);
        }
      });
      await loadAll();
    }

    async function remove(r, button) {
      const type = typeName(r.event_type) || r.event_type;
      if (!(await confirmDialog(t('notif.confirm_delete', { type, destination: r.destination }), t('common.delete')))) return;
      await withBusy(button, async () => {
        try {
          await api.del(`/api/notifications/settings/${r.id}`);
          toast(t('notif.deleted'));
        } catch (err) {
          if (err.status !== 404) rulesError.textContent = errorText(err);
        }
      });
      await loadAll();
    }

    // ruleFields are the fields of a rule, new or edited; r fills them.
    function ruleFields(r) {
      const known = EVENT_TYPES.includes(r.event_type);
      return [
        field({ name: 'channel', label: t('notif.channel'), type: 'select', value: r.channel, required: true,
          options: CHANNELS.map((c) => [c, channelName(c)]) }),
        h('div', { class: 'wide setup-note' }),
        field({ name: 'event_type', label: t('notif.event_type'), type: 'select', value: known ? r.event_type : OTHER, required: true,
          options: [...EVENT_TYPES.map((e) => [e, `${typeName(e)} (${e})`]), [OTHER, t('notif.other_type')]] }),
        field({ name: 'event_type_custom', label: t('notif.custom_type'), required: true, hint: t('notif.custom_type_hint'),
          value: known ? '' : r.event_type, attrs: { autocomplete: 'off', spellcheck: 'false', autocapitalize: 'none' } }),
        field({ name: 'destination', label: t('notif.destination'), required: true, hint: ' ', value: r.destination,
          attrs: { autocomplete: 'off', spellcheck: 'false', autocapitalize: 'none' } }),
        field({ name: 'is_enabled', label: t('notif.is_enabled'), type: 'checkbox', value: r.is_enabled }),
        h('p', { class: 'hint wide secret-hint' }, t('notif.secret_hint')),
        h('p', { class: 'form-error', role: 'alert' })];
    }

    // syncRuleForm shows the custom name, the webhook hint and whether
    // the chosen channel is set up.
    function syncRuleForm(form) {
      const box = (n) => form.querySelector(`[data-field="${n}"]`);
      const sync = () => {
        const v = values(form);
        box('event_type_custom').hidden = v.event_type !== OTHER;
        form.querySelector('.secret-hint').hidden = v.channel !== 'webhook';
        destinationHint(box('destination'), v.channel);
        clear(form.querySelector('.setup-note'), notSetUp(v.channel));
      };
      form.dataset.setup = '1';
      form.addEventListener('change', sync);
      sync();
      return sync;
    }

    function ruleBody(form) {
      const v = values(form);
      return { channel: v.channel, event_type: v.event_type === OTHER ? v.event_type_custom.trim() : v.event_type,
        destination: v.destination.trim(), is_enabled: v.is_enabled };
    }

    function edit(r) {
      const submit = h('button', { type: 'submit' }, t('common.save'));
      const form = h('form', { class: 'panel', id: 'rule-edit-form', novalidate: true }, ...ruleFields(r),
        h('div', { class: 'buttons' }, submit,
          h('button', { type: 'button', class: 'secondary', onclick: () => { editBox.hidden = true; clear(editBox); } }, t('common.cancel'))));
      clear(editBox, h('h2', {}, t('notif.edit_rule')), form);
      editBox.hidden = false;
      syncRuleForm(form);
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        const custom = values(form).event_type === OTHER;
        await withBusy(submit, async () => {
          try {
            await api.put(`/api/notifications/settings/${r.id}`, ruleBody(form));
          } catch (err) {
            if (custom) for (const fe of err.errors || []) if (fe.field === 'event_type') fe.field = 'event_type_custom';
            ruleError(form, err);
            return;
          }
          editBox.hidden = true;
          clear(editBox);
          toast(t('notif.saved'));
          await loadAll();
        });
      });
      form.querySelector('select').focus();
      editBox.scrollIntoView({ block: 'nearest' });
    }

    function ruleForm() {
      const key = 'notification.rule.new';
      const submit = h('button', { type: 'submit' }, t('common.create'));
      const initial = { channel: 'webhook', event_type: 'new_order', event_type_custom: '', destination: '', is_enabled: true };
      const form = h('form', { class: 'panel', id: 'rule-form', novalidate: true }, ...ruleFields(initial),
        h('div', { class: 'buttons' }, submit));
      bindDraft(form, key);
      const sync = syncRuleForm(form);
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        const custom = values(form).event_type === OTHER;
        const body = ruleBody(form);
        await withBusy(submit, async () => {
          try {
            await api.post('/api/notifications/settings', body);
            dropDraft(key);
            for (const [n, v] of Object.entries(initial)) {
              const el = form.elements.namedItem(n);
              if (el.type === 'checkbox') el.checked = v; else el.value = v;
            }
            sync();
            toast(t('notif.created'));
          } catch (err) {
            // A custom type's error belongs beside the custom name.
            if (custom) for (const fe of err.errors || []) if (fe.field === 'event_type') fe.field = 'event_type_custom';
            ruleError(form, err);
            return;
          }
          await loadAll();
        });
      });
      return form;
    }

    function testForm() {
      const submit = h('button', { type: 'submit' }, t('notif.test_send'));
      const result = h('div', { id: 'test-result', role: 'status', 'aria-live': 'polite' });
      const form = h('form', { class: 'panel', id: 'test-form', novalidate: true },
        field({ name: 'channel', label: t('notif.channel'), type: 'select', value: 'webhook', required: true,
          options: CHANNELS.map((c) => [c, channelName(c)]) }),
        field({ name: 'destination', label: t('notif.destination'), required: true, hint: ' ',
          attrs: { autocomplete: 'off', spellcheck: 'false', autocapitalize: 'none' } }),
        h('p', { class: 'form-error', role: 'alert' }),
        h('div', { class: 'buttons' }, submit),
        h('div', { class: 'wide' }, result));
      bindDraft(form, 'notification.test');
      const sync = () => destinationHint(form.querySelector('[data-field="destination"]'), values(form).channel);
      form.addEventListener('change', sync);
      sync();
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        clear(result);
        const v = values(form);
        await withBusy(submit, async () => {
          try {
            if (!setup[v.channel]) { // it could only fail: say why and where to fix it
              clear(result, h('div', { class: 'result bad' }, notSetUp(v.channel)));
              return;
            }
            const r = (await api.post('/api/notifications/test', { channel: v.channel, destination: v.destination.trim() })).result;
            clear(result, h('div', { class: `result ${r.success ? 'ok' : 'bad'}` },
              h('p', {}, badge(t(r.success ? 'notif.test_ok' : 'notif.test_failed'), r.success ? 'ok' : 'bad'), ' ',
                r.success ? h('span', { class: 'result-message' }, r.message) : technical(r.message, 'result-message')),
              h('p', { class: 'muted small-text' }, t('notif.test_at', { channel: channelName(r.channel), destination: r.destination, time: fmtDateTime(r.sent_at) }))));
          } catch (err) {
            showError(form, err);
            return;
          }
          await loadActivity(); // the test send is in the log
        });
      });
      return form;
    }

    await loadAll();
    const timer = setInterval(() => { if (!document.hidden) loadActivity().catch(() => {}); }, EVERY);
    return () => clearInterval(timer);
  },
};

// destinationHint says what a destination looks like for the channel.
function destinationHint(box, channel) {
  box.querySelector('.hint').textContent = t(`notif.dest_hint.${channel}`);
  const input = box.querySelector('input');
  input.type = channel === 'email' ? 'email' : channel === 'sms' ? 'tel' : 'url';
  input.inputMode = channel === 'sms' ? 'tel' : channel === 'email' ? 'email' : 'url';
}

// technical shows what a mail server, SMS gateway or webhook receiver (or
// the sender before it) answered: its own words, which posbox cannot
// translate, labelled as such so nobody takes them for the console's.
function technical(text, cls = '') {
  return h('span', { class: `technical ${cls}`.trim() },
    h('span', { class: 'muted small-text' }, t('notif.technical')), ' ', h('code', { class: 'error-text' }, text));
}
