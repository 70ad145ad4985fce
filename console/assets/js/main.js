// The console: boot, layout, routing and the session. Pages are modules
// under pages/, loaded when first opened.
import { t, initLang, setLang, lang, addStrings } from './i18n.js';
import * as api from './api.js';
import { setZone, fmtDay } from './format.js';
import { h, clear, toast, errorText } from './ui.js';
import { simulatorBanner } from './tse_words.js';

const pages = {
  '/': { nav: 'nav.dashboard', load: () => import('./pages/dashboard.js') },
  '/shifts': { nav: 'nav.shifts', load: () => import('./pages/shifts.js') },
  '/time': { nav: 'nav.time', load: () => import('./pages/time.js') },
  '/discounts': { nav: 'nav.discounts', load: () => import('./pages/discounts.js') },
  '/tse': { nav: 'nav.tse', load: () => import('./pages/tse.js') },
  '/cash': { nav: 'nav.cash', load: () => import('./pages/cash.js') },
  '/fiscal': { nav: 'nav.fiscal', load: () => import('./pages/fiscal.js') },
  '/procedure-document': { nav: 'nav.procdoc', load: () => import('./pages/procedure_document.js') },
  '/notifications': { nav: 'nav.notifications', load: () => import('./pages/notifications.js') },
  '/users': { nav: 'nav.users', load: () => import('./pages/users.js') },
  '/audit-log': { nav: 'nav.audit_log', load: () => import('./pages/audit_log.js') },
  '/account': { nav: 'nav.account', load: () => import('./pages/account.js') },
  '/settings': { nav: 'nav.settings', load: () => import('./pages/settings.js') },
  '/tse/after-restore': { nav: 'ar.title', hidden: true, load: () => import('./pages/tse_after_restore.js') }, // from the dashboard's card
  // Reached from the dashboard's prompt only, not from the menu.
  '/recovery-sheet': { nav: 'sheet.title', hidden: true, load: () => import('./pages/recovery_sheet.js') },
};

// HQ mode (posbox hq, GET /api/health's mode): the chain's page, HQ's own
// users and one's account; the box's pages have no data there.
const hqPages = {
  '/': { nav: 'nav.hq', load: () => import('./pages/hq.js') },
  '/users': pages['/users'],
  '/account': pages['/account'],
};
addStrings({ de: { 'nav.hq': 'Alle Standorte' }, en: { 'nav.hq': 'All locations' } });
// A soft hyphen: the menu's column is narrower than the word.
addStrings({ de: { 'nav.procdoc': 'Verfahrens\u00addokumentation' }, en: { 'nav.procdoc': 'Procedure document' } });

// The tax office's auditor (docs/FISCAL.md, "The auditor's access"): the
// fiscal records only, read-only, and one's own password; the server
// refuses everything else (403 auditor_not_allowed) and logs every call.
const auditorPages = {
  '/': { nav: 'nav.receipts', load: () => import('./pages/tse.js') },
  '/fiscal': pages['/fiscal'],
  '/procedure-document': pages['/procedure-document'],
  '/account': pages['/account'],
};
addStrings({
  de: { 'nav.receipts': 'Belege und TSE', 'nav.audit_log': 'Prüfzugriffe', 'auditor.banner': 'Prüfzugang bis {date}, nur lesen' },
  en: { 'nav.receipts': 'Receipts and TSE', 'nav.audit_log': 'Audit access log', 'auditor.banner': 'Audit access until {date}, read only' },
});
const auditor = () => session && session.me.role === 'auditor';
const table = () => (session && session.hq ? hqPages : auditor() ? auditorPages : pages);

const RETURN = 'posbox.return';
const app = document.getElementById('app');
let session = null; // { me, restaurant }
let cleanup = null;
let notice = null; // a message for the login page: { text, kind: ok | warn }

// navigate changes the page without a reload (history API); the server
// answers every such path with this console.
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  render();
}

async function render() {
  if (cleanup) { cleanup(); cleanup = null; }
  const path = location.pathname;
  if (!api.token()) {
    if (path !== '/login') { sessionStorage.setItem(RETURN, path + location.search); history.replaceState(null, '', '/login'); }
    return renderLogin();
  }
  if (!session) {
    try {
      // The dashboard says whether the simulator signs (a banner on every
      // page); staff get 403 there and are turned away below.
      const [me, rest, health] = await Promise.all([api.get('/api/auth/me'), api.get('/api/restaurant'), api.get('/api/health')]);
      const hq = health.mode === 'hq';
      // Not for an auditor: the dashboard names staff (and would be a
      // refused call in its log).
      const dash = hq || me.user.role !== 'admin' ? null : await api.get('/api/dashboard').catch(() => null);
      session = { me: me.user, restaurant: rest.restaurant, hq, simulated: !!(dash && dash.dashboard.tse && dash.dashboard.tse.simulated) };
      setZone(session.restaurant.timezone);
    } catch (err) {
      clear(app, h('main', { id: 'main', class: 'boot-error' }, h('p', { role: 'alert' }, errorText(err))));
      return;
    }
  }
  if (session.me.role !== 'admin' && session.me.role !== 'auditor') {
    logout(t('login.staff_only'), 'warn');
    return;
  }
  if (path === '/login') { history.replaceState(null, '', '/'); return render(); }
  // A password someone else set: her own first, nothing else until then.
  if (session.me.must_change_password && path !== '/account') { history.replaceState(null, '', '/account'); return render(); }
  const page = table()[path] || table()['/'];
  if (!table()[path]) history.replaceState(null, '', '/');
  const main = layout(page);
  const mod = await page.load();
  document.title = `${t(page.nav)} · ${session.restaurant.name} · posbox`;
  main.setAttribute('aria-busy', 'true');
  cleanup = (await mod.default.render(main, ctx())) || null;
  main.removeAttribute('aria-busy');
  app.removeAttribute('aria-busy');
}

