// Card text, colours and the DOM for a card, the stock and the waste; el,
// the element maker. Shared by every mode.
import { cardName, t } from './i18n.js';
import { columnSteps, wasteFan } from './layout.js';

export const RANKS = 'A23456789TJQK';
export const SUITS = 'SHDC';
const LABEL = { T: '10' };

export const rankOf = (c) => RANKS.indexOf(c[0]) + 1;
export const suitOf = (c) => c[1];
export const isRed = (c) => c[1] === 'H' || c[1] === 'D';
export const rankLabel = (c) => LABEL[c[0]] || c[0];

/** valid reports whether s is a card text like "7H". */
export const valid = (s) => typeof s === 'string' && s.length === 2 && RANKS.includes(s[0]) && SUITS.includes(s[1]);

/** fitsOn reports whether card a may go on card b in a column. */
export const fitsOn = (a, b) => isRed(a) !== isRed(b) && rankOf(b) === rankOf(a) + 1;

/** el makes an element of tag, with class cls and text text where given (the cards, the daily screen, the fair-race notes). */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

const NS = 'http://www.w3.org/2000/svg';
function suitIcon(suit, cls) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('class', cls);
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('aria-hidden', 'true');
  const use = document.createElementNS(NS, 'use');
  use.setAttribute('href', '#s' + suit);
  svg.append(use);
  return svg;
}

/** cardEl builds a face-up card: large corner index, suit, a big pip. */
export function cardEl(card) {
  const c = el('div', `card up s${card[1]}${isRed(card) ? ' red' : ''}`);
  c.dataset.card = card;
  c.setAttribute('role', 'img');
  c.setAttribute('aria-label', cardName(card));
  c.append(el('b', null, rankLabel(card)), suitIcon(card[1], 'si'), suitIcon(card[1], 'sl'), suitIcon(card[1], 'pip'));
  return c;
}

/** backEl builds a face-down card, optionally showing a count. */
export function backEl(count) {
  const b = el('div', 'card back');
  if (count != null) {
    b.append(el('span', 'n', count));
    b.setAttribute('aria-label', t('pile.down', { n: count }));
  } else b.setAttribute('aria-hidden', 'true');
  return b;
}

/** slotEl is the outline of an empty place, with an optional suit watermark. */
export function slotEl(suit) {
  const s = el('div', 'card slot');
  if (suit) s.append(suitIcon(suit, 'pip'));
  return s;
}

/**
 * fillColumn draws column c (number n) into its pile element p: the backs,
 * the last one with the count and a step of at least badge after it, then
 * the face-up cards, stepped by columnSteps for the layout L to fit the
 * height colH() gives once p is emptied. It returns the height the cards
 * take, which is more than colH() where they do not fit.
 */
export function fillColumn(p, c, n, L, badge, colH) {
  p.replaceChildren();
  p.dataset.down = c.down;
  p.dataset.count = c.down + c.up.length;
  p.setAttribute('aria-label', `${t('pile.column', { n })}, ${c.down ? t('pile.down', { n: c.down }) + ', ' : ''}${t('pile.cards', { n: c.up.length })}`);
  const st = columnSteps(c.down, c.up.length, L, colH() - (c.down ? badge : 0));
  let y = 0;
  for (let d = 0; d < c.down; d++) {
    const b = backEl(d === c.down - 1 ? c.down : null);
    b.style.top = y + 'px';
    y += d < c.down - 1 ? st.down : Math.max(st.down, badge);
    p.append(b);
  }
  if (!c.down && !c.up.length) p.append(slotEl());
  c.up.forEach((card, j) => {
    const e = cardEl(card);
    e.dataset.i = j;
    e.tabIndex = -1;
    e.style.top = y + 'px';
    y += st.up;
    if (j === c.up.length - 1) e.classList.add('top');
    p.append(e);
  });
  return c.up.length ? y - st.up + L.ch : c.down ? y - Math.max(st.down, badge) + L.ch : L.ch;
}

/**
 * fillStock draws a stock of n cards into its pile element s: the back with
 * the count, or once it is empty the outline, with ↻ if recycle (the waste
 * can go back: only said on the player's own stock). mine: the player's own,
 * whose count (or ↻) is the stock-count of the browser tests.
 */
export function fillStock(s, n, recycle, mine) {
  s.replaceChildren();
  s.dataset.count = n;
  if (n > 0) {
    const b = backEl(n);
    if (mine) b.querySelector('.n').dataset.testid = 'stock-count';
    s.append(b);
    s.setAttribute('aria-label', t('pile.stock', { n }));
    return;
  }
  const e = slotEl();
  const r = el('span', 'rc', recycle ? '↻' : '');
  if (mine) r.dataset.testid = 'stock-count';
  e.append(r);
  s.append(e);
  s.setAttribute('aria-label', recycle ? t('pile.recycle') : t('pile.stockEmpty'));
}

/**
 * fillWaste draws waste (its cards, the top one last) into its pile element
 * w, fanned by wasteFan in draw 3: downwards if vertical, else to the right;
 * w is sized to the fan with S's card size and fanStep.
 */
export function fillWaste(w, waste, draw, S, vertical) {
  w.replaceChildren();
  w.dataset.count = waste.length;
  const fan = draw === 3 ? 2 * S.fanStep : 0;
  w.style.width = vertical ? '' : S.cw + fan + 'px';
  w.style.height = vertical ? S.ch + fan + 'px' : '';
  if (!waste.length) w.append(slotEl());
  for (const { index, pos } of wasteFan(waste.length, draw)) {
    const c = cardEl(waste[index]);
    c.dataset.i = index;
    if (vertical) c.style.top = pos * S.fanStep + 'px';
    else c.style.left = pos * S.fanStep + 'px';
    if (index === waste.length - 1) { c.classList.add('top'); c.tabIndex = -1; }
    w.append(c);
  }
  w.setAttribute('role', 'group'); // a label needs a role to be read
  w.setAttribute('aria-label', `${t('pile.waste')}, ${waste.length ? t('pile.cards', { n: waste.length }) : t('pile.empty')}`);
}
