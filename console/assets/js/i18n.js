// Translations: German and English. Each page adds its own strings with
// addStrings, so a page's texts live beside its code.

const dict = { de: {}, en: {} };
let current = 'de';

// addStrings merges a page's texts: { de: {key: text}, en: {...} }.
export function addStrings(strings) {
  for (const lang of Object.keys(dict)) Object.assign(dict[lang], strings[lang] || {});
}

// t looks a key up in the current language (English, then the key
// itself, when missing) and fills {name} placeholders from vars. A count
// vars.n of 1 picks the key's singular, key_one, when there is one:
// t('x.wait', {n}) with 'x.wait': 'in {n} Sekunden', 'x.wait_one': 'in einer Sekunde'.
export function t(key, vars) {
  if (vars && vars.n === 1 && has(`${key}_one`)) key = `${key}_one`;
  let s = dict[current][key] ?? dict.en[key] ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return s;
}

// has reports whether a text exists for key.
export function has(key) { return key in dict[current] || key in dict.en; }

export function lang() { return current; }

// keys lists a language's keys, of every module loaded so far (a test
// compares German and English).
export function keys(l) { return Object.keys(dict[l] || {}); }

// initLang picks the saved choice, else the browser's language.
export function initLang() {
  const saved = localStorage.getItem('posbox.lang');
  const wanted = saved || (navigator.languages || [navigator.language || 'de']).find((l) => /^(de|en)\b/i.test(l)) || 'de';
  setLang(wanted.slice(0, 2).toLowerCase());
}

export function setLang(l) {
  current = l === 'en' ? 'en' : 'de';
  localStorage.setItem('posbox.lang', current);
  document.documentElement.lang = current;
}

addStrings({
  de: {
    'app.name': 'posbox',
    'app.skip': 'Zum Inhalt',
    'nav.dashboard': 'Übersicht', 'nav.shifts': 'Dienstplan', 'nav.time': 'Arbeitszeiten', 'nav.discounts': 'Rabatte',
    'nav.tse': 'TSE', 'nav.cash': 'Kasse', 'nav.fiscal': 'Steuerdaten', 'nav.notifications': 'Benachrichtigungen', 'nav.users': 'Benutzer', 'nav.account': 'Mein Konto', 'nav.settings': 'Einstellungen', 'nav.menu': 'Menü',
    'nav.logout': 'Abmelden', 'nav.language': 'Sprache', 'nav.signed_in_as': 'Angemeldet als {name}',
    'common.save': 'Speichern', 'common.cancel': 'Abbrechen', 'common.delete': 'Löschen', 'common.edit': 'Bearbeiten',
    'common.create': 'Anlegen', 'common.close': 'Schließen', 'common.yes': 'Ja', 'common.no': 'Nein',
    'common.loading': 'Wird geladen …', 'common.saved': 'Gespeichert.', 'common.deleted': 'Gelöscht.',
    'common.none': 'Keine Einträge.', 'common.refresh': 'Aktualisieren', 'common.actions': 'Aktionen',
    'common.from': 'Von', 'common.to': 'Bis', 'common.show': 'Anzeigen', 'common.status': 'Status',
    'common.name': 'Name', 'common.active': 'Aktiv', 'common.inactive': 'Inaktiv', 'common.confirm': 'Bestätigen',
    'common.updated_at': 'Stand: {time}', 'common.required': 'Pflichtfeld',
    'common.downloaded': '{file} wurde heruntergeladen.',
    'error.network': 'Die posbox ist nicht erreichbar. Bitte die Verbindung prüfen.',
    'error.server': 'Die posbox hat einen Fehler gemeldet ({status}).',
    'error.fields': 'Bitte die markierten Felder prüfen.',
    'error.forbidden': 'Dafür fehlen die Rechte.',
    'login.title': 'Anmelden', 'login.email': 'E-Mail', 'login.password': 'Passwort', 'login.submit': 'Anmelden',
    'login.expired': 'Die Sitzung ist abgelaufen. Bitte erneut anmelden; die Eingaben bleiben erhalten.',
    'login.logged_out': 'Abgemeldet.', 'login.failed': 'E-Mail oder Passwort ist falsch.',
    'login.rate_limited': 'Zu viele Versuche. Bitte in {n} Sekunden erneut versuchen.',
    'login.rate_limited_one': 'Zu viele Versuche. Bitte in einer Sekunde erneut versuchen.',
    'login.staff_only': 'Die Konsole ist für Administratoren. Mitarbeiter stempeln an der Kasse.',
    'login.tls': 'Zertifikat der posbox',
  },
  en: {
    'app.name': 'posbox',
    'app.skip': 'Skip to content',
    'nav.dashboard': 'Dashboard', 'nav.shifts': 'Shift plan', 'nav.time': 'Time entries', 'nav.discounts': 'Discounts',
    'nav.tse': 'TSE', 'nav.cash': 'Cash', 'nav.fiscal': 'Fiscal records', 'nav.notifications': 'Notifications', 'nav.users': 'Users', 'nav.account': 'My account', 'nav.settings': 'Settings', 'nav.menu': 'Menu',
    'nav.logout': 'Log out', 'nav.language': 'Language', 'nav.signed_in_as': 'Signed in as {name}',
    'common.save': 'Save', 'common.cancel': 'Cancel', 'common.delete': 'Delete', 'common.edit': 'Edit',
    'common.create': 'Create', 'common.close': 'Close', 'common.yes': 'Yes', 'common.no': 'No',
    'common.loading': 'Loading …', 'common.saved': 'Saved.', 'common.deleted': 'Deleted.',
    'common.none': 'Nothing here yet.', 'common.refresh': 'Refresh', 'common.actions': 'Actions',
    'common.from': 'From', 'common.to': 'To', 'common.show': 'Show', 'common.status': 'Status',
    'common.name': 'Name', 'common.active': 'Active', 'common.inactive': 'Inactive', 'common.confirm': 'Confirm',
    'common.updated_at': 'Updated {time}', 'common.required': 'Required',
    'common.downloaded': '{file} was downloaded.',
    'error.network': 'The posbox cannot be reached. Please check the connection.',
    'error.server': 'The posbox reported an error ({status}).',
    'error.fields': 'Please check the marked fields.',
    'error.forbidden': 'You are not allowed to do that.',
    'login.title': 'Log in', 'login.email': 'Email', 'login.password': 'Password', 'login.submit': 'Log in',
    'login.expired': 'Your session has expired. Please log in again; what you entered is kept.',
    'login.logged_out': 'Logged out.', 'login.failed': 'Wrong email or password.',
    'login.rate_limited': 'Too many attempts. Please try again in {n} seconds.',
    'login.rate_limited_one': 'Too many attempts. Please try again in one second.',
    'login.staff_only': 'The console is for admins. Staff clock in at the till.',
    'login.tls': 'posbox certificate',
  },
});