function ctx() {
  return { me: session.me, restaurant: session.restaurant, navigate, signedIn, readOnly: auditor() };
}

// signedIn takes the fresh token of one's own password change (the old
// one ended with it); after a forced change it opens the overview.
function signedIn(tok, me) {
  const forced = session.me.must_change_password;
  api.setToken(tok);
  session.me = me;
  if (forced) navigate('/', { replace: true });
}

// layout draws the header and navigation and returns the empty main.
function layout(page) {
  const links = Object.entries(table()).filter(([path, p]) => !p.hidden && (!session.me.must_change_password || path === '/account')).map(([path, p]) => h('li', {},
    h('a', { href: path, 'aria-current': p === page ? 'page' : null, onclick: (e) => { e.preventDefault(); closeMenu(); navigate(path); } }, t(p.nav))));
  const langSwitch = h('div', { class: 'lang', role: 'group', 'aria-label': t('nav.language') },
    ['de', 'en'].map((l) => h('button', { type: 'button', class: 'link', lang: l, 'aria-pressed': String(lang() === l),
      onclick: () => { setLang(l); render(); } }, l.toUpperCase())));
  const menuButton = h('button', { type: 'button', class: 'menu-toggle', 'aria-expanded': 'false', 'aria-controls': 'nav',
    onclick: () => { const open = nav.classList.toggle('open'); menuButton.setAttribute('aria-expanded', String(open)); } }, t('nav.menu'));
  const nav = h('nav', { id: 'nav', 'aria-label': t('nav.menu') }, h('ul', {}, links));
  function closeMenu() { nav.classList.remove('open'); menuButton.setAttribute('aria-expanded', 'false'); }
  const main = h('main', { id: 'main', tabindex: '-1' });
  clear(app,
    h('header', { class: 'top' },
      h('div', { class: 'brand' }, h('img', { src: '/assets/icon.svg', alt: '', width: 28, height: 28 }),
        h('span', {}, 'posbox'), h('span', { class: 'restaurant' }, session.restaurant.name)),
      menuButton,
      h('div', { class: 'who' }, h('span', { class: 'sr-only' }, t('nav.signed_in_as', { name: session.me.name })),
        h('span', { 'aria-hidden': 'true' }, session.me.name), langSwitch,
        h('button', { type: 'button', class: 'secondary', onclick: () => logout(t('login.logged_out'), 'ok') }, t('nav.logout')))),
    session.simulated ? simulatorBanner() : null,
    auditor() ? h('p', { class: 'auditor-banner', role: 'note' }, t('auditor.banner', { date: fmtDay(session.me.valid_until) })) : null,
    nav, main);
  document.querySelector('.skip').textContent = t('app.skip');
  return main;
}

// logout ends the session; message is said on the login page, as good
// news (ok: she logged out) or as a warning.
function logout(message, kind) {
  api.setToken(null);
  session = null;
  notice = { text: message, kind };
  history.replaceState(null, '', '/login');
  render();
}

async function renderLogin() {
  session = null;
  const mod = await import('./pages/login.js');
  const main = h('main', { id: 'main', class: 'login' });
  clear(app, main);
  document.title = `${t('login.title')} · posbox`;
  app.removeAttribute('aria-busy');
  mod.default.render(main, {
    notice, onLanguage: (l) => { setLang(l); renderLogin(); },
    onLoggedIn: (tok) => {
      api.setToken(tok);
      notice = null;
      const back = sessionStorage.getItem(RETURN) || '/';
      sessionStorage.removeItem(RETURN);
      navigate(back === '/login' ? '/' : back, { replace: true });
    },
  });
}

// An expired or revoked token: back to the login, with a message, and
// back to the same page afterwards (its drafts are kept). The console's
// one handling of an ended session: the request that met it never
// settles (api.js), so pages leave it to this.
api.whenExpired(() => {
  if (!api.token()) return;
  sessionStorage.setItem(RETURN, location.pathname + location.search);
  // A dialog over the page (a confirmation, a password form) is not in
  // the page's element, so the login would not replace it.
  for (const d of document.querySelectorAll('body > dialog[open]')) d.close();
  logout(t('login.expired'), 'warn');
});

// The busy bar shows while any request is in flight.
api.onBusy((n) => {
  const bar = document.getElementById('busy');
  bar.classList.toggle('on', n > 0);
  document.body.setAttribute('aria-busy', String(n > 0));
});

window.addEventListener('popstate', render);
window.addEventListener('unhandledrejection', (e) => toast(errorText(e.reason), 'error'));
initLang();
render();
