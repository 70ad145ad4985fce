// Settings: the restaurant (name, federal state, open-entry limit, rest
// hours), email (SMTP) and SMS, each with a test send, and what the
// retention job deleted (dashboard_retention.js). API: docs/API.md
// sections 2 (PATCH /api/restaurant) and 6 (/api/settings/*). A saved
// password or token is never shown again: its field stays empty, and an
// empty field keeps it.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { h, clear, field, values, showError, clearErrors, withBusy, toast, badge, errorText, errorLine } from '../ui.js';
import { retentionFacts } from './dashboard_retention.js';

addStrings({
  de: {
    'set.title': 'Einstellungen',
    'set.restaurant': 'Restaurant', 'set.restaurant_intro': 'Name, Regeln für Zeiterfassung und Lohnabrechnung, und wer Verkäufe meldet.',
    'set.name': 'Name des Restaurants', 'set.state': 'Bundesland',
    'set.state_hint': 'Seine Feiertage zählen für die Feiertagszuschläge der Lohnabrechnung.',
    'set.state_none': 'Keins (nur bundesweite Feiertage)',
    'set.open_limit': 'Offene Stempelung prüfen nach (Stunden)',
    'set.open_limit_hint': 'Wer länger eingestempelt ist, wird zur Prüfung gemeldet (1 bis 72 Stunden).',
    'set.rest': 'Ruhezeit zwischen zwei Arbeitstagen',
    'set.rest_11': '11 Stunden (Regel nach § 5 Abs. 1 ArbZG)', 'set.rest_10': '10 Stunden (Ausnahme für Gastronomie, § 5 Abs. 2 ArbZG)',
    'set.sale_events': 'Ereignisse zu Bestellungen und Zahlungen sendet', 'set.sale_events_posbox': 'posbox', 'set.sale_events_pos': 'die Kasse',
    'set.sale_events_hint': 'Neue Bestellung, Zahlung erhalten und Storno. posbox sieht jeden Verkauf und meldet ihn genau einmal; meldet sie dann auch die Kasse, nimmt posbox das an und sendet es nicht doppelt. „Die Kasse“ nur, wenn Ihre Kasse diese Meldungen selbst schickt und Sie deren Inhalt wollen.',
    'set.restaurant_saved': 'Die Restaurant-Einstellungen sind gespeichert.',
    'set.email': 'E-Mail-Versand (SMTP)',
    'set.email_intro': 'Über diesen Mailserver verschickt der posbox Benachrichtigungen. Die Angaben stehen bei Ihrem E-Mail-Anbieter.',
    'set.sms': 'SMS-Versand', 'set.sms_intro': 'Über diesen Anbieter verschickt der posbox SMS-Benachrichtigungen.',
    'set.state.console': 'Eingerichtet', 'set.state.config_file': 'Eingerichtet über die Konfigurationsdatei',
    'set.state.none': 'Nicht eingerichtet',
    'set.config_file_note': 'Die Konfigurationsdatei der posbox richtet diesen Kanal ein. Was Sie hier speichern, gilt stattdessen.',
    'set.none_note': 'Solange nichts eingerichtet ist, lassen sich keine aktiven Regeln für diesen Kanal anlegen.',
    'set.host': 'Mailserver', 'set.host_hint': 'z. B. smtp.office365.com, ohne „smtp://“ und ohne Port',
    'set.port': 'Port', 'set.port_hint': 'Meist 587; bei „Verschlüsselt ab Verbindungsbeginn“ meist 465.',
    'set.tls': 'Verschlüsselung',
    'set.tls.starttls': 'STARTTLS (empfohlen)', 'set.tls.tls': 'Verschlüsselt ab Verbindungsbeginn (SSL/TLS)',
    'set.tls.opportunistic': 'STARTTLS, wenn der Server es anbietet', 'set.tls.none': 'Keine (nur für einen Server im eigenen Netz)',
    'set.username': 'Benutzername', 'set.username_hint': 'Leer lassen, wenn der Server keine Anmeldung verlangt.',
    'set.password': 'Passwort',
    'set.password_saved': 'Ein Passwort ist gespeichert. Leer lassen, um es zu behalten.',
    'set.password_none': 'Es ist kein Passwort gespeichert.',
    'set.from': 'Absenderadresse', 'set.from_hint': 'Die Adresse, von der die Nachrichten kommen, z. B. kasse@ihr-restaurant.de',
    'set.email_saved': 'Die E-Mail-Einstellungen sind gespeichert und gelten ab der nächsten Nachricht.',
    'set.test_email': 'Test-E-Mail senden', 'set.test_to': 'An diese Adresse',
    'set.test_email_ok': 'Die Test-E-Mail an {to} wurde vom Mailserver angenommen. Schauen Sie in das Postfach (auch in den Spam-Ordner).',
    'set.test_email_failed': 'Die Test-E-Mail an {to} konnte nicht verschickt werden. Prüfen Sie Mailserver, Port, Verschlüsselung, Benutzername und Passwort.',
    'set.server_answer': 'Antwort des Servers: {message}',
    'set.sent': 'Verschickt', 'set.not_sent': 'Nicht verschickt',
    'set.provider': 'Anbieter', 'set.provider.twilio': 'Twilio', 'set.provider.generic': 'Eigenes SMS-Gateway (HTTP)',
    'set.url': 'Adresse des Anbieters', 'set.url_hint': 'Bei Twilio leer lassen; bei einem eigenen Gateway dessen http(s)-Adresse.',
    'set.account': 'Konto (Twilio Account SID)', 'set.account_hint': 'Nur für Twilio.',
    'set.token': 'Zugangsschlüssel (Token)',
    'set.token_saved': 'Ein Zugangsschlüssel ist gespeichert. Leer lassen, um ihn zu behalten.',
    'set.token_none': 'Es ist kein Zugangsschlüssel gespeichert.',
    'set.sender': 'Absender', 'set.sender_hint': 'Absendernummer oder -name, z. B. +4915112345678 (für Twilio nötig).',
    'set.sms_saved': 'Die SMS-Einstellungen sind gespeichert und gelten ab der nächsten Nachricht.',
    'set.test_sms': 'Test-SMS senden', 'set.test_number': 'An diese Mobilnummer', 'set.test_number_hint': 'Im Format +4915112345678',
    'set.test_sms_ok': 'Die Test-SMS an {to} wurde vom Anbieter angenommen.',
    'set.test_sms_failed': 'Die Test-SMS an {to} konnte nicht verschickt werden. Prüfen Sie Anbieter, Adresse, Konto und Zugangsschlüssel.',
    'set.test_first_save': 'Speichern Sie die Einstellungen zuerst; der Test verwendet die gespeicherten.',
    'set.state.BW': 'Baden-Württemberg', 'set.state.BY': 'Bayern', 'set.state.BE': 'Berlin', 'set.state.BB': 'Brandenburg',
    'set.state.HB': 'Bremen', 'set.state.HH': 'Hamburg', 'set.state.HE': 'Hessen', 'set.state.MV': 'Mecklenburg-Vorpommern',
    'set.state.NI': 'Niedersachsen', 'set.state.NW': 'Nordrhein-Westfalen', 'set.state.RP': 'Rheinland-Pfalz', 'set.state.SL': 'Saarland',
    'set.state.SN': 'Sachsen', 'set.state.ST': 'Sachsen-Anhalt', 'set.state.SH': 'Schleswig-Holstein', 'set.state.TH': 'Thüringen',
  },
  en: {
    'set.title': 'Settings',
    'set.restaurant': 'Restaurant', 'set.restaurant_intro': 'Name, the rules for time recording and payroll, and who reports sales.',
    'set.name': 'Restaurant name', 'set.state': 'Federal state',
    'set.state_hint': 'Its public holidays count for the payroll\'s holiday premiums.',
    'set.state_none': 'None (nationwide holidays only)',
    'set.open_limit': 'Review an open clock-in after (hours)',
    'set.open_limit_hint': 'Whoever is clocked in longer is reported for review (1 to 72 hours).',
    'set.rest': 'Rest between two working days',
    'set.rest_11': '11 hours (the rule, § 5 (1) ArbZG)', 'set.rest_10': '10 hours (hospitality exception, § 5 (2) ArbZG)',
    'set.sale_events': 'Events of orders and payments are sent by', 'set.sale_events_posbox': 'posbox', 'set.sale_events_pos': 'the till',
    'set.sale_events_hint': 'New order, payment received and storno. posbox sees every sale and reports it exactly once; if the till reports them too, posbox accepts that and does not send them twice. Choose “the till” only if your till sends these itself and you want its content.',
    'set.restaurant_saved': 'The restaurant settings are saved.',
    'set.email': 'Sending email (SMTP)',
    'set.email_intro': 'The posbox sends notifications through this mail server. Your email provider has these details.',
    'set.sms': 'Sending SMS', 'set.sms_intro': 'The posbox sends SMS notifications through this provider.',
    'set.state.console': 'Set up', 'set.state.config_file': 'Set up in the configuration file',
    'set.state.none': 'Not set up',
    'set.config_file_note': 'The posbox configuration file sets this channel up. What you save here applies instead.',
    'set.none_note': 'While nothing is set up, no enabled rules can be added for this channel.',
    'set.host': 'Mail server', 'set.host_hint': 'e.g. smtp.office365.com, without “smtp://” and without port',
    'set.port': 'Port', 'set.port_hint': 'Usually 587; with “Encrypted from the start” usually 465.',
    'set.tls': 'Encryption',
    'set.tls.starttls': 'STARTTLS (recommended)', 'set.tls.tls': 'Encrypted from the start (SSL/TLS)',
    'set.tls.opportunistic': 'STARTTLS when the server offers it', 'set.tls.none': 'None (only for a server in your own network)',
    'set.username': 'User name', 'set.username_hint': 'Leave empty if the server needs no login.',
    'set.password': 'Password',
    'set.password_saved': 'A password is saved. Leave empty to keep it.',
    'set.password_none': 'No password is saved.',
    'set.from': 'Sender address', 'set.from_hint': 'The address messages come from, e.g. till@your-restaurant.com',
    'set.email_saved': 'The email settings are saved and apply from the next message on.',
    'set.test_email': 'Send a test email', 'set.test_to': 'To this address',
    'set.test_email_ok': 'The mail server accepted the test email to {to}. Look in the mailbox (and the spam folder).',
    'set.test_email_failed': 'The test email to {to} could not be sent. Check mail server, port, encryption, user name and password.',
    'set.server_answer': 'The server answered: {message}',
    'set.sent': 'Sent', 'set.not_sent': 'Not sent',
    'set.provider': 'Provider', 'set.provider.twilio': 'Twilio', 'set.provider.generic': 'Own SMS gateway (HTTP)',
    'set.url': 'Provider address', 'set.url_hint': 'Leave empty for Twilio; for your own gateway its http(s) address.',
    'set.account': 'Account (Twilio Account SID)', 'set.account_hint': 'Twilio only.',
    'set.token': 'Access key (token)',
    'set.token_saved': 'An access key is saved. Leave empty to keep it.',
    'set.token_none': 'No access key is saved.',
    'set.sender': 'Sender', 'set.sender_hint': 'Sender number or name, e.g. +4915112345678 (needed for Twilio).',
    'set.sms_saved': 'The SMS settings are saved and apply from the next message on.',
    'set.test_sms': 'Send a test SMS', 'set.test_number': 'To this mobile number', 'set.test_number_hint': 'Like +4915112345678',
    'set.test_sms_ok': 'The provider accepted the test SMS to {to}.',
    'set.test_sms_failed': 'The test SMS to {to} could not be sent. Check provider, address, account and access key.',
    'set.test_first_save': 'Save the settings first; the test uses the saved ones.',
    'set.state.BW': 'Baden-Württemberg', 'set.state.BY': 'Bavaria', 'set.state.BE': 'Berlin', 'set.state.BB': 'Brandenburg',
    'set.state.HB': 'Bremen', 'set.state.HH': 'Hamburg', 'set.state.HE': 'Hesse', 'set.state.MV': 'Mecklenburg-Western Pomerania',
    'set.state.NI': 'Lower Saxony', 'set.state.NW': 'North Rhine-Westphalia', 'set.state.RP': 'Rhineland-Palatinate', 'set.state.SL': 'Saarland',
    'set.state.SN': 'Saxony', 'set.state.ST': 'Saxony-Anhalt', 'set.state.SH': 'Schleswig-Holstein', 'set.state.TH': 'Thuringia',
  },
});

