// The floating copy of dragged cards, shared by every mode: lift it, find
// the pile it is dropped on, snap it back or let it go (input.js drives it).
import { reducedMotion } from './settings.js';

/** lift makes the floating copy of the card elements els, which stay in place, hidden. */
export function lift(els) {
  const layer = document.createElement('div');
  layer.className = 'drag';
  const clones = els.map((el) => {
    const r = el.getBoundingClientRect();
    const c = el.cloneNode(true);
    c.classList.remove('last', 'sel');
    c.removeAttribute('data-card');
    c.style.left = r.left + 'px';
    c.style.top = r.top + 'px';
    layer.append(c);
    el.classList.add('lifted');
    return c;
  });
  document.body.append(layer);
  return { layer, els, clones, dx: 0, dy: 0 };
}

/**
 * pickCards is the pick of a press on a face-up card of pile: in a column the
 * card and those on it, elsewhere the top card alone (else null).
 */
export function pickCards(pile, card) {
  const pileEl = card.closest('[data-pile]');
  if (pile[0] === 'c') {
    const i = +card.dataset.i;
    return { pile, index: i, els: [...pileEl.querySelectorAll('.card.up')].filter((e) => +e.dataset.i >= i) };
  }
  if (!card.classList.contains('top')) return null;
  return { pile, index: +card.dataset.i, els: [card] };
}

/** drop removes the floating copy and shows the cards again. */
function drop(d) { d.layer.remove(); d.els.forEach((el) => el.classList.remove('lifted')); }

/** snapBack returns the floating copy to where the cards were. */
export function snapBack(d, animate = true) {
  const done = () => drop(d);
  if (!animate || reducedMotion() || !d.layer.animate) return done();
  d.layer.animate([{ transform: `translate(${d.dx}px,${d.dy}px)` }, { transform: 'translate(0,0)' }], { duration: 160, easing: 'ease-out' }).onfinish = done;
  d.layer.style.transform = 'translate(0,0)';
}

/**
 * settle removes the floating copy of a drop the mode kept: back to its place
 * (while the cards it copies are still shown), or simply away.
 */
export function settle(d, back) {
  if (back && d.els.every((el) => el.isConnected)) snapBack(d);
  else drop(d);
}

/** hitTest names the pile of root under (x, y), or the one the lead card of d overlaps most. */
export function hitTest(root, x, y, d) {
  const el = document.elementFromPoint(x, y)?.closest('[data-pile]');
  if (el && root.contains(el)) {
    const f = el.closest('.found');
    return f ? 'f' : el.dataset.pile;
  }
  // fall back on the pile the lead card overlaps most
  const a = d.clones[0].getBoundingClientRect();
  let best = null, area = 0;
  for (const p of root.querySelectorAll('.pile.col, .found')) {
    const b = p.getBoundingClientRect();
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 0 && h > 0 && w * h > area) { area = w * h; best = p.dataset.pile; }
  }
  return best;
}
