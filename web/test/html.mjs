// HTML and selectors for the stand-in browser (dom.mjs): a parser for the
// client's markup and the selectors the client uses.

const SVG = 'http://www.w3.org/2000/svg';
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

const ENT = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const decode = (s) => s.replace(/&(#\d+|\w+);/g, (m, e) => (e[0] === '#' ? String.fromCharCode(+e.slice(1)) : ENT[e] ?? m));

/**
 * parse turns an HTML fragment into nodes made by make(tag, namespace), which
 * need append(), attrs (a Map), tagName, namespaceURI and childNodes; svg and its children keep their case and
 * namespace.
 */
export function parse(html, make) {
  const root = make('div');
  const stack = [root];
  const re = /<!--[\s\S]*?-->|<!doctype[^>]*>|<\/([\w-]+)\s*>|<([\w-]+)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|([^<]+)/gi;
  for (const m of html.matchAll(re)) {
    const top = stack[stack.length - 1];
    if (m[5] != null) top.append(decode(m[5]));
    else if (m[1]) {
      const i = stack.findLastIndex((e) => e.tagName.toLowerCase() === m[1].toLowerCase());
      if (i > 0) stack.length = i;
    } else if (m[2]) {
      const svg = m[2] === 'svg' || top.namespaceURI === SVG;
      const el = make(m[2], svg ? SVG : undefined);
      for (const a of (m[3] || '').matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
        el.attrs.set(a[1], decode(a[2] ?? a[3] ?? a[4] ?? ''));
      }
      top.append(el);
      if (!m[4] && !VOID.has(m[2].toLowerCase())) stack.push(el);
    }
  }
  return [...root.childNodes];
}

// selectors: tags, #id, .class, [attr], [attr=v], [attr^=v], descendant and child

const cache = new Map();

/** compile makes a test of elements against the selector list sel. */
export function compile(sel) {
  if (cache.has(sel)) return cache.get(sel);
  const groups = [];
  let parts = [], cur = null, comb = ' ', i = 0;
  const flush = () => { if (cur) { parts.push({ comb, tests: cur }); cur = null; comb = ' '; } };
  const test = (f) => { (cur ??= []).push(f); };
  while (i < sel.length) {
    const c = sel[i];
    if (c === ',') { flush(); groups.push(parts); parts = []; i++; continue; }
    if (/\s/.test(c)) { flush(); i++; continue; }
    if (c === '>') { flush(); comb = '>'; i++; continue; }
    const ident = () => { const m = /^[\w-]+/.exec(sel.slice(i)); if (!m) throw new Error(`selector ${sel}`); i += m[0].length; return m[0]; };
    if (c === '#') {
      i++;
      const v = ident();
      test((e) => e.id === v);
    } else if (c === '.') {
      i++;
      const v = ident();
      test((e) => e.classList.contains(v));
    } else if (c === '[') {
      const end = sel.indexOf(']', i);
      const m = /^\[\s*([\w-]+)\s*(?:(\^?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]*)))?\s*\]$/.exec(sel.slice(i, end + 1));
      if (!m) throw new Error(`selector ${sel}`);
      const [, name, op, a, b, d] = m, val = a ?? b ?? d;
      test(!op ? (e) => e.hasAttribute(name) : op === '=' ? (e) => e.getAttribute(name) === val : (e) => (e.getAttribute(name) ?? '').startsWith(val));
      i = end + 1;
    } else if (c === '*') {
      i++;
      test(() => true);
    } else if (/\w/.test(c)) {
      const v = ident().toLowerCase();
      test((e) => e.tagName.toLowerCase() === v);
    } else throw new Error(`selector ${sel}: ${c} not handled`);
  }
  flush();
  groups.push(parts);
  const one = (tests, e) => tests.every((f) => f(e));
  const matchFrom = (parts, k, e) => {
    if (!one(parts[k].tests, e)) return false;
    if (k === 0) return true;
    if (parts[k].comb === '>') return e.parentElement ? matchFrom(parts, k - 1, e.parentElement) : false;
    for (let p = e.parentElement; p; p = p.parentElement) if (matchFrom(parts, k - 1, p)) return true;
    return false;
  };
  const f = (e) => groups.some((g) => matchFrom(g, g.length - 1, e));
  cache.set(sel, f);
  return f;
}
