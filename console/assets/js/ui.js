// Small DOM helpers. Text goes in as text (never as HTML), so nothing an
// API returns can run as script.
import { t } from './i18n.js';
import { ApiError, request } from './api.js';
import { problemText, fieldErrorText } from './errors.js';

// h builds an element: h('button', {class: 'x', onclick: fn}, 'Text', child).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

// append adds children (nodes or text; null and false are left out).
export function append(el, ...children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// clear empties an element and puts children in.
export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let toastTimer;
// toast says something in the status line (read out by screen readers).
export function toast(msg, kind = 'ok') {
  const el = document.getElementById('toast');
  el.textContent = msg;
  el.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = 'toast'; }, kind === 'error' ? 8000 : 3500);
}

let fieldSeq = 0;
// field is a labelled input with a slot for its error. opts: name, label,
// type (text, email, password, number, date, time, select, textarea,
// checkbox), value, options [[value, label]], required, hint, attrs.
export function field(opts) {
  const id = `f${++fieldSeq}`;
  const errId = `${id}-err`;
  const common = { id, name: opts.name, required: opts.required, 'aria-describedby': errId, ...(opts.attrs || {}) };
  let input;
  if (opts.type === 'select') {
    // Attributes, not properties, so form.reset() returns to these.
    input = h('select', common, (opts.options || []).map(([v, l]) => h('option', { value: v, selected: String(v) === String(opts.value ?? '') ? 'selected' : null }, l)));
  } else if (opts.type === 'textarea') {
    input = h('textarea', { ...common, rows: 3 }, opts.value ?? '');
  } else if (opts.type === 'checkbox') {
    input = h('input', { ...common, type: 'checkbox', checked: opts.value ? 'checked' : null });
  } else {
    input = h('input', { ...common, type: opts.type || 'text', value: opts.value ?? '' });
  }
  // An error goes away as soon as its field is edited.
  input.addEventListener('input', () => {
    const err = wrap.querySelector('.error');
    if (err) err.textContent = '';
    input.removeAttribute('aria-invalid');
  });
  const label = h('label', { for: id }, opts.label, opts.required ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : null);
  const wrap = h('div', { class: `field${opts.type === 'checkbox' ? ' check' : ''}`, dataset: { field: opts.name } },
    opts.type === 'checkbox' ? [input, label] : [label, input],
    opts.hint ? h('small', { class: 'hint' }, opts.hint) : null,
    h('p', { class: 'error', id: errId, 'aria-live': 'polite' }));
  return wrap;
}

// values reads a form's named controls: checkboxes as booleans, empty
// strings as null where nullable lists the name.
export function values(form, nullable = []) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    if (el.type === 'checkbox') out[el.name] = el.checked;
    else out[el.name] = el.value === '' && nullable.includes(el.name) ? null : el.value;
  }
  return out;
}

