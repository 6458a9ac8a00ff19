import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayout, columnSteps, wasteFan, growSteps, columnCounts, badgePx, rankPx, RATIO, TALL } from '../js/layout.js';

test('phone portrait fits nine columns', () => {
  const L = computeLayout({ width: 390, height: 790 });
  assert.ok(L.portrait);
  assert.ok(9 * L.cw + 8 * L.gap + 2 * L.pad <= 390, JSON.stringify(L));
  assert.ok(L.cw >= 36);
  // the height left over makes the cards taller than the standard card
  assert.ok(L.ch > Math.round(L.cw * RATIO) && L.ch <= Math.round(L.cw * TALL), JSON.stringify(L));
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
  // a layout without a least face-up step (a race board's)
  const L = { ...computeLayout({ width: 844, height: 340 }), upMin: undefined };
  for (const [down, up, avail] of [[8, 13, 250], [8, 13, 200], [0, 13, 150], [8, 1, 100]]) {
    const s = columnSteps(down, up, L, avail);
    const h = down * s.down + Math.max(0, up - 1) * s.up + L.ch;
    assert.ok(h <= avail || s.up <= Math.max(4, Math.round(L.ch * 0.1)), `${down}/${up}/${avail}: ${h}`);
    assert.ok(s.up >= 4 && s.down >= 1);
    assert.ok(s.up <= L.upStep && s.down <= L.downStep);
  }
});

test('the solo table: a long column keeps every index in sight, and is taller than the table where it must', () => {
  // phones on their side and upright, and a desktop, less the HUD and the footer
  for (const [width, height] of [[844, 390 - 80], [740, 360 - 80], [390, 844 - 92], [320, 568 - 92], [1440, 900 - 92]]) {
    const L = computeLayout({ width, height });
    assert.ok(L.upMin >= Math.ceil(L.rank * 1.05), JSON.stringify(L));
    for (const [down, up] of [[8, 13], [7, 12], [0, 13], [8, 1]]) {
      const s = columnSteps(down, up, L, L.colH);
      const h = down * s.down + Math.max(0, up - 1) * s.up + L.ch;
      assert.ok(s.up >= L.upMin && s.down >= 1, `${width}x${height} ${down}/${up}: ${JSON.stringify(s)}`);
      // what does not fit is as short as it can be: the backs packed
      if (h > L.colH) assert.equal(s.up, L.upMin, `${width}x${height} ${down}/${up}`);
    }
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

// the deal: column n (1…9) has n - 1 cards face down and one face up
const DEAL = Array.from({ length: 9 }, (_, i) => ({ down: i, up: 1 }));
// the bottom of the lowest card of columns laid out by L, from the table's top
const bottom = (L, cols) => {
  const top = L.portrait ? L.pad + 2 * L.ch + L.gap + L.rowGap : L.pad;
  const badge = badgePx(L.cw);
  return top + Math.max(...cols.map((c) => {
    const s = columnSteps(c.down, c.up, L, L.colH - (c.down ? badge : 0));
    return (c.down ? (c.down - 1) * s.down + Math.max(s.down, badge) : 0) + Math.max(0, c.up - 1) * s.up + L.ch;
  }));
};

test('a phone in portrait: the deal reaches the lower part of the screen, a landscape table is as it was', () => {
  const L = computeLayout({ ...PHONE, columns: DEAL });
  // the table starts under the 48px HUD of an 844px screen
  assert.ok(48 + bottom(L, DEAL) >= 0.7 * 844, `${48 + bottom(L, DEAL)} of 844: ${JSON.stringify(L)}`);
  assert.ok(bottom(L, DEAL) <= PHONE.height - L.pad);
  // cards of the standard shape where the table is wider than high
  for (const area of [DESK, { width: 844, height: 390 - 48 - 32 }]) {
    const D = computeLayout({ ...area, columns: DEAL });
    assert.equal(D.ch, Math.round(D.cw * RATIO), JSON.stringify(D));
  }
});

test('a short phone in portrait: the cards grow only as far as a long column still reads', () => {
  for (const area of [PHONE, { width: 375, height: 667 - 48 - 44 }, { width: 360, height: 560 }]) {
    const L = computeLayout(area);
    const s = columnSteps(8, 13, L, L.colH - badgePx(L.cw));
    assert.ok(8 * s.down + 12 * s.up + L.ch + badgePx(L.cw) <= L.colH, JSON.stringify([area, L, s]));
    assert.ok(s.up >= L.rank + 2, `${JSON.stringify(area)}: ${s.up} < ${L.rank} + 2: the index of a card under another is cut`);
  }
});

test('columns overlap less while every column has room, and still fit when one is long', () => {
  for (const area of [PHONE, DESK]) {
    const plain = computeLayout(area);
    const short = computeLayout({ ...area, columns: [{ down: 8, up: 1 }] });
    assert.ok(short.upStep >= plain.upStep && short.downStep > plain.downStep, JSON.stringify([plain, short]));
    // a long column: 6 face down and a run of 13 stays inside the column height
    const long = computeLayout({ ...area, columns: [{ down: 6, up: 13 }, { down: 8, up: 1 }] });
    const s = columnSteps(6, 13, long, long.colH - badgePx(long.cw));
    assert.ok(6 * s.down + 12 * s.up + long.ch <= long.colH, JSON.stringify([long, s]));
    assert.ok(s.up >= long.rank, `${s.up} < ${long.rank}: the index of a card under another is cut`);
    assert.ok(long.upStep > plain.upStep || long.upStep === plain.upStep);
    // longer than anything the room allows: the natural steps, columnSteps shrinks
    const huge = computeLayout({ ...area, columns: [{ down: 8, up: 30 }] });
    assert.equal(huge.upStep, plain.upStep);
  }
});

test('the steps grow as far as every column fits, not the longest alone', () => {
  const S = { ch: 100, downStep: 12, upStep: 30 };
  // one column many face down, another many face up: each limits its own step
  const g = growSteps(S, [{ down: 8, up: 1 }, { down: 0, up: 12 }, { down: 2, up: 6 }], 800, { portrait: true, badge: 20 });
  assert.equal(g.upStep, 50);
  for (const c of [{ down: 8, up: 1 }, { down: 0, up: 12 }, { down: 2, up: 6 }]) {
    assert.ok(c.down * g.downStep + Math.max(0, c.up - 1) * g.upStep + S.ch + (c.down ? 20 : 0) <= 800, JSON.stringify([c, g]));
  }
  assert.ok(g.downStep > S.downStep);
  // a column that cannot fit even the natural steps: the natural steps
  assert.deepEqual(growSteps(S, [{ down: 8, up: 30 }], 400, { portrait: true, badge: 20 }), { downStep: 12, upStep: 30 });
  assert.deepEqual(columnCounts([{ down: 3, up: ['5C', '4H'] }, { down: 0, up: [] }]), [{ down: 3, up: 2 }, { down: 0, up: 0 }]);
});

test('the corner index: a share of the card, at least 16px while the card has room', () => {
  assert.equal(rankPx(104), 37);
  assert.equal(rankPx(40), 16);
  assert.equal(rankPx(33), 16); // nine columns on a phone 320px wide
  assert.equal(rankPx(28), 14); // a small card keeps its index inside
});

test('a phone 320px wide: nine columns across, an index of 16px', () => {
  const L = computeLayout({ width: 320, height: 568 - 48 - 44 });
  assert.ok(9 * L.cw + 8 * L.gap + 2 * L.pad <= 320, JSON.stringify(L));
  assert.ok(L.rank >= 16, JSON.stringify(L));
});
