// The console's only way to the appliance: the documented /api routes.
// The token lives in sessionStorage, so it ends with the tab.

const TOKEN = 'posbox.token';
let inFlight = 0;
let onExpired = () => {};
const busyListeners = new Set();

// ApiError is a problem+json answer (or a network failure: status 0).
// Its message is the API's English detail, for developers; the console
// shows errorText (ui.js), which translates the code.
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || '';
    this.detail = problem.detail || '';
    this.errors = problem.errors || [];
    this.conflict = problem.conflict || null; // the record a 409 collided with
    this.retryAfter = problem.retryAfter || 0;
  }
}

export function token() { return sessionStorage.getItem(TOKEN); }
export function setToken(t) { t ? sessionStorage.setItem(TOKEN, t) : sessionStorage.removeItem(TOKEN); }

// whenExpired sets what happens when a request answers 401 (or 403
// auditor_access_ended): the token ran out or was revoked. That is the one place an ended session is
// handled: the request that met it never settles (see request), so no
// page has to tell a 401 from its other errors.
export function whenExpired(fn) { onExpired = fn; }

// onBusy tells a listener how many requests are in flight.
export function onBusy(fn) { busyListeners.add(fn); }

function busy(delta) {
  inFlight += delta;
  for (const fn of busyListeners) fn(inFlight);
}

// request sends one API call; JSON in, JSON (or a Blob for files) out.
export async function request(method, path, body, { raw = false } = {}) {
  const headers = { Accept: raw ? '*/*' : 'application/json' };
  const t = token();
  if (t) headers.Authorization = `Bearer ${t}`;
  const init = { method, headers, credentials: 'omit', cache: 'no-store' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  busy(+1);
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, { code: 'network' });
  } finally {
    busy(-1);
  }
  if (res.status === 204) return null;
  if (!res.ok) {
    let problem = {};
    try { problem = await res.json(); } catch { /* not problem+json */ }
    problem.retryAfter = Number(res.headers.get('Retry-After')) || 0;
    const err = new ApiError(res.status, problem);
    // An auditor's access that ended (its last day passed) ends the
    // session the same way.
    const ended = res.status === 403 && problem.code === 'auditor_access_ended';
    if ((res.status === 401 || ended) && t && path !== '/api/auth/login') {
      // The session ended: whenExpired's handler puts the login in the
      // page's place, and the caller waits for good, so no page shows an
      // error for it or goes on as after a failure (its drafts stay).
      onExpired(err);
      return new Promise(() => {});
    }
    throw err;
  }
  if (raw) return { blob: await res.blob(), filename: filenameOf(res) };
  return res.json();
}

function filenameOf(res) {
  const m = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') || '');
  return m ? m[1] : 'download';
}

export const get = (path) => request('GET', path);
export const post = (path, body) => request('POST', path, body);
export const put = (path, body) => request('PUT', path, body);
export const patch = (path, body) => request('PATCH', path, body);
export const del = (path) => request('DELETE', path);

// query builds ?a=1&b=2 from an object, leaving out empty values.
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}
