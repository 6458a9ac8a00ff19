import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayout, columnSteps, wasteFan, longestColumn, rankPx, RATIO } from '../js/layout.js';

test('phone portrait fits nine columns', () => {
  const L = computeLayout({ width: 390, height: 790 });
  assert.ok(L.portrait);
  assert.ok(9 * L.cw + 8 * L.gap + 2 * L.pad <= 390, JSON.stringify(L));
  assert.ok(L.cw >= 36);
  assert.equal(L.ch, Math.round(L.cw * RATIO));
});

test('desktop landscape fits the foundation rows', () => {
  const L = computeLayout({ width: 1440, height: 840 });
  assert.ok(!L.portrait);
  assert.ok(4 * L.ch + 3 * L.gap <= 840);
  assert.ok(13 * L.cw + 10 * L.gap <= 1440);
  assert.ok(L.cw >= 90, String(L.cw));
});

test('columns that fit keep their natural steps', () => {
  const L = computeLayout({ width: 1440, height: 840 });
  assert.deepEqual(columnSteps(3, 4, L, 700), { down: L.downStep, up: L.upStep });
});

test('long columns compress but stay inside and grabbable', () => {
  const L = computeLayout({ width: 844, height: 340 });
  for (const [down, up, avail] of [[8, 13, 250], [8, 13, 200], [0, 13, 150], [8, 1, 100]]) {
    const s = columnSteps(down, up, L, avail);
    const h = down * s.down + Math.max(0, up - 1) * s.up + L.ch;
    assert.ok(h <= avail || s.up <= Math.max(4, Math.round(L.ch * 0.1)), `${down}/${up}/${avail}: ${h}`);
    assert.ok(s.up >= 4 && s.down >= 1);
    assert.ok(s.up <= L.upStep && s.down <= L.downStep);
  }
});

test('waste fan', () => {
  assert.deepEqual(wasteFan(0, 3), []);
  assert.deepEqual(wasteFan(2, 3), [{ index: 0, pos: 0 }, { index: 1, pos: 1 }]);
  assert.deepEqual(wasteFan(5, 3), [{ index: 1, pos: 0 }, { index: 2, pos: 0 }, { index: 3, pos: 1 }, { index: 4, pos: 2 }]);
  assert.deepEqual(wasteFan(5, 1), [{ index: 3, pos: 0 }, { index: 4, pos: 0 }]);
});

// the table area of a 390×844 phone and a 1440×900 desktop, less the HUD and the footer
const PHONE = { width: 390, height: 844 - 48 - 44 };
const DESK = { width: 1440, height: 900 - 48 - 44 };

test('a phone in portrait: nine columns across, a readable index', () => {
  const L = computeLayout(PHONE);
  assert.ok(L.portrait);
  assert.ok(9 * L.cw + 8 * L.gap + 2 * L.pad <= 390, JSON.stringify(L));
  assert.ok(L.cw >= 40, String(L.cw));
  assert.ok(L.rank >= 16, String(L.rank));
  assert.equal(rankPx(L.cw), L.rank);
  // a face-up card under another shows its whole index
  assert.ok(L.upStep >= L.rank + 4, JSON.stringify(L));
});

test('a desktop in landscape: large cards, the foundation rows fit', () => {
  const L = computeLayout(DESK);
  assert.ok(!L.portrait);
  assert.ok(L.cw >= 100, String(L.cw));
  assert.ok(4 * L.ch + 3 * L.gap <= DESK.height);
  assert.ok(L.rank >= 36, String(L.rank));
});

test('columns overlap less while the longest one has room, and still fit when it is long', () => {
  for (const area of [PHONE, DESK]) {
    const plain = computeLayout(area);
    const short = computeLayout({ ...area, longest: { down: 8, up: 1 } });
    assert.ok(short.upStep > plain.upStep && short.downStep > plain.downStep, JSON.stringify([plain, short]));
    // a long column: 6 face down and a run of 13 stays inside the column height
    const long = computeLayout({ ...area, longest: { down: 6, up: 13 } });
    const s = columnSteps(6, 13, long, long.colH - Math.max(14, Math.round(long.cw * 0.3)));
    assert.ok(6 * s.down + 12 * s.up + long.ch <= long.colH, JSON.stringify([long, s]));
    assert.ok(s.up >= long.rank, `${s.up} < ${long.rank}: the index of a card under another is cut`);
    // longer than anything the room allows: the natural steps, columnSteps shrinks
    const huge = computeLayout({ ...area, longest: { down: 8, up: 30 } });
    assert.equal(huge.upStep, plain.upStep);
  }
});

test('the longest column is the one that needs most room', () => {
  const v = { columns: [{ down: 8, up: [] }, { down: 1, up: ['KS', 'QH', 'JC', 'TD'] }, { down: 3, up: ['5C'] }] };
  assert.deepEqual(longestColumn(v), { down: 1, up: 4 });
});

test('the corner index: a share of the card, at least 16px while the card has room', () => {
  assert.equal(rankPx(104), 37);
  assert.equal(rankPx(40), 16);
  assert.equal(rankPx(28), 13); // a small card keeps its index inside
});
