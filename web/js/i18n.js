// Catalogue loading, lookup and the formats that depend on the language.
export const LANGS = ['en', 'es', 'pl', 'it'];

let cat = {};
let current = 'en';

/** pickLang returns the first supported language among the browser's choices. */
export function pickLang(prefs = []) {
  for (const p of prefs) {
    const base = String(p).toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

/** loadLang imports a catalogue module and makes it current. */
export async function loadLang(lang) {
  if (!LANGS.includes(lang)) lang = 'en';
  cat = (await import(`./i18n/${lang}.js`)).default;
  current = lang;
  return cat;
}

/** useCatalogue sets the catalogue directly (tests, preloaded pages). */
export function useCatalogue(lang, c) { current = lang; cat = c; }

export function lang() { return current; }

/** fill replaces {name} placeholders with values. */
export function fill(s, vars = {}) {
  return String(s).replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/**
 * t looks up a dotted key ("hud.score") and fills its placeholders. A value
 * with plural forms ({one, few, many, other}) is chosen by the language's
 * plural rule for vars.n.
 */
export function t(key, vars) {
  let v = cat;
  for (const part of key.split('.')) v = v == null ? undefined : v[part];
  if (v === undefined) return key;
  if (v && typeof v === 'object' && typeof v.other === 'string' && typeof vars?.n === 'number') {
    v = v[new Intl.PluralRules(current).select(vars.n)] ?? v.other;
  }
  return typeof v === 'string' ? fill(v, vars) : v;
}

/** formatMoney writes a Vegas score with the language's pattern: $416, -$104, 416 $. */
export function formatMoney(n, pattern = cat.money || '{sign}${n}') {
  n = Math.round(Number(n) || 0);
  return fill(pattern, { sign: n < 0 ? '-' : '', n: Math.abs(n) });
}

/** formatScore writes a score for the game's scoring. */
export function formatScore(score, scoring, pattern) {
  return scoring === 'vegas' ? formatMoney(score, pattern) : String(Math.round(Number(score) || 0));
}

/** ratingText writes a race rating, with a question mark while it is provisional. */
export function ratingText(n, provisional) {
  return new Intl.NumberFormat(current).format(n) + (provisional ? '?' : '');
}

/** formatTime writes seconds as m:ss or h:mm:ss. */
export function formatTime(sec) {
  sec = Math.max(0, Math.floor(sec || 0));
  const h = Math.floor(sec / 3600), m = Math.floor(sec / 60) % 60, s = sec % 60;
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** countdown writes the seconds left as m:ss, rounded up (the minutes not wrapped into hours). */
export function countdown(sec) {
  sec = Math.max(0, Math.ceil(sec || 0));
  return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}`;
}

/** cardName is the spoken name of a card, "seven of hearts". */
export function cardName(card, c = cat) {
  return fill(c.card, { rank: c.ranks[card[0]], suit: c.suits[card[1]] });
}
