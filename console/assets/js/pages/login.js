// The login page: the appliance's own auth (POST /api/auth/login).
import { t, lang } from '../i18n.js';
import * as api from '../api.js';
import { h, field, values, withBusy, clearErrors, errorText, fieldError } from '../ui.js';

export default {
  render(main, { notice, onLoggedIn, onLanguage }) {
    const msg = h('p', { class: 'form-error', role: 'alert' });
    const button = h('button', { type: 'submit' }, t('login.submit'));
    const form = h('form', { class: 'login-form', novalidate: true },
      h('div', { class: 'brand big' }, h('img', { src: '/assets/icon.svg', alt: '', width: 40, height: 40 }), h('span', {}, 'posbox')),
      h('h1', {}, t('login.title')),
      notice ? h('p', { class: `notice ${notice.kind || 'warn'}`, role: 'status' }, notice.text) : null,
      field({ name: 'email', label: t('login.email'), type: 'email', required: true, attrs: { autocomplete: 'username', autofocus: true } }),
      field({ name: 'password', label: t('login.password'), type: 'password', required: true, attrs: { autocomplete: 'current-password' } }),
      msg, button,
      h('div', { class: 'lang', role: 'group', 'aria-label': t('nav.language') },
        ['de', 'en'].map((l) => h('button', { type: 'button', class: 'link', lang: l, 'aria-pressed': String(lang() === l), onclick: () => onLanguage(l) }, l.toUpperCase()))));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      clearErrors(form);
      const v = values(form);
      await withBusy(button, async () => {
        try {
          const res = await api.post('/api/auth/login', { email: v.email, password: v.password });
          onLoggedIn(res.access_token);
        } catch (err) {
          if (err.status === 401) msg.textContent = t('login.failed');
          else if (err.status === 429) msg.textContent = t('login.rate_limited', { n: err.retryAfter || 20 });
          else if (err.status === 422) {
            msg.textContent = t('error.fields');
            for (const fe of err.errors) {
              const box = form.querySelector(`[data-field="${fe.field}"] .error`);
              if (box) box.textContent = fieldError(fe, form);
            }
          } else msg.textContent = errorText(err);
        }
      });
    });
    main.append(form);
    form.querySelector('input[name=email]').focus();
    // The certificate's fingerprint, to compare with the one `posbox tls`
    // prints on the box (and that tills pin).
    api.get('/api/health').then((hl) => {
      if (!hl.tls_fingerprint) return;
      form.append(h('p', { class: 'fingerprint muted', id: 'tls-fingerprint' }, t('login.tls'), ' (SHA-256): ',
        h('span', { class: 'mono small' }, hl.tls_fingerprint)));
    }).catch(() => {});
  },
};
