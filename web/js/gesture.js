// Gesture classification and the mapping from taps to actions. Pure.
export const DRAG_PX = { mouse: 4, pen: 6, touch: 8 };
export const DOUBLE_MS = 300;

/** isDrag reports whether a pointer moved far enough to start a drag. */
export function isDrag(dx, dy, pointerType = 'mouse') {
  return Math.hypot(dx, dy) >= (DRAG_PX[pointerType] ?? 6);
}

/** TapTracker tells a double tap (same target, close in time and place) from a single one. */
export class TapTracker {
  constructor(windowMs = DOUBLE_MS, radius = 28) { this.windowMs = windowMs; this.radius = radius; this.last = null; }
  press(key, x, y, t) {
    const l = this.last;
    if (l && l.key === key && t - l.t <= this.windowMs && Math.hypot(x - l.x, y - l.y) <= this.radius) {
      this.last = null;
      return 'double';
    }
    this.last = { key, x, y, t };
    return 'single';
  }
  reset() { this.last = null; }
}

/** dropTarget names the pile a drag from `from` lands on, or null to snap back. */
export function dropTarget(from, over) {
  if (!over || over === from) return null;
  if (over === 'f' || /^f[1-8]$/.test(over)) return /^f/.test(from) ? null : 'f';
  if (/^c\d+$/.test(over)) return over;
  return null;
}

/** pileCards returns the number of cards on a pile of a solo view. */
export function pileSize(v, pile) {
  if (pile === 's') return v.stock;
  if (pile === 'w') return v.waste.length;
  if (pile[0] === 'f') return v.foundations[+pile.slice(1) - 1].length;
  const c = v.columns[+pile.slice(1) - 1];
  return c.down + c.up.length;
}

/**
 * tapAction maps a tap ("single" or "double") on a pile — index counts the
 * face-up cards of a column from the bottom — to an action, or null.
 */
export function tapAction(v, pile, index, kind) {
  if (pile === 's') {
    if (v.stock > 0) return { type: 'draw' };
    if (v.scoring !== 'vegas' && v.waste.length > 0) return { type: 'recycle' };
    return null;
  }
  if (pile === 'w') {
    if (!v.waste.length) return null;
    return kind === 'double' ? { type: 'dtap', from: 'w', count: 1 } : { type: 'tap', from: 'w' };
  }
  if (pile[0] === 'c') {
    const up = v.columns[+pile.slice(1) - 1]?.up || [];
    if (index == null) index = up.length - 1;
    if (index < 0 || index >= up.length) return null;
    const count = up.length - index;
    if (kind === 'double') return { type: 'dtap', from: pile, count };
    return count === 1 ? { type: 'tap', from: pile } : null;
  }
  return null;
}

/** moveAction builds the move for a drag of count cards from one pile to another. */
export function moveAction(from, count, to) {
  const a = { type: 'move', from, to };
  if (count > 1) a.count = count;
  return a;
}