const STATES = ['BW', 'BY', 'BE', 'BB', 'HB', 'HH', 'HE', 'MV', 'NI', 'NW', 'RP', 'SL', 'SN', 'ST', 'SH', 'TH'];
const TLS = ['starttls', 'tls', 'opportunistic', 'none'];
const noAuto = { autocomplete: 'off', spellcheck: 'false', autocapitalize: 'none' };

export default {
  async render(main, ctx) {
    const restBox = h('div', { id: 'restaurant-settings' });
    const emailBox = h('div', { id: 'email-settings' });
    const smsBox = h('div', { id: 'sms-settings' });
    const retentionBox = h('div', { id: 'retention-settings' });
    const loadError = h('p', { class: 'form-error', role: 'alert' });
    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('set.title'))), loadError,
      h('section', { class: 'card', id: 'restaurant' }, h('h2', {}, t('set.restaurant')), h('p', { class: 'muted' }, t('set.restaurant_intro')), restBox),
      h('section', { class: 'card', id: 'email' }, h('h2', {}, t('set.email')), h('p', { class: 'muted' }, t('set.email_intro')), emailBox),
      h('section', { class: 'card', id: 'sms' }, h('h2', {}, t('set.sms')), h('p', { class: 'muted' }, t('set.sms_intro')), smsBox),
      h('section', { class: 'card', id: 'retention-card' }, h('h2', {}, t('ret.section')), retentionBox));
    api.get('/api/retention').then((r) => clear(retentionBox, ...retentionFacts(r.retention)), (err) => clear(retentionBox, errorLine(err)));

    let rest, email, sms;
    try {
      [rest, email, sms] = await Promise.all([api.get('/api/restaurant'), api.get('/api/settings/email'), api.get('/api/settings/sms')]);
    } catch (err) {
      loadError.textContent = errorText(err);
      return;
    }
    clear(restBox, restaurantForm(rest.restaurant, ctx));
    clear(emailBox, ...emailForms(email.email));
    clear(smsBox, ...smsForms(sms.sms));

    function restaurantForm(r) {
      const submit = h('button', { type: 'submit' }, t('common.save'));
      const form = h('form', { class: 'panel', id: 'restaurant-form', novalidate: true },
        field({ name: 'name', label: t('set.name'), required: true, value: r.name, attrs: { maxlength: 100 } }),
        field({ name: 'federal_state', label: t('set.state'), type: 'select', value: r.federal_state || '', hint: t('set.state_hint'),
          options: [['', t('set.state_none')], ...STATES.map((s) => [s, t(`set.state.${s}`)])] }),
        field({ name: 'open_entry_limit_hours', label: t('set.open_limit'), type: 'number', value: r.open_entry_limit_hours,
          hint: t('set.open_limit_hint'), attrs: { min: 1, max: 72, step: 1, inputmode: 'numeric' } }),
        field({ name: 'min_rest_hours', label: t('set.rest'), type: 'select', value: String(r.min_rest_hours),
          options: [['11', t('set.rest_11')], ['10', t('set.rest_10')]] }),
        field({ name: 'sale_events_by', label: t('set.sale_events'), type: 'select', value: r.sale_events_by, hint: t('set.sale_events_hint'),
          options: [['posbox', t('set.sale_events_posbox')], ['pos', t('set.sale_events_pos')]] }),
        h('p', { class: 'form-error', role: 'alert' }),
        h('div', { class: 'buttons' }, submit));
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        const v = values(form);
        const body = { name: v.name.trim(), federal_state: v.federal_state || null,
          open_entry_limit_hours: Number(v.open_entry_limit_hours), min_rest_hours: Number(v.min_rest_hours), sale_events_by: v.sale_events_by };
        await withBusy(submit, async () => {
          try {
            const res = await api.patch('/api/restaurant', body);
            Object.assign(ctx.restaurant, res.restaurant);
            toast(t('set.restaurant_saved'));
          } catch (err) {
            showError(form, err);
          }
        });
      });
      return form;
    }

    // status shows where a channel's settings come from.
    function status(s) {
      const kind = s.source === 'none' ? 'bad' : 'ok';
      const note = s.source === 'config_file' ? t('set.config_file_note') : s.source === 'none' ? t('set.none_note') : '';
      return h('div', { class: 'channel-state', dataset: { source: s.source } }, badge(t(`set.state.${s.source}`), kind),
        note ? h('p', { class: 'muted small-text' }, note) : null);
    }

    // testForm sends one test message with the saved settings and says
    // the outcome in plain words.
    function testForm(id, channel, label, hint, okKey, failKey) {
      const submit = h('button', { type: 'submit', class: 'secondary' }, t(channel === 'email' ? 'set.test_email' : 'set.test_sms'));
      const result = h('div', { class: 'test-result', role: 'status', 'aria-live': 'polite' });
      const form = h('form', { class: 'panel', id, novalidate: true },
        field({ name: 'destination', label, required: true, hint, type: channel === 'email' ? 'email' : 'tel', attrs: noAuto }),
        h('p', { class: 'hint wide' }, t('set.test_first_save')),
        h('p', { class: 'form-error', role: 'alert' }),
        h('div', { class: 'buttons' }, submit), h('div', { class: 'wide' }, result));
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        clear(result);
        const to = values(form).destination.trim();
        await withBusy(submit, async () => {
          try {
            const r = (await api.post('/api/notifications/test', { channel, destination: to })).result;
            clear(result, h('div', { class: `result ${r.success ? 'ok' : 'bad'}` },
              h('p', {}, badge(t(r.success ? 'set.sent' : 'set.not_sent'), r.success ? 'ok' : 'bad'), ' ',
                t(r.success ? okKey : failKey, { to })),
              r.success ? null : h('p', { class: 'muted small-text wrap-anywhere' }, t('set.server_answer', { message: r.message }))));
          } catch (err) {
            showError(form, err);
          }
        });
      });
      return form;
    }

    function emailForms(s) {
      const state = h('div', {}, status(s));
      const submit = h('button', { type: 'submit' }, t('common.save'));
      const pwHint = () => t(s.password_set ? 'set.password_saved' : 'set.password_none');
      const form = h('form', { class: 'panel', id: 'email-form', novalidate: true },
        field({ name: 'host', label: t('set.host'), required: true, value: s.host || '', hint: t('set.host_hint'), attrs: noAuto }),
        field({ name: 'tls', label: t('set.tls'), type: 'select', value: s.tls || 'starttls', options: TLS.map((m) => [m, t(`set.tls.${m}`)]) }),
        field({ name: 'port', label: t('set.port'), type: 'number', value: s.port || 587, hint: t('set.port_hint'),
          attrs: { min: 1, max: 65535, step: 1, inputmode: 'numeric' } }),
        field({ name: 'from', label: t('set.from'), type: 'email', required: true, value: s.from || '', hint: t('set.from_hint'), attrs: noAuto }),
        field({ name: 'username', label: t('set.username'), value: s.username || '', hint: t('set.username_hint'),
          attrs: { ...noAuto, autocomplete: 'username' } }),
        // Never filled back: the API does not return the password.
        field({ name: 'password', label: t('set.password'), type: 'password', value: '', hint: pwHint(),
          attrs: { autocomplete: 'new-password' } }),
        h('p', { class: 'form-error', role: 'alert' }),
        h('div', { class: 'buttons' }, submit));
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        const v = values(form);
        const body = { host: v.host.trim(), port: Number(v.port), tls: v.tls, from: v.from.trim(), username: v.username.trim() };
        if (v.password !== '') body.password = v.password;
        await withBusy(submit, async () => {
          try {
            s = (await api.put('/api/settings/email', body)).email;
            form.elements.namedItem('password').value = '';
            form.querySelector('[data-field="password"] .hint').textContent = pwHint();
            clear(state, status(s));
            toast(t('set.email_saved'));
          } catch (err) {
            showError(form, err);
          }
        });
      });
      return [state, form, h('h3', {}, t('set.test_email')),
        testForm('email-test-form', 'email', t('set.test_to'), '', 'set.test_email_ok', 'set.test_email_failed')];
    }

    function smsForms(s) {
      const state = h('div', {}, status(s));
      const submit = h('button', { type: 'submit' }, t('common.save'));
      const tokenHint = () => t(s.token_set ? 'set.token_saved' : 'set.token_none');
      const form = h('form', { class: 'panel', id: 'sms-form', novalidate: true },
        field({ name: 'provider', label: t('set.provider'), type: 'select', required: true, value: s.provider || 'twilio',
          options: ['twilio', 'generic'].map((p) => [p, t(`set.provider.${p}`)]) }),
        field({ name: 'url', label: t('set.url'), type: 'url', value: s.url && !(s.provider === 'twilio' && s.url === 'https://api.twilio.com') ? s.url : '',
          hint: t('set.url_hint'), attrs: noAuto }),
        field({ name: 'account', label: t('set.account'), value: s.account || '', hint: t('set.account_hint'), attrs: noAuto }),
        field({ name: 'token', label: t('set.token'), type: 'password', value: '', hint: tokenHint(), attrs: { autocomplete: 'new-password' } }),
        field({ name: 'from', label: t('set.sender'), value: s.from || '', hint: t('set.sender_hint'), attrs: noAuto }),
        h('p', { class: 'form-error', role: 'alert' }),
        h('div', { class: 'buttons' }, submit));
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        const v = values(form);
        const body = { provider: v.provider, url: v.url.trim(), account: v.account.trim(), from: v.from.trim() };
        if (v.token !== '') body.token = v.token;
        await withBusy(submit, async () => {
          try {
            s = (await api.put('/api/settings/sms', body)).sms;
            form.elements.namedItem('token').value = '';
            form.querySelector('[data-field="token"] .hint').textContent = tokenHint();
            clear(state, status(s));
            toast(t('set.sms_saved'));
          } catch (err) {
            showError(form, err);
          }
        });
      });
      return [state, form, h('h3', {}, t('set.test_sms')),
        testForm('sms-test-form', 'sms', t('set.test_number'), t('set.test_number_hint'), 'set.test_sms_ok', 'set.test_sms_failed')];
    }
  },
};
