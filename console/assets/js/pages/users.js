// Users: the list, a form to create one (with an email and a password, or
// for staff without an email: staff number and till PIN), and per user:
// edit name, email and staff number, change the role, disable/enable,
// reset the password or set the PIN (in dialogs), delete, and for one
// who left (deactivated) erase the personal data (GDPR); below, the
// former staff (deleted, not yet erased: GET /api/users/former) with the
// same erasure, as owners remove staff who left with "delete"; and the
// record of the erasures (GET /api/users/erasures). Her own
// password is changed on "My account" (with the current one), not here.
// API: docs/API.md section 2. A password or PIN is sent and forgotten:
// it is never shown, kept in a draft or put back into a field. The tax
// office's auditor (role auditor, docs/FISCAL.md "The auditor's access")
// is created here too, with the last day of the access; it can be moved
// or the access ended at once ("end access now": yesterday).
import { t, addStrings } from '../i18n.js';
import * as api from '../api.js';
import { ApiError } from '../api.js';
import { h, clear, field, values, showError, clearErrors, confirmDialog, withBusy, bindDraft, dropDraft, readDraft,
  table, badge, toast, errorText } from '../ui.js';
import { localDate, fmtDay, fmtDateTime, addDays } from '../format.js';

addStrings({
  de: {
    'users.title': 'Benutzer', 'users.list': 'Alle Benutzer', 'users.new': 'Neuer Benutzer',
    'users.name': 'Name', 'users.email': 'E-Mail', 'users.role': 'Rolle', 'users.status': 'Status', 'users.password': 'Passwort',
    'users.password_hint': '8 bis 72 Zeichen. Wird nach dem Speichern nicht mehr angezeigt; die Person wählt bei der ersten Anmeldung ein eigenes.',
    'users.password_repeat': 'Passwort wiederholen', 'users.password_mismatch': 'Die beiden Passwörter stimmen nicht überein.',
    'users.role.admin': 'Administrator', 'users.role.staff': 'Mitarbeiter', 'users.role.auditor': 'Prüfer/in (Finanzamt)',
    'users.role_hint': 'Administratoren verwalten alles in dieser Konsole; Mitarbeiter stempeln und kassieren an der Kasse; Prüfer/innen vom Finanzamt sehen befristet nur die Steuerdaten.',
    'users.valid_until': 'Zugang gilt bis einschließlich',
    'users.auditor_hint': 'Für die Kassennachschau oder Betriebsprüfung: Die Prüferin oder der Prüfer meldet sich mit E-Mail und Passwort an und sieht nur die Steuerdaten (Belege, Tagesabschlüsse, TSE-Archiv, DSFinV-K-Export, Stammdaten und Meldung). Nichts zum Personal, keine Arbeitszeiten, und ändern kann sie oder er nichts. Jeder Aufruf wird unter „Prüfzugriffe“ festgehalten. Nach dem gewählten Tag endet der Zugang von selbst (höchstens ein Jahr).',
    'users.auditor_until': 'bis {date}', 'users.auditor_ended': 'Zugang beendet',
    'users.end_access': 'Zugang jetzt beenden', 'users.confirm_end_access': 'Den Prüfzugang von {name} jetzt beenden? Sie oder er kann sich dann nicht mehr anmelden; Sie können den Zugang später wieder verlängern.',
    'users.access_ended': 'Der Prüfzugang von {name} ist beendet.',
    'users.active': 'Aktiv', 'users.disabled': 'Deaktiviert', 'users.you': 'Sie',
    'users.make_admin': 'Zum Administrator machen', 'users.make_staff': 'Zum Mitarbeiter machen',
    'users.disable': 'Deaktivieren', 'users.enable': 'Aktivieren', 'users.reset_password': 'Passwort zurücksetzen',
    'users.created': '{name} wurde angelegt.', 'users.role_changed': '{name} ist jetzt {role}.',
    'users.disabled_msg': '{name} ist deaktiviert und kann sich nicht mehr anmelden.', 'users.enabled_msg': '{name} kann sich wieder anmelden.',
    'users.unstaffed': '{n} geplante Schichten ab heute sind jetzt unbesetzt: bitte im Dienstplan neu besetzen.',
    'users.unstaffed_one': 'Eine geplante Schicht ab heute ist jetzt unbesetzt: bitte im Dienstplan neu besetzen.',
    'users.deleted': '{name} wurde gelöscht.', 'users.password_changed': 'Das Passwort von {name} wurde geändert.',
    'users.password_title': 'Neues Passwort für {name}',
    'users.password_dialog_hint': 'Das neue Passwort gilt ab sofort. Bitte teilen Sie es {name} persönlich mit; bei der nächsten Anmeldung wird {name} gebeten, ein eigenes zu wählen.',
    'users.confirm_delete': '{name} löschen? Die Person kann sich nicht mehr anmelden; Schichten und Arbeitszeiten bleiben erhalten.',
    'users.confirm_self_demote': 'Sich selbst zum Mitarbeiter machen? Sie verlieren sofort den Zugang zu dieser Konsole.',
    'users.confirm_self_disable': 'Das eigene Konto deaktivieren? Sie werden sofort abgemeldet und können sich nicht mehr anmelden.',
    'users.confirm_self_delete': 'Das eigene Konto löschen? Sie werden sofort abgemeldet und können sich nicht mehr anmelden.',
    'users.last_admin': 'Nicht möglich: Es muss mindestens ein aktiver Administrator bleiben. Machen Sie zuerst eine andere Person zum Administrator.',
    'users.error_for': '{name}: {message}', 'users.draft_restored': 'Nicht gespeicherte Eingaben wurden wiederhergestellt (außer Passwort und PIN).',
    'users.staff_number': 'Personalnummer', 'users.staff_number_hint': 'Für die Lohnabrechnung und die Anmeldung an der Kasse mit PIN (Buchstaben, Ziffern, Bindestrich).',
    'users.email_hint': 'Leer lassen für Mitarbeiter ohne E-Mail-Adresse: Sie melden sich an der Kasse mit Personalnummer und PIN an.',
    'users.pin': 'PIN für die Kasse', 'users.pin_hint': '4 bis 8 Ziffern. Anmeldung an der Kasse mit Personalnummer und PIN (nur Mitarbeiter). Wird nach dem Speichern nicht mehr angezeigt.',
    'users.pin_repeat': 'PIN wiederholen', 'users.pin_mismatch': 'Die beiden PINs stimmen nicht überein.',
    'users.no_email': 'keine – Anmeldung mit Personalnummer und PIN', 'users.has_pin': 'PIN', 'users.must_change': 'Muss Passwort ändern',
    'users.edit': 'Bearbeiten', 'users.edit_title': '{name} bearbeiten', 'users.saved': 'Die Angaben von {name} wurden gespeichert.',
    'users.edit_password_hint': 'Nur nötig, wenn Sie eine E-Mail eintragen: Damit meldet sich die Person an und muss es beim ersten Mal ändern.',
    'users.edit_email_hint': 'Leer lassen, wenn sich die Person nur an der Kasse mit Personalnummer und PIN anmeldet.',
    'users.set_pin': 'PIN festlegen', 'users.pin_title': 'PIN für {name}', 'users.pin_changed': 'Die PIN von {name} wurde festgelegt.',
    'users.pin_dialog_hint': 'Die neue PIN gilt ab sofort; eine frühere PIN und alle Anmeldungen damit enden. Bitte teilen Sie sie {name} persönlich mit.',
    'users.remove_pin': 'PIN entfernen', 'users.pin_removed': '{name} kann sich nicht mehr mit PIN anmelden.',
    'users.confirm_remove_pin': 'PIN von {name} entfernen? Die Anmeldung an der Kasse mit Personalnummer und PIN ist dann nicht mehr möglich.',
    'users.own_password': 'Eigenes Passwort ändern',
    'users.password_must_change': 'Die Person muss es bei der nächsten Anmeldung durch ein eigenes ersetzen.',
    'users.erase': 'Persönliche Daten löschen', 'users.erase_ok': 'Endgültig löschen',
    'users.erase_title': 'Persönliche Daten von {name} löschen?',
    'users.erase_now': 'Sofort gelöscht werden: die E-Mail-Adresse, das Passwort, die PIN für die Kasse und Benachrichtigungen an diese E-Mail-Adresse. {name} kann sich danach nicht mehr anmelden und steht nicht mehr in der Liste.',
    'users.erase_kept': 'Erhalten bleiben Name und Personalnummer bei Arbeitszeiten, Schichten und in der Lohnabrechnung: Das Gesetz verlangt, diese Unterlagen bis zum Ende des siebten Jahres nach ihrem Jahr aufzubewahren (Mindestlohn, Arbeitszeit, Lohnsteuer; der Dezember wird erst im Januar abgerechnet). Danach ersetzt die posbox den Namen von selbst durch ein Kürzel.',
    'users.erase_receipts': 'Kassenbelege behalten den Namen der Bedienung zehn Jahre; sie dürfen nicht verändert werden (Abgabenordnung).',
    'users.erase_final': 'Das lässt sich nicht rückgängig machen.',
    'users.erased': 'Die persönlichen Daten von {name} wurden gelöscht.',
    'users.former': 'Frühere Mitarbeitende',
    'users.former_intro': 'Gelöschte Personen, deren persönliche Daten noch gespeichert sind. Wer nicht zurückkommt, dessen Daten können Sie hier löschen.',
    'users.former_none': 'Niemand: Alle gelöschten Personen sind schon ohne persönliche Daten.',
    'users.deleted_on': 'Gelöscht am',
    'users.erasures': 'Gelöschte persönliche Daten',
    'users.erasures_intro': 'Wann wer die persönlichen Daten einer Person gelöscht hat. Wen es betraf, steht hier nicht.',
    'users.erasures_none': 'Noch keine.',
    'users.erased_on': 'Gelöscht am', 'users.erased_by': 'Von',
    'users.pseudonymised': 'Name ersetzt',
    'users.pseudonymised_not_yet': 'Noch nicht: Arbeitszeiten werden noch aufbewahrt',
  },
  en: {
    'users.title': 'Users', 'users.list': 'All users', 'users.new': 'New user',
    'users.name': 'Name', 'users.email': 'Email', 'users.role': 'Role', 'users.status': 'Status', 'users.password': 'Password',
    'users.password_hint': '8 to 72 characters. It is not shown again after saving; they choose their own at the first login.',
    'users.password_repeat': 'Repeat password', 'users.password_mismatch': 'The two passwords do not match.',
    'users.role.admin': 'Admin', 'users.role.staff': 'Staff', 'users.role.auditor': 'Auditor (tax office)',
    'users.role_hint': 'Admins manage everything in this console; staff clock in and sell at the till; tax office auditors see only the fiscal records, for a limited time.',
    'users.valid_until': 'Access valid until (inclusive)',
    'users.auditor_hint': 'For a cash audit or tax audit: the auditor logs in with email and password and sees the fiscal records only (receipts, daily closings, TSE archive, DSFinV-K export, master data and registration). Nothing about staff, no working hours, and they cannot change anything. Every request is recorded under "Audit access log". The access ends by itself after the chosen day (at most one year).',
    'users.auditor_until': 'until {date}', 'users.auditor_ended': 'Access ended',
    'users.end_access': 'End access now', 'users.confirm_end_access': 'End the audit access of {name} now? They can no longer log in; you can extend the access again later.',
    'users.access_ended': 'The audit access of {name} has ended.',
    'users.active': 'Active', 'users.disabled': 'Disabled', 'users.you': 'You',
    'users.make_admin': 'Make admin', 'users.make_staff': 'Make staff',
    'users.disable': 'Disable', 'users.enable': 'Enable', 'users.reset_password': 'Reset password',
    'users.created': '{name} was created.', 'users.role_changed': '{name} is now {role}.',
    'users.disabled_msg': '{name} is disabled and can no longer log in.', 'users.enabled_msg': '{name} can log in again.',
    'users.unstaffed': '{n} planned shifts from today on are now unstaffed: please reassign them in the shift plan.',
    'users.unstaffed_one': 'One planned shift from today on is now unstaffed: please reassign it in the shift plan.',
    'users.deleted': '{name} was deleted.', 'users.password_changed': 'The password of {name} was changed.',
    'users.password_title': 'New password for {name}',
    'users.password_dialog_hint': 'The new password works at once. Please tell {name} in person; at the next login {name} is asked to choose their own.',
    'users.confirm_delete': 'Delete {name}? They can no longer log in; their shifts and time entries are kept.',
    'users.confirm_self_demote': 'Make yourself staff? You lose access to this console at once.',
    'users.confirm_self_disable': 'Disable your own account? You are logged out at once and cannot log in again.',
    'users.confirm_self_delete': 'Delete your own account? You are logged out at once and cannot log in again.',
    'users.last_admin': 'Not possible: at least one active admin must remain. Make someone else an admin first.',
    'users.error_for': '{name}: {message}', 'users.draft_restored': 'Unsaved input was restored (except password and PIN).',
    'users.staff_number': 'Staff number', 'users.staff_number_hint': 'For the payroll and the till login with a PIN (letters, digits, hyphen).',
    'users.email_hint': 'Leave empty for staff without an email address: they log in at the till with staff number and PIN.',
    'users.pin': 'Till PIN', 'users.pin_hint': '4 to 8 digits. Log in at the till with staff number and PIN (staff only). It is not shown again after saving.',
    'users.pin_repeat': 'Repeat PIN', 'users.pin_mismatch': 'The two PINs do not match.',
    'users.no_email': 'none – logs in with staff number and PIN', 'users.has_pin': 'PIN', 'users.must_change': 'Must change password',
    'users.edit': 'Edit', 'users.edit_title': 'Edit {name}', 'users.saved': 'The details of {name} were saved.',
    'users.edit_password_hint': 'Only needed when you enter an email: they log in with it and must change it the first time.',
    'users.edit_email_hint': 'Leave empty if they log in only at the till with staff number and PIN.',
    'users.set_pin': 'Set PIN', 'users.pin_title': 'PIN for {name}', 'users.pin_changed': 'The PIN of {name} was set.',
    'users.pin_dialog_hint': 'The new PIN works at once; an earlier PIN and every login with it end. Please tell {name} in person.',
    'users.remove_pin': 'Remove PIN', 'users.pin_removed': '{name} can no longer log in with a PIN.',
    'users.confirm_remove_pin': 'Remove the PIN of {name}? Logging in at the till with staff number and PIN is then no longer possible.',
    'users.own_password': 'Change own password',
    'users.password_must_change': 'They must replace it with their own at the next login.',
    'users.erase': 'Erase personal data', 'users.erase_ok': 'Erase for good',
    'users.erase_title': 'Erase the personal data of {name}?',
    'users.erase_now': 'Erased at once: the email address, the password, the till PIN and notifications to this email address. {name} can no longer log in and leaves the list.',
    'users.erase_kept': 'Kept: name and staff number on time records, shifts and payroll: the law asks to keep these records until the end of the seventh year after their year (minimum wage, working time, wage tax; December is paid in January). Then posbox replaces the name with a code on its own.',
    'users.erase_receipts': 'Receipts keep the name of who sold for ten years; they must not be changed (German fiscal code).',
    'users.erase_final': 'This cannot be undone.',
    'users.erased': 'The personal data of {name} was erased.',
    'users.former': 'Former staff',
    'users.former_intro': 'Deleted people whose personal data is still stored. For someone who will not come back, erase it here.',
    'users.former_none': 'Nobody: the personal data of every deleted person is erased already.',
    'users.deleted_on': 'Deleted on',
    'users.erasures': 'Erased personal data',
    'users.erasures_intro': 'When who erased the personal data of a person. Whom it concerned is not shown here.',
    'users.erasures_none': 'None yet.',
    'users.erased_on': 'Erased on', 'users.erased_by': 'By',
    'users.pseudonymised': 'Name replaced',
    'users.pseudonymised_not_yet': 'Not yet: time records are still kept',
  },
});

