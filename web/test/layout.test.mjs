import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayout, columnSteps, wasteFan, RATIO } from '../js/layout.js';

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
