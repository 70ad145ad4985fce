// My account: the logged-in admin changes her own password with the
// current one (POST /api/auth/password, docs/API.md section 2). The answer
// carries a fresh token (the change ends every older one, this tab's
// included), which replaces the session's, so she stays logged in. When a
// password was set for her (the generated first one, another admin's
// reset), main.js shows only this page until she has chosen her own.
// Passwords are never kept in a draft or shown again.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { ApiError } from '../api.js';
import { h, append, field, showError, clearErrors, withBusy, toast } from '../ui.js';

addStrings({
  de: {
    'account.title': 'Mein Konto', 'account.password': 'Passwort ändern',
    'account.must_change': 'Bitte wählen Sie jetzt ein eigenes Passwort. Das Passwort, mit dem Sie sich angemeldet haben, wurde für Sie festgelegt (beim ersten Start erzeugt oder von einer anderen Person gesetzt). Danach geht es weiter.',
    'account.name': 'Name', 'account.email': 'E-Mail', 'account.staff_number': 'Personalnummer', 'account.none': '–',
    'account.current': 'Jetziges Passwort', 'account.new': 'Neues Passwort', 'account.repeat': 'Neues Passwort wiederholen',
    'account.new_hint': '8 bis 72 Zeichen, anders als das jetzige.',
    'account.mismatch': 'Die beiden neuen Passwörter stimmen nicht überein.',
    'account.submit': 'Passwort ändern', 'account.changed': 'Ihr Passwort wurde geändert. Sie bleiben angemeldet.',
    'account.other_devices': 'Auf anderen Geräten, an denen Sie angemeldet sind, müssen Sie sich danach neu anmelden.',
    'account.rate_limited': 'Zu viele Versuche. Bitte in {n} Sekunden erneut versuchen.',
    'account.rate_limited_one': 'Zu viele Versuche. Bitte in einer Sekunde erneut versuchen.',
  },
  en: {
    'account.title': 'My account', 'account.password': 'Change password',
    'account.must_change': 'Please choose a password of your own now. The password you logged in with was set for you (generated at the first start or set by someone else). Then you can go on.',
    'account.name': 'Name', 'account.email': 'Email', 'account.staff_number': 'Staff number', 'account.none': '–',
    'account.current': 'Current password', 'account.new': 'New password', 'account.repeat': 'Repeat new password',
    'account.new_hint': '8 to 72 characters, not the current one.',
    'account.mismatch': 'The two new passwords do not match.',
    'account.submit': 'Change password', 'account.changed': 'Your password was changed. You stay logged in.',
    'account.other_devices': 'On other devices where you are logged in you will have to log in again.',
    'account.rate_limited': 'Too many attempts. Please try again in {n} seconds.',
    'account.rate_limited_one': 'Too many attempts. Please try again in one second.',
  },
});

export default {
  render(main, { me, signedIn }) {
    const forced = !!me.must_change_password;
    const submit = h('button', { type: 'submit' }, t('account.submit'));
    const pw = (name, label, autocomplete, hint) => field({ name, label, type: 'password', required: true, hint,
      attrs: { autocomplete, maxlength: 72 } });
    const form = h('form', { class: 'panel', id: 'password-form', novalidate: true },
      pw('current_password', t('account.current'), 'current-password'),
      pw('new_password', t('account.new'), 'new-password', t('account.new_hint')),
      pw('new_password_repeat', t('account.repeat'), 'new-password'),
      h('p', { class: 'muted wide' }, t('account.other_devices')),
      h('p', { class: 'form-error', role: 'alert' }),
      h('div', { class: 'buttons' }, submit));
    const input = (name) => form.elements.namedItem(name);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      clearErrors(form);
      const current = input('current_password').value;
      const next = input('new_password').value;
      if (next !== input('new_password_repeat').value) {
        showError(form, new ApiError(422, { errors: [{ field: 'new_password_repeat', message: t('account.mismatch') }] }));
        return;
      }
      await withBusy(submit, async () => {
        try {
          const res = await api.post('/api/auth/password', { current_password: current, new_password: next });
          form.reset();
          toast(t('account.changed'));
          signedIn(res.access_token, res.user);
        } catch (err) {
          if (err.status === 429) {
            form.querySelector('.form-error').textContent = t('account.rate_limited', { n: err.retryAfter || 20 });
            return;
          }
          showError(form, err);
        }
      });
    });
    const dl = h('dl', { class: 'facts' },
      h('dt', {}, t('account.name')), h('dd', {}, me.name),
      h('dt', {}, t('account.email')), h('dd', { class: 'wrap-anywhere' }, me.email || t('account.none')),
      h('dt', {}, t('account.staff_number')), h('dd', {}, me.staff_number || t('account.none')));
    append(main,
      h('div', { class: 'page-head' }, h('h1', {}, t('account.title'))),
      forced ? h('p', { class: 'notice', role: 'status', id: 'must-change' }, t('account.must_change')) : null,
      forced ? null : h('section', { class: 'card', id: 'account' }, dl),
      h('section', { class: 'card', id: 'account-password' }, h('h2', {}, t('account.password')), form));
    input('current_password').focus();
  },
};
