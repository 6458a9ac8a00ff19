// A race's deal commitment: the server shows SHA-256(code + ":" + salt) from
// the start and reveals the code and salt once the race is over, so anyone
// can check that the deal was fixed before the first move. Pure; the digest
// comes from Web Crypto (crypto.subtle, in secure contexts and in Node).

const HEX = /^[0-9a-f]{64}$/;

/** hex writes bytes (ArrayBuffer or typed array) as lowercase hex. */
export function hex(buf) {
  const b = ArrayBuffer.isView(buf) ? new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) : new Uint8Array(buf);
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

/** shortHex is the first n hex digits of a fingerprint, for a glance. */
export const shortHex = (h, n = 12) => String(h || '').slice(0, n);

/** normHex lowercases a fingerprint, or returns '' if it is not 64 hex digits. */
export function normHex(h) {
  const s = String(h || '').trim().toLowerCase();
  return HEX.test(s) ? s : '';
}

/** subtleCrypto returns Web Crypto's digest interface, or null (insecure page). */
export function subtleCrypto(g = globalThis) {
  const s = g.crypto?.subtle;
  return s && typeof s.digest === 'function' ? s : null;
}

/** commitmentOf computes SHA-256(code + ":" + salt) as lowercase hex; null without Web Crypto. */
export async function commitmentOf(code, salt, subtle = subtleCrypto()) {
  if (!subtle) return null;
  const data = new TextEncoder().encode(`${code}:${salt}`);
  return hex(await subtle.digest('SHA-256', data));
}

/**
 * checkDeal checks a finished race: {code, salt, commitment (the final view's),
 * seen (the commitment this browser kept from before the end, or '')}.
 * Returns {state, computed, final, seen, matchesFinal, matchesSeen}, where state is
 *   'ok'       the digest equals the final commitment and the one seen during play (if any),
 *   'bad'      it differs from either of them (or the two commitments differ),
 *   'insecure' no Web Crypto here: the values are there to check by hand,
 *   'missing'  the view carries no code and salt yet.
 */
export async function checkDeal({ code, salt, commitment, seen }, subtle = subtleCrypto()) {
  const final = normHex(commitment);
  const early = normHex(seen);
  const out = { state: 'missing', computed: null, final, seen: early, matchesFinal: null, matchesSeen: null };
  if (!code || !salt) return out;
  if (!subtle) return { ...out, state: 'insecure' };
  const computed = await commitmentOf(code, salt, subtle);
  const matchesFinal = !!final && computed === final;
  const matchesSeen = early ? computed === early : null;
  return { ...out, computed, matchesFinal, matchesSeen, state: matchesFinal && matchesSeen !== false ? 'ok' : 'bad' };
}

/** notices lists what a joiner should know about a race: 'chosen' and/or 'mirrored'. */
export function notices(r) {
  const out = [];
  if (r?.chosenDeal) out.push('chosen');
  if (r?.decks === 'mirrored') out.push('mirrored');
  return out;
}

/** codeURL is where the API describes a code. */
export const codeURL = (code) => `/api/v1/codes/${encodeURIComponent(code)}`;
