// What changed between two views: the pile that grew and the one that shrank.
import { pileSize } from './gesture.js';

export function pileIds(v) {
  const ids = ['s', 'w'];
  for (let i = 1; i <= v.foundations.length; i++) ids.push('f' + i);
  for (let i = 1; i <= v.columns.length; i++) ids.push('c' + i);
  return ids;
}

/** changes returns {from, to, count} for the main movement from a to b, or null. */
export function changes(a, b) {
  if (!a || !b || a.id !== b.id) return null;
  let to = null, from = null, best = 0, worst = 0;
  for (const id of pileIds(b)) {
    const d = pileSize(b, id) - pileSize(a, id);
    if (d > best) { best = d; to = id; }
    if (d < worst) { worst = d; from = id; }
  }
  if (!to) return null;
  if (to === 's') return { from, to, count: 0 };
  return { from, to, count: best };
}
