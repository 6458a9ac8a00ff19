// REST calls to the server. The session cookie travels by itself.
export class ApiError extends Error {
  /** game: the game the refusal is about (a race in play that keeps the player from another). */
  constructor(status, code, message, game) { super(message || code); this.status = status; this.code = code; this.game = game; }
}

/** api sends a JSON request and returns the decoded answer or throws ApiError. */
export async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, 'network', String(e && e.message));
  }
  let data = null;
  try { data = await res.json(); } catch { /* empty body */ }
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || (res.status === 401 ? 'unauthorized' : 'generic'), err.message || res.statusText, err.game);
  }
  return data;
}

/** SIGNED_OUT is the close code of a socket whose session was revoked (signed out here or elsewhere). */
export const SIGNED_OUT = 4401;

const SIGNED_OUT_KEY = 'dsol.signedOut';

/**
 * signedOut answers a socket closed with SIGNED_OUT: this device's session
 * is gone, so the page starts again as a new player and says why
 * (signedOutNotice), rather than reconnect for ever.
 */
export function signedOut() {
  try { sessionStorage.setItem(SIGNED_OUT_KEY, '1'); } catch { /* private mode: the reload says nothing */ }
  location.assign('/');
}

/** signedOutNotice tells, once, whether the page was started again by signedOut. */
export function signedOutNotice() {
  try {
    if (!sessionStorage.getItem(SIGNED_OUT_KEY)) return false;
    sessionStorage.removeItem(SIGNED_OUT_KEY);
    return true;
  } catch { return false; }
}

/** ensurePlayer makes sure this browser has a player session. */
export async function ensurePlayer() {
  try {
    return await api('GET', '/api/v1/me');
  } catch (e) {
    if (e.status === 401 || e.status === 404) return api('POST', '/api/v1/players', {});
    throw e;
  }
}

/** uuid returns a random v4 UUID, also on plain-HTTP pages. */
export function uuid() {
  if (globalThis.crypto?.randomUUID) {
    try { return crypto.randomUUID(); } catch { /* insecure context */ }
  }
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