const DRAFT = 'user.new';

export default {
  async render(main, { me, navigate }) {
    const listBox = h('div', { id: 'users-list' });
    const listError = h('p', { class: 'form-error', role: 'alert', id: 'users-error' });
    const createCard = h('section', { class: 'card', id: 'user-create' });
    const formerBox = h('div', { id: 'users-former-list' });
    const erasuresBox = h('div', { id: 'users-erasures-list' });
    main.append(
      h('div', { class: 'page-head' }, h('h1', {}, t('users.title')),
        h('button', { type: 'button', class: 'secondary', onclick: () => load() }, t('common.refresh'))),
      h('section', { class: 'card', id: 'users' }, h('h2', {}, t('users.list')), listError, listBox),
      h('section', { class: 'card', id: 'users-former' }, h('h2', {}, t('users.former')),
        h('p', { class: 'muted' }, t('users.former_intro')), formerBox),
      h('section', { class: 'card', id: 'users-erasures' }, h('h2', {}, t('users.erasures')),
        h('p', { class: 'muted' }, t('users.erasures_intro')), erasuresBox),
      createCard);

    let users = [];

    async function load() {
      try {
        users = (await api.get('/api/users')).users;
      } catch (err) {
        listError.textContent = errorText(err);
        return;
      }
      clear(listBox, table([
        { label: t('users.name'), cell: (u) => h('div', {}, h('strong', {}, u.name), u.id === me.id ? [' ', badge(t('users.you'), 'neutral')] : null) },
        { label: t('users.email'), class: 'wrap-anywhere', cell: (u) => u.email || h('span', { class: 'muted' }, t('users.no_email')) },
        { label: t('users.staff_number'), cell: (u) => u.staff_number || '–' },
        { label: t('users.role'), cell: (u) => u.role === 'auditor'
          ? h('div', {}, t('users.role.auditor'), h('br'), h('span', { class: 'muted small-text' }, t('users.auditor_until', { date: fmtDay(u.valid_until) })))
          : t(`users.role.${u.role}`) },
        { label: t('users.status'), cell: (u) => h('div', { class: 'buttons user-badges' }, u.is_active ? badge(t('users.active'), 'ok') : badge(t('users.disabled'), 'bad'),
          u.has_pin ? badge(t('users.has_pin'), 'neutral') : null,
          u.must_change_password ? badge(t('users.must_change'), 'warn') : null,
          auditorEnded(u) ? badge(t('users.auditor_ended'), 'bad') : null) },
        { label: t('common.actions'), cell: (u) => h('div', { class: 'buttons row-actions' },
          action(u, 'users.edit', () => editDialog(u)),
          u.email && u.role !== 'auditor' ? action(u, u.role === 'admin' ? 'users.make_staff' : 'users.make_admin', (b) => setRole(u, b)) : null,
          u.role === 'auditor' && !auditorEnded(u) ? action(u, 'users.end_access', (b) => endAccess(u, b)) : null,
          action(u, u.is_active ? 'users.disable' : 'users.enable', (b) => setActive(u, b)),
          // Her own password needs her current one: "My account".
          u.id === me.id ? action(u, 'users.own_password', () => navigate('/account'))
            : u.email ? action(u, 'users.reset_password', () => passwordDialog(u)) : null,
          u.role === 'staff' ? action(u, 'users.set_pin', () => pinDialog(u)) : null,
          u.role === 'staff' && u.has_pin && u.email ? action(u, 'users.remove_pin', (b) => removePin(u, b)) : null,
          action(u, 'common.delete', (b) => remove(u, b), 'danger small'),
          !u.is_active && u.id !== me.id ? action(u, 'users.erase', (b) => erase(u, b), 'danger small') : null) },
      ], users, { caption: t('users.list'), rowAttrs: (u) => ({ dataset: { id: u.id, email: u.email || '', staffNumber: u.staff_number || '' } }) }));
      await loadFormer();
    }

    // loadFormer lists the deleted users not yet erased, with the erasure.
    async function loadFormer() {
      let former;
      try {
        former = (await api.get('/api/users/former')).former_users;
      } catch (err) {
        listError.textContent = errorText(err);
        return;
      }
      clear(formerBox, former.length === 0 ? h('p', { class: 'muted' }, t('users.former_none')) : table([
        { label: t('users.name'), cell: (u) => h('strong', {}, u.name) },
        { label: t('users.staff_number'), cell: (u) => u.staff_number || '–' },
        { label: t('users.deleted_on'), cell: (u) => fmtDay(localDate(new Date(u.deleted_at))) },
        { label: t('common.actions'), cell: (u) => h('div', { class: 'buttons row-actions' },
          action(u, 'users.erase', (b) => erase(u, b), 'danger small')) },
      ], former, { caption: t('users.former'), rowAttrs: (u) => ({ dataset: { id: u.id } }) }));
      await loadErasures();
    }

    // loadErasures shows the record of the erasures: when, by whom.
    async function loadErasures() {
      let erasures;
      try {
        erasures = (await api.get('/api/users/erasures')).erasures;
      } catch (err) {
        listError.textContent = errorText(err);
        return;
      }
      clear(erasuresBox, erasures.length === 0 ? h('p', { class: 'muted' }, t('users.erasures_none')) : table([
        { label: t('users.erased_on'), cell: (e) => fmtDateTime(e.erased_at) },
        { label: t('users.erased_by'), cell: (e) => e.erased_by_name },
        { label: t('users.pseudonymised'), cell: (e) => e.pseudonymised_at ? fmtDateTime(e.pseudonymised_at) : h('span', { class: 'muted' }, t('users.pseudonymised_not_yet')) },
      ], erasures, { caption: t('users.erasures') }));
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
          toast(await done(res.user));
          return true;
        } catch (err) {
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

    // An auditor's access has ended when its last day lies before today.
    function auditorEnded(u) { return u.role === 'auditor' && u.valid_until < localDate(); }

    // endAccess makes yesterday the auditor's last day: refused at once.
    async function endAccess(u, button) {
      if (!(await confirmDialog(t('users.confirm_end_access', { name: u.name }), t('users.end_access')))) return;
      await change(u, button, { valid_until: addDays(localDate(), -1) }, (x) => t('users.access_ended', { name: x.name }));
    }

    async function setActive(u, button) {
      if (u.id === me.id && u.is_active && !(await confirmDialog(t('users.confirm_self_disable')))) return;
      await change(u, button, { is_active: !u.is_active }, async (x) => {
        const said = t(x.is_active ? 'users.enabled_msg' : 'users.disabled_msg', { name: x.name });
        const n = x.is_active ? 0 : await unstaffedFrom(x);
        return n ? `${said} ${t('users.unstaffed', { n })}` : said;
      });
    }

    // unstaffedFrom counts the planned shifts from today on that a
    // disabled user leaves without anyone (the plan marks them too).
    async function unstaffedFrom(u) {
      try {
        const res = await api.get(`/api/shifts${api.query({ unstaffed: 'true', date_from: localDate() })}`);
        return res.shifts.filter((sh) => sh.user_id === u.id).length;
      } catch {
        return 0;
      }
    }

    async function removePin(u, button) {
      if (!(await confirmDialog(t('users.confirm_remove_pin', { name: u.name }), t('users.remove_pin')))) return;
      await change(u, button, { pin: null }, (x) => t('users.pin_removed', { name: x.name }));
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
          if (err.status === 404) return true;
          listError.textContent = t('users.error_for', { name: u.name, message: err.code === 'last_admin' ? t('users.last_admin') : errorText(err) });
          return false;
        }
      });
      if (ok && u.id === me.id) { location.reload(); return; }
      await load();
    }

    // erase asks, in plain words, what goes now, what stays and why, then
    // erases (POST /api/users/:id/erase: only for a deactivated user).
    async function erase(u, button) {
      if (!(await eraseDialog(u))) return;
      listError.textContent = '';
      await withBusy(button, async () => {
        try {
          await api.post(`/api/users/${u.id}/erase`);
          toast(t('users.erased', { name: u.name }));
        } catch (err) {
          listError.textContent = t('users.error_for', { name: u.name, message: errorText(err) });
        }
      });
      await load();
    }

    function eraseDialog(u) {
      return new Promise((resolve) => {
        const ok = h('button', { class: 'danger', value: 'ok' }, t('users.erase_ok'));
        const dlg = h('dialog', { class: 'confirm erase-dialog', 'aria-labelledby': 'erase-title' },
          h('h2', { id: 'erase-title' }, t('users.erase_title', { name: u.name })),
          h('form', { method: 'dialog' },
            h('p', {}, t('users.erase_now', { name: u.name })),
            h('p', {}, t('users.erase_kept')),
            h('p', {}, t('users.erase_receipts')),
            h('p', {}, h('strong', {}, t('users.erase_final'))),
            h('div', { class: 'buttons' }, h('button', { value: 'cancel', class: 'secondary' }, t('common.cancel')), ok)));
        dlg.addEventListener('close', () => { resolve(dlg.returnValue === 'ok'); dlg.remove(); });
        document.body.append(dlg);
        dlg.showModal();
        dlg.querySelector('button.secondary').focus();
      });
    }

    // dialog opens a modal form; save(values, form) sends it and returns
    // the toast's text, or null to keep the dialog open.
    function dialog(cls, title, fields, save) {
      const submit = h('button', { type: 'submit' }, t('common.save'));
      const form = h('form', { class: 'panel', novalidate: true }, fields,
        h('p', { class: 'form-error', role: 'alert' }),
        h('div', { class: 'buttons' }, submit, h('button', { type: 'button', class: 'secondary', onclick: () => dlg.close() }, t('common.cancel'))));
      const id = `${cls}-title`;
      const dlg = h('dialog', { class: cls, 'aria-labelledby': id }, h('h2', { id }, title), form);
      dlg.addEventListener('close', () => { form.reset(); dlg.remove(); });
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        await withBusy(submit, async () => {
          try {
            const msg = await save(values(form), form);
            if (msg === null) return;
            toast(msg);
            dlg.close();
          } catch (err) {
            showError(form, err);
            return;
          }
          await load();
        });
      });
      document.body.append(dlg);
      dlg.showModal();
      form.querySelector('input').focus();
      return form;
    }

    // mismatch shows that a repeated secret differs; true when it does.
    function mismatch(form, v, name, key) {
      if (v[name] === v[`${name}_repeat`]) return false;
      showError(form, new ApiError(422, { errors: [{ field: `${name}_repeat`, message: t(key) }] }));
      return true;
    }

    const secret = (name, label, hint, attrs) => field({ name, label, type: 'password', required: true, hint, attrs });

    // passwordDialog sets a new password for someone else (twice typed).
    function passwordDialog(u) {
      dialog('password-dialog', t('users.password_title', { name: u.name }), [
        h('p', { class: 'muted wide' }, t('users.password_dialog_hint', { name: u.name })),
        secret('password', t('users.password'), t('users.password_hint'), { autocomplete: 'new-password' }),
        secret('password_repeat', t('users.password_repeat'), null, { autocomplete: 'new-password' }),
      ], async (v, form) => {
        if (mismatch(form, v, 'password', 'users.password_mismatch')) return null;
        await api.put(`/api/users/${u.id}`, { password: v.password });
        return t('users.password_changed', { name: u.name });
      });
    }

    // pinDialog sets a staff member's till PIN (and the staff number it
    // needs, when there is none yet).
    function pinDialog(u) {
      const pinAttrs = { autocomplete: 'off', inputmode: 'numeric', pattern: '[0-9]*', maxlength: 8 };
      dialog('pin-dialog', t('users.pin_title', { name: u.name }), [
        h('p', { class: 'muted wide' }, t('users.pin_dialog_hint', { name: u.name })),
        u.staff_number ? null : field({ name: 'staff_number', label: t('users.staff_number'), required: true, hint: t('users.staff_number_hint'),
          attrs: { autocomplete: 'off', maxlength: 20 } }),
        secret('pin', t('users.pin'), t('users.pin_hint'), pinAttrs),
        secret('pin_repeat', t('users.pin_repeat'), null, pinAttrs),
      ], async (v, form) => {
        if (mismatch(form, v, 'pin', 'users.pin_mismatch')) return null;
        const body = { pin: v.pin };
        if (!u.staff_number) body.staff_number = v.staff_number.trim();
        await api.put(`/api/users/${u.id}`, body);
        return t('users.pin_changed', { name: u.name });
      });
    }

    // editDialog changes name, email and staff number. A user without an
    // email who gets one needs a password with it.
    function editDialog(u) {
      const form = dialog('edit-dialog', t('users.edit_title', { name: u.name }), [
        field({ name: 'name', label: t('users.name'), required: true, value: u.name, attrs: { autocomplete: 'off', maxlength: 200 } }),
        field({ name: 'email', label: t('users.email'), type: 'email', value: u.email || '', required: u.role !== 'staff',
          hint: u.role === 'staff' ? t('users.edit_email_hint') : null, attrs: { autocomplete: 'off' } }),
        u.role === 'auditor' ? validUntilField(u.valid_until)
          : field({ name: 'staff_number', label: t('users.staff_number'), value: u.staff_number || '', hint: t('users.staff_number_hint'),
            attrs: { autocomplete: 'off', maxlength: 20 } }),
        u.email ? null : field({ name: 'password', label: t('users.password'), type: 'password', hint: t('users.edit_password_hint'),
          attrs: { autocomplete: 'new-password' } }),
      ], async (v) => {
        const body = {};
        if (v.name !== u.name) body.name = v.name;
        const email = v.email.trim();
        if (email !== (u.email || '')) body.email = email || null;
        if (u.role === 'auditor') {
          if (v.valid_until !== u.valid_until) body.valid_until = v.valid_until || null;
        } else {
          const sn = v.staff_number.trim();
          if (sn !== (u.staff_number || '')) body.staff_number = sn || null;
        }
        if (!u.email && email) body.password = form.elements.namedItem('password').value;
        if (Object.keys(body).length) await api.put(`/api/users/${u.id}`, body);
        return t('users.saved', { name: v.name });
      });
    }

    // validUntilField is the auditor's last day: a date picker from today
    // to a year ahead, with what the role may and may not see.
    function validUntilField(value) {
      const today = localDate();
      return field({ name: 'valid_until', label: t('users.valid_until'), type: 'date', required: true, value: value || addDays(today, 14),
        hint: t('users.auditor_hint'), attrs: { min: value && value < today ? value : today, max: addDays(today, 365) } });
    }

    function createForm() {
      const restored = !!readDraft(DRAFT);
      const submit = h('button', { type: 'submit' }, t('common.create'));
      // Password and PIN inputs have no name: the draft never holds them.
      const nameless = (f) => { f.querySelector('input').removeAttribute('name'); return f; };
      const password = nameless(field({ name: 'password', label: t('users.password'), type: 'password', required: true, hint: t('users.password_hint'),
        attrs: { autocomplete: 'new-password' } }));
      const pin = nameless(field({ name: 'pin', label: t('users.pin'), type: 'password', hint: t('users.pin_hint'),
        attrs: { autocomplete: 'off', inputmode: 'numeric', pattern: '[0-9]*', maxlength: 8 } }));
      const pwInput = password.querySelector('input');
      const pinInput = pin.querySelector('input');
      const validUntil = validUntilField('');
      const form = h('form', { class: 'panel', id: 'user-form', novalidate: true },
        field({ name: 'name', label: t('users.name'), required: true, attrs: { autocomplete: 'off', maxlength: 200 } }),
        field({ name: 'email', label: t('users.email'), type: 'email', hint: t('users.email_hint'), attrs: { autocomplete: 'off' } }),
        field({ name: 'role', label: t('users.role'), type: 'select', value: 'staff', hint: t('users.role_hint'),
          options: [['staff', t('users.role.staff')], ['admin', t('users.role.admin')], ['auditor', t('users.role.auditor')]] }),
        field({ name: 'staff_number', label: t('users.staff_number'), hint: t('users.staff_number_hint'), attrs: { autocomplete: 'off', maxlength: 20 } }),
        validUntil, password, pin,
        h('p', { class: 'form-error', role: 'alert' }),
        h('div', { class: 'buttons' }, submit));
      // The password is for a login by email, the PIN for staff: each
      // shows only where it can be used.
      const sync = () => {
        const v = values(form);
        const auditor = v.role === 'auditor';
        password.hidden = v.email.trim() === '' && !auditor;
        pin.hidden = v.role !== 'staff';
        validUntil.hidden = !auditor;
        form.querySelector('[data-field="staff_number"]').hidden = auditor;
      };
      form.addEventListener('input', sync);
      form.addEventListener('change', sync);
      bindDraft(form, DRAFT);
      sync();
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        clearErrors(form);
        const v = values(form);
        const body = { name: v.name, role: v.role };
        if (v.email.trim() || v.role === 'auditor') { body.email = v.email.trim(); body.password = pwInput.value; }
        if (v.role === 'auditor') body.valid_until = v.valid_until;
        else if (v.staff_number.trim()) body.staff_number = v.staff_number.trim();
        if (v.role === 'staff' && pinInput.value) body.pin = pinInput.value;
        await withBusy(submit, async () => {
          try {
            const res = await api.post('/api/users', body);
            dropDraft(DRAFT);
            for (const [n, x] of [['name', ''], ['email', ''], ['role', 'staff'], ['staff_number', '']]) form.elements.namedItem(n).value = x;
            pwInput.value = '';
            pinInput.value = '';
            sync();
            toast(t('users.created', { name: res.user.name }));
          } catch (err) {
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
