// Game codes checked in the browser with the server's rules (cards.ParseCode),
// so that a mistyped code is named part by part in the player's language:
// checkCode returns { code, kind } (the canonical code, "solo" or "race") or
// { field } naming the wrong part: parts, prefix, draw, options, scoring,
// redeal, decks, secret or deal.

const PREFIX = { DS1: ['solo', false], DR1: ['race', false], DS2: ['solo', true], DR2: ['race', true] };

export function checkCode(raw) {
  // trim ASCII white space, upper-case ASCII letters only (as the server)
  const s = String(raw ?? '').replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '').replace(/[a-z]/g, (c) => c.toUpperCase());
  const parts = s.split('-');
  if (parts.length !== 3) return { field: 'parts' };
  const p = PREFIX[parts[0]];
  if (!p) return { field: 'prefix' };
  const [kind, secret] = p;
  const o = parts[1];
  if (o.length < 2 || o[0] !== 'D' || (o[1] !== '1' && o[1] !== '3')) return { field: 'draw' };
  if (o.length !== (kind === 'race' ? 4 : 3)) return { field: 'options' };
  if (kind === 'solo') {
    if (o[2] !== 'N' && o[2] !== 'V') return { field: 'scoring' };
  } else {
    if (o[2] !== 'U' && o[2] !== 'S') return { field: 'redeal' };
    if (o[3] !== 'I' && o[3] !== 'M') return { field: 'decks' };
  }
  const d = parts[2];
  if (secret ? !/^[0-9A-F]{64}$/.test(d) : !/^[A-Z]{7}$/.test(d)) return { field: secret ? 'secret' : 'deal' };
  return { code: s, kind };
}
