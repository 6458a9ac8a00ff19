import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fold } from '../js/fold.js';

// Games played by the server's engines (internal/table's TestDeltaGolden
// writes them): the view at seq 0, then each event's delta and the view
// after it.
const cases = JSON.parse(readFileSync(new URL('./testdata/deltas.json', import.meta.url)));

test('folding every delta gives the server view at every seq', () => {
  assert.ok(cases.length >= 4);
  let steps = 0;
  for (const c of cases) {
    let v = c.start;
    for (const e of c.events) {
      const before = structuredClone(v);
      const next = fold(v, e.seq, e.d);
      assert.deepEqual(v, before, 'fold changed its input');
      assert.deepEqual(next, e.view, `seq ${e.seq}: ${JSON.stringify(e.d)}`);
      v = next;
      steps++;
    }
  }
  assert.ok(steps >= 200, `${steps} steps`);
});

test('a pile keeps its first items and gets the rest on top', () => {
  const v = { seq: 1, waste: ['AS', '2S', '3S'], stock: 4, foundations: [[], []], columns: [{ down: 2, up: ['KD'] }] };
  assert.deepEqual(fold(v, 2, { w: [1, '9H'], s: 3, c1: [0, '7C'], d1: 1, f2: [0, 'AH'], score: 5 }),
    { seq: 2, waste: ['AS', '9H'], stock: 3, foundations: [[], ['AH']], columns: [{ down: 1, up: ['7C'] }], score: 5 });
});