// clearErrors removes every error a form shows.
export function clearErrors(root) {
  for (const p of root.querySelectorAll('.error')) p.textContent = '';
  for (const el of root.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  const top = root.querySelector('.form-error');
  if (top) top.textContent = '';
}

// showError puts an API error where it belongs: each field error next to
// its field (the problem's errors list, translated by code), anything
// else in the form's message line, or a toast when there is no form. It
// returns the message. No API text, field name or id is shown.
export function showError(root, err) {
  if (root) clearErrors(root);
  const msg = errorText(err);
  let placed = 0;
  const unplaced = [];
  if (err instanceof ApiError) {
    const labelOf = (name) => (root ? labelText(findField(root, name)) : null);
    for (const fe of err.errors) {
      const box = root && findField(root, fe.field);
      const input = box && box.querySelector('input, select, textarea');
      // "1 to 200 characters" for an empty field is said as "fill this in".
      const empty = fe.code === 'length' && input && input.value.trim() === '';
      const text = fieldErrorText(empty ? { ...fe, code: 'required' } : fe, labelOf);
      if (!box) { unplaced.push(text); continue; }
      box.querySelector('.error').textContent = text;
      if (input) input.setAttribute('aria-invalid', 'true');
      if (placed++ === 0 && input) input.focus();
    }
  }
  const text = unplaced.length ? `${msg} ${[...new Set(unplaced)].join(' ')}` : msg;
  const top = root && root.querySelector('.form-error');
  if (top) top.textContent = placed && !unplaced.length ? t('error.fields') : text;
  else if (!placed || unplaced.length) toast(text, 'error');
  return text;
}

// findField matches an API field name ("amounts[0].vat_rate" or "value")
// to the form's field box, trying the full name, then without a last
// index, then the last part.
function findField(root, name) {
  const esc = (s) => s.replace(/["\\]/g, '\\$&');
  return root.querySelector(`[data-field="${esc(name)}"]`) ||
    root.querySelector(`[data-field="${esc(name.replace(/\[\d+\]$/, ''))}"]`) || // schedule[0].days[1]: the row's days
    root.querySelector(`[data-field="${esc(name.replace(/^.*[.\]]/, ''))}"]`);
}

// labelText is a field box's visible label, without the required mark.
function labelText(box) {
  const label = box && box.querySelector('label');
  if (!label) return null;
  const copy = label.cloneNode(true);
  for (const el of copy.querySelectorAll('.req')) el.remove();
  return copy.textContent.trim() || null;
}

// fieldError is the sentence for one field error of a problem, for a page
// that places it itself; root is the form whose labels name other fields.
export function fieldError(fe, root) {
  return fieldErrorText(fe, (name) => (root ? labelText(findField(root, name)) : null));
}

// errorText is a sentence for any error, in the page's language: a
// problem by its code (never the API's English detail).
export function errorText(err) {
  if (!(err instanceof ApiError)) return String(err && err.message || err);
  if (err.errors.length) return t('error.fields');
  return problemText(err);
}

// errorLine is an error said in place of what could not be loaded.
export function errorLine(err) {
  return h('p', { class: 'form-error', role: 'alert' }, errorText(err));
}

// download fetches a file with the token in a header (a plain link would
// have none), saves it through a temporary <a download> and says so.
export async function download(path) {
  const { blob, filename } = await request('GET', path, undefined, { raw: true });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later, not at once: the download reads the blob after the click.
  setTimeout(() => URL.revokeObjectURL(url), 30000);
  toast(t('common.downloaded', { file: filename }));
}

// withBusy disables a button while fn runs and marks it busy.
export async function withBusy(button, fn) {
  if (button) { button.disabled = true; button.setAttribute('aria-busy', 'true'); }
  try {
    return await fn();
  } finally {
    if (button) { button.disabled = false; button.removeAttribute('aria-busy'); }
  }
}

// confirmDialog asks before something that cannot be undone; resolves
// to true on confirm.
export function confirmDialog(message, okLabel = t('common.confirm')) {
  return new Promise((resolve) => {
    const ok = h('button', { class: 'danger', value: 'ok' }, okLabel);
    const dlg = h('dialog', { class: 'confirm', 'aria-label': message },
      h('form', { method: 'dialog' }, h('p', {}, message),
        h('div', { class: 'buttons' }, h('button', { value: 'cancel', class: 'secondary' }, t('common.cancel')), ok)));
    dlg.addEventListener('close', () => { resolve(dlg.returnValue === 'ok'); dlg.remove(); });
    document.body.append(dlg);
    dlg.showModal();
    ok.focus();
  });
}

// Drafts: a form's input is kept in sessionStorage while it is typed,
// so a session that expires in the middle loses nothing. A page drops its
// draft after a successful save or when the user closes the form, never
// in its cleanup: after a 401 the cleanup runs too, and the draft is what
// the page restores after the login.
const draftKey = (key) => `posbox.draft.${key}`;

export function bindDraft(form, key) {
  const saved = readDraft(key);
  if (saved) {
    for (const el of form.elements) {
      if (!el.name || !(el.name in saved)) continue;
      if (el.type === 'checkbox') el.checked = !!saved[el.name];
      else el.value = saved[el.name];
    }
  }
  const save = () => sessionStorage.setItem(draftKey(key), JSON.stringify(values(form)));
  form.addEventListener('input', save);
  form.addEventListener('change', save);
}

export function readDraft(key) {
  try { return JSON.parse(sessionStorage.getItem(draftKey(key)) || 'null'); } catch { return null; }
}

export function dropDraft(key) { sessionStorage.removeItem(draftKey(key)); }

// table renders rows with columns [{label, cell(row) → node|text, class}].
export function table(columns, rows, { caption, empty = t('common.none'), rowAttrs } = {}) {
  if (!rows.length) return h('p', { class: 'empty' }, empty);
  return h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption || '' },
    h('table', {}, caption ? h('caption', { class: 'sr-only' }, caption) : null,
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.class }, c.label)))),
      h('tbody', {}, rows.map((r) => h('tr', rowAttrs ? rowAttrs(r) : {}, columns.map((c) => h('td', { class: c.class, 'data-label': c.label },
        // One element per cell, so a phone's two-column cell keeps it whole.
        h('div', { class: 'cell' }, c.cell(r)))))))));
}

// badge is a short coloured state word.
export function badge(text, kind = 'neutral') { return h('span', { class: `badge ${kind}` }, text); }

// section is a titled card.
export function section(title, ...children) {
  return h('section', { class: 'card' }, h('h2', {}, title), ...children);
}

// openPrintPage opens a printable page of the API (the registration, the
// procedure document) in a new window. The window is opened in the click
// (so no popup blocker objects) and is sent to the page once it is
// fetched with the token, as a blob: URL of this origin (it keeps the
// console's CSP; the page needs no script, and its one style sheet is the
// console's print.css, named with this origin since a blob: page resolves
// no path of its own). A blocked window leaves a link in fallback.
// track is told the window while it waits, and null after, so a page
// that goes away can close it.
export async function openPrintPage(path, { button, fallback, blockedText, track = () => {} }) {
  fallback.hidden = true;
  const win = window.open('', '_blank');
  track(win);
  await withBusy(button, async () => {
    try {
      const { blob } = await request('GET', path, undefined, { raw: true });
      const html = (await blob.text()).replace('href="/assets/', `href="${location.origin}/assets/`);
      const url = URL.createObjectURL(new Blob([html], { type: 'text/html;charset=utf-8' }));
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      if (win) {
        win.opener = null;
        win.location.href = url;
      } else {
        clear(fallback, h('a', { href: url, target: '_blank', rel: 'noopener' }, blockedText));
        fallback.hidden = false;
      }
    } catch (err) {
      if (win) win.close();
      toast(errorText(err), 'error');
    } finally {
      track(null);
    }
  });
}
