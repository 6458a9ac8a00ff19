// The rules of a solo table as far as the client can apply them: where a
// run may go, and the view after one of my actions. Pure. The server has the
// last word; these only let the screen answer before it does.
import { SUITS, rankOf, fitsOn } from './cards.js';

const colIndex = (p) => (/^c\d+$/.test(p || '') ? +p.slice(1) - 1 : -1);
const slotIndex = (p) => (/^f[1-8]$/.test(p || '') ? +p.slice(1) - 1 : -1);

/** run returns the count cards that leave pile from of view v, or null. */
export function run(v, from, count = 1) {
  if (from === 'w') return count === 1 && v.waste.length ? [v.waste[v.waste.length - 1]] : null;
  const f = slotIndex(from);
  if (f >= 0) return count === 1 && v.foundations[f]?.length ? [v.foundations[f][v.foundations[f].length - 1]] : null;
  const c = v.columns[colIndex(from)];
  if (!c || count < 1 || count > c.up.length) return null;
  return c.up.slice(c.up.length - count);
}

/** slotFor returns the foundation slot (0–7) that takes card, the first of its suit row, or -1. */
export function slotFor(v, card, only = null) {
  const row = SUITS.indexOf(card[1]);
  for (const i of [2 * row, 2 * row + 1]) {
    if (only != null && i !== only) continue;
    if (v.foundations[i]?.length === rankOf(card) - 1) return i;
  }
  return -1;
}

/** takes reports whether column i of v (a view or a race board: it reads v.columns) takes a run starting with card. */
export function takes(v, i, card) {
  const c = v.columns[i];
  if (!c) return false;
  const top = c.up[c.up.length - 1];
  if (top) return fitsOn(card, top);
  return c.down === 0 && card[0] === 'K';
}

/**
 * dtapColumn picks a double tap's column (docs/rules.md §2.5) in v, a solo
 * view or one seat's board of a race: the fullest other one that takes the
 * run starting with card, else the first empty one for a king; -1 if none.
 */
export function dtapColumn(v, from, card) {
  let best = -1, most = -1, empty = -1;
  v.columns.forEach((c, i) => {
    if ('c' + (i + 1) === from) return;
    const n = c.down + c.up.length;
    if (!n) { if (empty < 0) empty = i; return; }
    if (takes(v, i, card) && n > most) { most = n; best = i; }
  });
  if (best >= 0) return best;
  return card[0] === 'K' ? empty : -1;
}

/** resolve returns where action a sends its cards: {from, to, count} with to a column or a slot, or null. */
export function resolve(v, a) {
  if (!v || v.status !== 'playing' || !a) return null;
  const from = a.from, count = a.type === 'tap' ? 1 : a.count || 1;
  if (a.type === 'tap' || a.type === 'dtap') {
    if (from !== 'w' && colIndex(from) < 0) return null;
  } else if (a.type !== 'move') return null;
  const cards = run(v, from, count);
  if (!cards) return null;
  let to = a.to;
  if (a.type === 'tap') to = 'f';
  else if (a.type === 'dtap') {
    const i = dtapColumn(v, from, cards[0]);
    if (i < 0) return null;
    to = 'c' + (i + 1);
  }
  if (to === 'f' || slotIndex(to) >= 0) {
    if (count !== 1 || slotIndex(from) >= 0) return null;
    const i = slotFor(v, cards[0], to === 'f' ? null : slotIndex(to));
    return i < 0 ? null : { from, to: 'f' + (i + 1), count };
  }
  const i = colIndex(to);
  if (i < 0 || to === from || !takes(v, i, cards[0])) return null;
  return { from, to, count };
}

/**
 * apply returns the view after action a as far as the client can know it, or
 * null when it cannot tell (a draw shows unknown cards, an undo) or the action
 * looks illegal. A face-down card a move exposes stays down until the server
 * answers; score and moves stay as they were.
 */
export function apply(v, a) {
  const m = resolve(v, a);
  if (!m) return null;
  const n = { ...v, waste: v.waste.slice(), foundations: v.foundations.map((f) => f.slice()), columns: v.columns.map((c) => ({ down: c.down, up: c.up.slice() })) };
  const moved = run(n, m.from, m.count);
  if (m.from === 'w') n.waste.pop();
  else if (m.from[0] === 'f') n.foundations[slotIndex(m.from)].pop();
  else n.columns[colIndex(m.from)].up.splice(-m.count, m.count);
  if (m.to[0] === 'f') n.foundations[slotIndex(m.to)].push(moved[0]);
  else n.columns[colIndex(m.to)].up.push(...moved);
  return n;
}

/** targets lists the piles (c…, and f… slots) that take count cards from pile from of v. */
export function targets(v, from, count) {
  const out = [];
  if (!v) return out;
  v.foundations.forEach((_, i) => { if (resolve(v, { type: 'move', from, to: 'f' + (i + 1), count })) out.push('f' + (i + 1)); });
  v.columns.forEach((_, i) => { if (resolve(v, { type: 'move', from, to: 'c' + (i + 1), count })) out.push('c' + (i + 1)); });
  return out;
}
