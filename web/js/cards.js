// Card text, colours and the DOM for a card. Shared by every mode.
import { cardName, t } from './i18n.js';
import { columnSteps } from './layout.js';

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
  const el = document.createElement('div');
  el.className = `card up s${card[1]}${isRed(card) ? ' red' : ''}`;
  el.dataset.card = card;
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', cardName(card));
  const r = document.createElement('b');
  r.textContent = rankLabel(card);
  el.append(r, suitIcon(card[1], 'si'), suitIcon(card[1], 'sl'), suitIcon(card[1], 'pip'));
  return el;
}

/** backEl builds a face-down card, optionally showing a count. */
export function backEl(count) {
  const el = document.createElement('div');
  el.className = 'card back';
  if (count != null) {
    const n = document.createElement('span');
    n.className = 'n';
    n.textContent = count;
    el.append(n);
    el.setAttribute('aria-label', t('pile.down', { n: count }));
  } else el.setAttribute('aria-hidden', 'true');
  return el;
}

/** slotEl is the outline of an empty place, with an optional suit watermark. */
export function slotEl(suit) {
  const el = document.createElement('div');
  el.className = 'card slot';
  if (suit) el.append(suitIcon(suit, 'pip'));
  return el;
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
    const el = cardEl(card);
    el.dataset.i = j;
    el.tabIndex = -1;
    el.style.top = y + 'px';
    y += st.up;
    if (j === c.up.length - 1) el.classList.add('top');
    p.append(el);
  });
  return c.up.length ? y - st.up + L.ch : c.down ? y - Math.max(st.down, badge) + L.ch : L.ch;
}
