// Users: the list, a form to create one, and per user: change the role,
// disable/enable, reset the password (in a dialog), delete. API:
// docs/API.md section 2. A password is sent and forgotten: it is never
// shown, kept in a draft or put back into a field.
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { ApiError } from '../api.js';
import { h, clear, field, values, showError, clearErrors, confirmDialog, withBusy, bindDraft, dropDraft, readDraft,
  table, badge, toast, errorText } from '../ui.js';

addStrings({
  de: {
    'users.title': 'Benutzer', 'users.list': 'Alle Benutzer', 'users.new': 'Neuer Benutzer',
    'users.name': 'Name', 'users.email': 'E-Mail', 'users.role': 'Rolle', 'users.status': 'Status', 'users.password': 'Passwort',
    'users.password_hint': '8 bis 72 Zeichen. Wird nach dem Speichern nicht mehr angezeigt.',
    'users.password_repeat': 'Passwort wiederholen', 'users.password_mismatch': 'Die beiden Passwörter stimmen nicht überein.',
    'users.role.admin': 'Administrator', 'users.role.staff': 'Mitarbeiter',
    'users.role_hint': 'Administratoren verwalten alles in dieser Konsole; Mitarbeiter stempeln und kassieren an der Kasse.',
    'users.active': 'Aktiv', 'users.disabled': 'Deaktiviert', 'users.you': 'Sie',
    'users.make_admin': 'Zum Administrator machen', 'users.make_staff': 'Zum Mitarbeiter machen',
    'users.disable': 'Deaktivieren', 'users.enable': 'Aktivieren', 'users.reset_password': 'Passwort zurücksetzen',
    'users.created': '{name} wurde angelegt.', 'users.role_changed': '{name} ist jetzt {role}.',
    'users.disabled_msg': '{name} ist deaktiviert und kann sich nicht mehr anmelden.', 'users.enabled_msg': '{name} kann sich wieder anmelden.',
    'users.deleted': '{name} wurde gelöscht.', 'users.password_changed': 'Das Passwort von {name} wurde geändert.',
    'users.password_title': 'Neues Passwort für {name}',
    'users.password_dialog_hint': 'Das neue Passwort gilt ab sofort. Bitte teilen Sie es {name} persönlich mit.',
    'users.confirm_delete': '{name} löschen? Die Person kann sich nicht mehr anmelden; Schichten und Arbeitszeiten bleiben erhalten.',
    'users.confirm_self_demote': 'Sich selbst zum Mitarbeiter machen? Sie verlieren sofort den Zugang zu dieser Konsole.',
    'users.confirm_self_disable': 'Das eigene Konto deaktivieren? Sie werden sofort abgemeldet und können sich nicht mehr anmelden.',
    'users.confirm_self_delete': 'Das eigene Konto löschen? Sie werden sofort abgemeldet und können sich nicht mehr anmelden.',
    'users.last_admin': 'Nicht möglich: Es muss mindestens ein aktiver Administrator bleiben. Machen Sie zuerst eine andere Person zum Administrator.',
    'users.error_for': '{name}: {message}', 'users.draft_restored': 'Nicht gespeicherte Eingaben wurden wiederhergestellt (außer dem Passwort).',
  },
  en: {
    'users.title': 'Users', 'users.list': 'All users', 'users.new': 'New user',
    'users.name': 'Name', 'users.email': 'Email', 'users.role': 'Role', 'users.status': 'Status', 'users.password': 'Password',
    'users.password_hint': '8 to 72 characters. It is not shown again after saving.',
    'users.password_repeat': 'Repeat password', 'users.password_mismatch': 'The two passwords do not match.',
    'users.role.admin': 'Admin', 'users.role.staff': 'Staff',
    'users.role_hint': 'Admins manage everything in this console; staff clock in and sell at the till.',
    'users.active': 'Active', 'users.disabled': 'Disabled', 'users.you': 'You',
    'users.make_admin': 'Make admin', 'users.make_staff': 'Make staff',
    'users.disable': 'Disable', 'users.enable': 'Enable', 'users.reset_password': 'Reset password',
    'users.created': '{name} was created.', 'users.role_changed': '{name} is now {role}.',
    'users.disabled_msg': '{name} is disabled and can no longer log in.', 'users.enabled_msg': '{name} can log in again.',
    'users.deleted': '{name} was deleted.', 'users.password_changed': 'The password of {name} was changed.',
    'users.password_title': 'New password for {name}',
    'users.password_dialog_hint': 'The new password works at once. Please tell {name} in person.',
    'users.confirm_delete': 'Delete {name}? They can no longer log in; their shifts and time entries are kept.',
    'users.confirm_self_demote': 'Make yourself staff? You lose access to this console at once.',
    'users.confirm_self_disable': 'Disable your own account? You are logged out at once and cannot log in again.',
    'users.confirm_self_delete': 'Delete your own account? You are logged out at once and cannot log in again.',
    'users.last_admin': 'Not possible: at least one active admin must remain. Make someone else an admin first.',
    'users.error_for': '{name}: {message}', 'users.draft_restored': 'Unsaved input was restored (except the password).',
  },
});

