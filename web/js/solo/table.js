// Drawing a solo view onto the table. The table's skeleton is in index.html;
// this fills each pile ([data-pile]) with cards positioned from the layout.
import { cardEl, slotEl, fillColumn, fillStock, fillWaste, SUITS } from '../cards.js';
import { computeLayout, columnCounts, badgePx } from '../layout.js';
import { t } from '../i18n.js';

/** layoutTable sizes the cards to the table area and to view v's columns, and returns the layout. */
export function layoutTable(root, v) {
  const ncols = v.columns.length;
  const colsEl = root.querySelector('.cols');
  if (colsEl.children.length !== ncols) {
    colsEl.replaceChildren();
    for (let i = 1; i <= ncols; i++) {
      const c = document.createElement('div');
      c.className = 'pile col';
      c.dataset.pile = 'c' + i;
      c.setAttribute('role', 'group');
      c.tabIndex = -1;
      colsEl.append(c);
    }
  }
  const L = computeLayout({ width: root.clientWidth, height: root.clientHeight, cols: ncols, columns: columnCounts(v.columns) });
  const s = document.documentElement.style;
  s.setProperty('--cw', L.cw + 'px');
  s.setProperty('--ch', L.ch + 'px');
  s.setProperty('--gap', L.gap + 'px');
  s.setProperty('--pad', L.pad + 'px');
  s.setProperty('--rank', L.rank + 'px');
  root.classList.toggle('portrait', L.portrait);
  return L;
}

const pileEl = (root, id) => root.querySelector(`[data-pile="${id}"]`);
const px = (n) => n + 'px';

/**
 * renderTable draws view v with layout L; only (a Set of pile ids), if
 * given, limits it to those piles: a move shown at once redraws no more than
 * the piles it changes.
 */
export function renderTable(root, v, L, only = null) {
  const on = (id) => !only || only.has(id);
  if (on('s')) fillStock(pileEl(root, 's'), v.stock, v.scoring !== 'vegas' && v.waste.length > 0, true);
  if (on('w')) fillWaste(pileEl(root, 'w'), v.waste, v.draw, L, !L.portrait);
  foundations(root, v, on);
  columns(root, v, L, on);
}

/** foundations draws the slots (those on() names), in suit rows of two. */
function foundations(root, v, on) {
  root.querySelector('.found').setAttribute('role', 'group');
  root.querySelector('.found').setAttribute('aria-label', t('pile.found'));
  v.foundations.forEach((f, i) => {
    if (!on('f' + (i + 1))) return;
    const p = pileEl(root, 'f' + (i + 1));
    const suit = SUITS[i >> 1];
    p.replaceChildren();
    p.dataset.count = f.length;
    p.setAttribute('role', 'group');
    p.setAttribute('aria-label', `${t('pile.slot', { suit: t('suits.' + suit), n: (i & 1) + 1 })}, ${f.length ? t('pile.cards', { n: f.length }) : t('pile.empty')}`);
    if (!f.length) return p.append(slotEl(suit));
    if (f.length > 1) p.append(cardEl(f[f.length - 2]));
    const top = cardEl(f[f.length - 1]);
    top.classList.add('top');
    top.dataset.i = f.length - 1;
    top.tabIndex = -1;
    p.append(top);
  });
}

/**
 * columns draws the columns that on() names. A column whose cards do not
 * fit the row of columns (a long game on a phone on its side: every index
 * stays readable) grows taller than it, and the row scrolls.
 */
function columns(root, v, L, on) {
  const badge = badgePx(L.cw);
  // every column is as tall as the row of columns, whatever it holds: one
  // measure, taken before the cards change, spares a layout per column
  const row = root.querySelector('.cols');
  const colH = row.clientHeight || L.ch * 4;
  v.columns.forEach((c, i) => {
    if (!on('c' + (i + 1))) return;
    const p = pileEl(root, 'c' + (i + 1));
    const h = fillColumn(p, c, i + 1, L, badge, () => colH);
    p.style.height = h > colH ? px(h) : '';
  });
  row.classList.toggle('scroll', [...row.children].some((p) => p.style.height));
}

/** topCards returns the last n face-up card elements of a pile. */
export function topCards(root, pile, n) {
  const all = [...root.querySelectorAll(`[data-pile="${pile}"] .card.up`)];
  return n > 0 ? all.slice(-n) : [];
}
