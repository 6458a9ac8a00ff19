// Drawing a race view: two boards and the shared foundations. Each board is a
// [data-seat] container holding its own [data-pile] s, w and c1…c7.
import { cardEl, slotEl, fillColumn, fillStock, fillWaste, SUITS } from '../cards.js';
import { growSteps, columnCounts } from '../layout.js';
import { t } from '../i18n.js';
import { cardOf, seatOf } from './model.js';
import { raceLayout } from './layout.js';

const px = (n) => n + 'px';
const NS = 'http://www.w3.org/2000/svg';
const BOT = 'M11 1h2v3h5a3 3 0 0 1 3 3v10a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3V7a3 3 0 0 1 3-3h5zM8 9a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm8 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm-7 6v2h6v-2z';

/**
 * nameInto writes a player's name into el; the bot's name has the computer's
 * mark in front, where a narrow tag cutting the name short keeps it in view.
 */
export function nameInto(el, name, bot) {
  el.replaceChildren(name);
  el.title = name; // the name in full where the tag shortens it
  el.classList.toggle('isbot', !!bot);
  if (!bot) return;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('class', 'botmark');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('race.botMark'));
  const path = document.createElementNS(NS, 'path');
  path.setAttribute('d', BOT);
  svg.append(path);
  el.prepend(svg, ' ');
}

function pile(id, cls) {
  const p = document.createElement('div');
  p.className = 'pile ' + cls;
  p.dataset.pile = id;
  p.tabIndex = -1;
  return p;
}

/** boardEl builds the skeleton of one board. */
export function boardEl(kind) {
  const b = document.createElement('div');
  b.className = 'rboard ' + kind;
  b.dataset.board = kind;
  b.setAttribute('role', 'group');
  const sw = document.createElement('div');
  sw.className = 'rsw';
  const s = pile('s', 'stock');
  if (kind === 'me') s.setAttribute('role', 'button');
  sw.append(s, pile('w', 'waste'));
  const cols = document.createElement('div');
  cols.className = 'rcols';
  for (let i = 1; i <= 7; i++) {
    const c = pile('c' + i, 'col');
    c.setAttribute('role', 'group');
    cols.append(c);
  }
  const tag = document.createElement('div');
  tag.className = 'rtag';
  tag.innerHTML = '<span class="nm"></span> <span class="blk" hidden></span> <span class="off" hidden></span>';
  b.append(sw, cols, tag);
  return b;
}

/** foundEl builds the eight shared foundation slots in four suit rows. */
export function foundEl() {
  const f = document.createElement('div');
  f.className = 'found rfound';
  f.dataset.pile = 'f';
  f.setAttribute('role', 'group');
  for (let r = 0; r < 4; r++) {
    const row = document.createElement('div');
    row.className = 'frow';
    row.dataset.suit = SUITS[r];
    const a = pile('f' + (2 * r + 1), 'slot-f'), b = pile('f' + (2 * r + 2), 'slot-f');
    for (const slot of [a, b]) slot.setAttribute('role', 'group'); // labelled below
    row.append(a, b);
    f.append(row);
  }
  return f;
}

/**
 * mountBoards builds the opponent's board, the shared foundations and my
 * board: the first at the top of table, the others in play (the part of
 * the table below it). It returns the three: {opp, found, board}.
 */
export function mountBoards(table, play) {
  const opp = boardEl('opp'), found = foundEl(), board = boardEl('me');
  table.prepend(opp);
  play.append(found, board);
  return { opp, found, board };
}

/** layoutBoards lays the race table out for its size and a view of draw, and returns the layout (raceLayout). */
export function layoutBoards(table, draw) {
  const L = raceLayout({ width: table.clientWidth, height: table.clientHeight, draw });
  table.classList.toggle('portrait', L.portrait);
  table.style.setProperty('--pad', px(L.pad));
  table.style.setProperty('--oppH', px(L.oppH));
  return L;
}

function setVars(el, S) {
  el.style.setProperty('--cw', px(S.cw));
  el.style.setProperty('--ch', px(S.ch));
  el.style.setProperty('--gap', px(S.gap));
}

/**
 * renderBoard draws one seat's board. o: {S (sizes), seat, name, vertical
 * (waste fans downwards), colH (column height), mine, redeal, blocked, online, bot}.
 */
export function renderBoard(el, b, o) {
  const { S } = o;
  setVars(el, S);
  el.dataset.seat = o.seat;
  el.classList.toggle('s1', o.seat === 1);
  el.classList.toggle('s2', o.seat === 2);
  el.setAttribute('aria-label', o.mine ? t('race.myBoard') : t('race.theirBoard', { name: o.name }));
  const q = (id) => el.querySelector(`[data-pile="${id}"]`);

  const s = q('s');
  fillStock(s, b.stock, o.mine && o.redeal !== 'single' && b.waste.length > 0, o.mine);
  s.tabIndex = o.mine ? 0 : -1;
  fillWaste(q('w'), b.waste, o.draw, S, o.vertical);

  // the columns overlap less while they all have room
  const st = { ...S, ...growSteps(S, columnCounts(b.columns), o.colH, { portrait: S.portrait, badge: S.badge }) };
  b.columns.forEach((c, i) => fillColumn(q('c' + (i + 1)), c, i + 1, st, S.badge, () => o.colH));

  const tag = el.querySelector('.rtag');
  nameInto(tag.querySelector('.nm'), o.name, o.bot);
  const blk = tag.querySelector('.blk');
  blk.hidden = !o.blocked;
  blk.textContent = t('race.blocked');
  blk.dataset.testid = o.mine ? 'blocked-me' : 'blocked-them';
  const off = tag.querySelector('.off');
  off.hidden = o.online !== false;
  off.textContent = t('race.offline');
}

/** renderFound draws the shared foundations; each card is tinted by its seat. */
export function renderFound(el, v, S, names) {
  setVars(el, S);
  el.setAttribute('aria-label', t('race.found'));
  v.foundations.forEach((f, i) => {
    const p = el.querySelector(`[data-pile="f${i + 1}"]`);
    const suit = SUITS[i >> 1];
    p.replaceChildren();
    p.dataset.count = f.length;
    let label = `${t('pile.slot', { suit: t('suits.' + suit), n: (i & 1) + 1 })}, ${f.length ? t('pile.cards', { n: f.length }) : t('pile.empty')}`;
    if (!f.length) { p.setAttribute('aria-label', label); return p.append(slotEl(suit)); }
    const draw = (e, top) => {
      const c = cardEl(cardOf(e));
      const s = seatOf(e);
      if (s) { c.dataset.seat = s; c.classList.add('own' + s); }
      if (top) { c.classList.add('top'); c.dataset.i = f.length - 1; }
      p.append(c);
      return s;
    };
    if (f.length > 1) draw(f[f.length - 2], false);
    const s = draw(f[f.length - 1], true);
    if (s && names[s - 1]) label += ` (${names[s - 1]})`;
    p.setAttribute('aria-label', label);
  });
}

/** cardRects maps "seat:card" → {rect, pile} for every face-up card on the table. */
export function cardRects(root) {
  const m = new Map();
  for (const el of root.querySelectorAll('.card.up[data-card]')) {
    const seat = el.dataset.seat || el.closest('[data-seat]')?.dataset.seat;
    const p = el.closest('[data-pile]')?.dataset.pile;
    // the board is read now: a redraw takes the element out of its board
    const board = el.closest('[data-board]')?.dataset.board || 'f';
    m.set(`${seat}:${el.dataset.card}`, { rect: el.getBoundingClientRect(), pile: p, board, el });
  }
  return m;
}