const DRAFT = 'user.new';

export default {
  async render(main, { me }) {
    const listBox = h('div', { id: 'users-list' });
    const listError = h('p', { class: 'form-error', role: 'alert', id: 'users-error' });
    const createCard = h('section', { class: 'card', id: 'user-create' });
    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('users.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => load() }, t('common.refresh'))),
      h('section', { class: 'card', id: 'users' }, h('h2', {}, t('users.list')), listError, listBox),
      createCard);

    let users = [];

    async function load() {
      try {
        users = (await api.get('/api/users')).users;
      } catch (err) {
        if (err.status !== 401) listError.textContent = errorText(err);
        return;
      }
      clear(listBox, table([
        { label: t('users.name'), cell: (u) => h('div', {}, h('strong', {}, u.name), u.id === me.id ? [' ', badge(t('users.you'), 'neutral')] : null) },
        { label: t('users.email'), class: 'wrap-anywhere', cell: (u) => u.email },
        { label: t('users.role'), cell: (u) => t(`users.role.${u.role}`) },
        { label: t('users.status'), cell: (u) => h('div', {}, u.is_active ? badge(t('users.active'), 'ok') : badge(t('users.disabled'), 'bad')) },
        { label: t('common.actions'), cell: (u) => h('div', { class: 'buttons row-actions' },
          action(u, u.role === 'admin' ? 'users.make_staff' : 'users.make_admin', (b) => setRole(u, b)),
          action(u, u.is_active ? 'users.disable' : 'users.enable', (b) => setActive(u, b)),
          action(u, 'users.reset_password', () => passwordDialog(u)),
          action(u, 'common.delete', (b) => remove(u, b), 'danger small')) },
      ], users, { caption: t('users.list'), rowAttrs: (u) => ({ dataset: { id: u.id, email: u.email } }) }));
    }

    function action(u, key, fn, cls = 'secondary small') {
      return h('button', { type: 'button', class: cls, 'aria-label': `${t(key)}: ${u.name}`, onclick: (e) => fn(e.currentTarget) }, t(key));
    }

    // change sends one partial PUT for a user and says how it went; a
    // change to one's own account reloads the console (it may end the
    // session or the admin rights).
    async function change(u, button, body, done) {
      listError.textContent = '';
      const ok = await withBusy(button, async () => {
        try {
          const res = await api.put(`/api/users/${u.id}`, body);
          toast(done(res.user));
          return true;
        } catch (err) {
          if (err.status === 401) return false;
          const message = err.code === 'last_admin' ? t('users.last_admin') : errorText(err);
          listError.textContent = t('users.error_for', { name: u.name, message });
          listError.scrollIntoView({ block: 'nearest' });
          return false;
        }
      });
      if (ok && u.id === me.id && (body.role === 'staff' || body.is_active === false)) { location.reload(); return; }
      await load();
    }

    async function setRole(u, button) {
      const role = u.role === 'admin' ? 'staff' : 'admin';
      if (u.id === me.id && role === 'staff' && !(await confirmDialog(t('users.confirm_self_demote')))) return;
      await change(u, button, { role }, (x) => t('users.role_changed', { name: x.name, role: t(`users.role.${x.role}`) }));
    }

    async function setActive(u, button) {
      if (u.id === me.id && u.is_active && !(await confirmDialog(t('users.confirm_self_disable')))) return;
      await change(u, button, { is_active: !u.is_active },
        (x) => t(x.is_active ? 'users.enabled_msg' : 'users.disabled_msg', { name: x.name }));
    }

    async function remove(u, button) {
      if (!(await confirmDialog(t(u.id === me.id ? 'users.confirm_self_delete' : 'users.confirm_delete', { name: u.name }), t('common.delete')))) return;
      listError.textContent = '';
      const ok = await withBusy(button, async () => {
        try {
          await api.del(`/api/users/${u.id}`);
          toast(t('users.deleted', { name: u.name }));
          return true;
        } catch (err) {
          if (err.status === 401) return false;
          if (err.status === 404) return true;
          listError.textContent = t('users.error_for', { name: u.name, message: err.code === 'last_admin' ? t('users.last_admin') : errorText(err) });
          return false;
        }
      });
      if (ok && u.id === me.id) { location.reload(); return; }
      await load();
    }

    // passwordDialog asks for a new password (twice) and sets it.
    function passwordDialog(u) {
      const submit = h('button', { type: 'submit' }, t('common.save'));
      const form = h('form', { class: 'panel', novalidate: true },
        h('p', { class: 'muted wide' }, t('users.password_dialog_hint', { name: u.name })),
        field({ name: 'password', label: t('users.password'), type: 'password', required: true, hint: t('users.password_hint'),
          attrs: { autocomplete: 'new-password' } }),
        field({ name: 'password_repeat', label: t('users.password_repeat'), type: 'password', required: true, attrs: { autocomplete: 'new-password' } }),
        h('p', { class: 'form-error', role: 'alert' }),
        h('div', { class: 'buttons' }, submit, h('button', { type: 'button', class: 'secondary', onclick: () => dlg.close() }, t('common.cancel'))));
      const dlg = h('dialog', { class: 'password-dialog', 'aria-labelledby': 'password-dialog-title' },
        h('h2', { id: 'password-dialog-title' }, t('users.password_title', { name: u.name })), form);
      dlg.addEventListener('close', () => { form.reset(); dlg.remove(); });
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        const v = values(form);
        if (v.password !== v.password_repeat) {
          showError(form, new ApiError(422, { errors: [{ field: 'password_repeat', message: t('users.password_mismatch') }] }));
          return;
        }
        await withBusy(submit, async () => {
          try {
            await api.put(`/api/users/${u.id}`, { password: v.password });
            toast(t('users.password_changed', { name: u.name }));
            dlg.close();
          } catch (err) {
            if (err.status === 401) { dlg.close(); return; }
            showError(form, err);
          }
        });
      });
      document.body.append(dlg);
      dlg.showModal();
      form.querySelector('input[name=password]').focus();
    }

    function createForm() {
      const restored = !!readDraft(DRAFT);
      const submit = h('button', { type: 'submit' }, t('common.create'));
      const password = field({ name: 'password', label: t('users.password'), type: 'password', required: true, hint: t('users.password_hint'),
        attrs: { autocomplete: 'new-password' } });
      const pwInput = password.querySelector('input');
      pwInput.removeAttribute('name'); // no name: the draft never holds it
      const form = h('form', { class: 'panel', id: 'user-form', novalidate: true },
        field({ name: 'name', label: t('users.name'), required: true, attrs: { autocomplete: 'off', maxlength: 200 } }),
        field({ name: 'email', label: t('users.email'), type: 'email', required: true, attrs: { autocomplete: 'off' } }),
        field({ name: 'role', label: t('users.role'), type: 'select', value: 'staff', hint: t('users.role_hint'),
          options: [['staff', t('users.role.staff')], ['admin', t('users.role.admin')]] }),
        password,
        h('p', { class: 'form-error', role: 'alert' }),
        h('div', { class: 'buttons' }, submit));
      bindDraft(form, DRAFT);
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        const v = values(form);
        await withBusy(submit, async () => {
          try {
            const res = await api.post('/api/users', { email: v.email.trim(), name: v.name, role: v.role, password: pwInput.value });
            dropDraft(DRAFT);
            for (const [n, v] of [['name', ''], ['email', ''], ['role', 'staff']]) form.elements.namedItem(n).value = v;
            pwInput.value = '';
            toast(t('users.created', { name: res.user.name }));
          } catch (err) {
            if (err.status === 401) return; // the login takes over; the draft (without the password) is kept
            showError(form, err);
            return;
          }
          await load();
        });
      });
      clear(createCard, h('h2', {}, t('users.new')),
        restored ? h('p', { class: 'notice', role: 'status' }, t('users.draft_restored')) : null, form);
    }

    createForm();
    await load();
  },
};
