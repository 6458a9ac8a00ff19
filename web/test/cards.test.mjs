// The stock and the waste, drawn by the same code on the solo table and on
// both boards of a race.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install } from './dom.mjs';
import { useCatalogue } from '../js/i18n.js';
import en from '../js/i18n/en.js';
import { el, fillStock, fillWaste } from '../js/cards.js';

useCatalogue('en', en);

const pile = () => {
  install();
  const p = document.createElement('div');
  document.body.append(p);
  return p;
};
const S = { cw: 60, ch: 84, fanStep: 15 };
const cards = (w) => [...w.querySelectorAll('.card.up')].map((c) => [c.dataset.card, +c.dataset.i, c.style.left || '', c.style.top || '', c.classList.contains('top')]);

test('the waste of draw 3 fans its last three cards, over the one under them', () => {
  const w = pile();
  fillWaste(w, ['2S', '3S', '4S', '5S', '6S'], 3, S, false);
  assert.equal(w.dataset.count, '5');
  assert.equal(w.style.width, '90px', 'the card and two steps wide');
  assert.equal(w.style.height, '');
  assert.deepEqual(cards(w), [
    ['3S', 1, '0px', '', false], ['4S', 2, '0px', '', false], ['5S', 3, '15px', '', false], ['6S', 4, '30px', '', true],
  ]);
  assert.equal(w.getAttribute('role'), 'group');
  assert.equal(w.getAttribute('aria-label'), `${en.pile.waste}, ${en.pile.cards.other.replace('{n}', 5)}`);
  // vertical (a landscape solo table, the opponent's board): downwards
  fillWaste(w, ['2S', '3S', '4S'], 3, S, true);
  assert.equal(w.style.width, '');
  assert.equal(w.style.height, '114px');
  assert.deepEqual(cards(w), [['2S', 0, '', '0px', false], ['3S', 1, '', '15px', false], ['4S', 2, '', '30px', true]]);
});

test('the waste of draw 1 shows its top card over the one under it; empty, its outline', () => {
  const w = pile();
  fillWaste(w, ['2S', '3S', '4S'], 1, S, true);
  assert.equal(w.style.height, '84px');
  assert.deepEqual(cards(w), [['3S', 1, '', '0px', false], ['4S', 2, '', '0px', true]]);
  fillWaste(w, [], 1, S, false);
  assert.equal(w.dataset.count, '0');
  assert.equal(w.querySelectorAll('.card.up').length, 0);
  assert.equal(w.querySelectorAll('.card.slot').length, 1);
  assert.equal(w.getAttribute('aria-label'), `${en.pile.waste}, ${en.pile.empty}`);
});

test('the stock shows its count, or once empty whether the waste can go back', () => {
  const s = pile();
  fillStock(s, 12, false, true);
  assert.equal(s.dataset.count, '12');
  assert.equal(s.querySelector('[data-testid=stock-count]').textContent, '12');
  assert.equal(s.getAttribute('aria-label'), en.pile.stock.other.replace('{n}', 12));
  fillStock(s, 0, true, true);
  assert.equal(s.querySelectorAll('.card.back').length, 0);
  assert.equal(s.querySelector('[data-testid=stock-count]').textContent, '↻');
  assert.equal(s.getAttribute('aria-label'), en.pile.recycle);
  fillStock(s, 0, false, true);
  assert.equal(s.querySelector('.rc').textContent, '');
  assert.equal(s.getAttribute('aria-label'), en.pile.stockEmpty);
  // another player's stock: the same, without the browser tests' hook
  fillStock(s, 7, false, false);
  assert.equal(s.querySelector('.n').textContent, '7');
  assert.equal(s.querySelector('[data-testid=stock-count]'), null);
});

test('el makes an element with its class and text where given', () => {
  install();
  const p = el('p', 'note', 'Hi');
  assert.equal(p.tagName, 'P');
  assert.equal(p.className, 'note');
  assert.equal(p.textContent, 'Hi');
  const n = el('span', null, 0);
  assert.equal(n.className, '');
  assert.equal(n.textContent, '0', 'a number, even 0, is a text');
  assert.equal(el('div').textContent, '');
});
