import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { positions, elapsed } from '../js/replay.js';

// The server's own games (see fold.test.mjs), as a replay would carry them.
const cases = JSON.parse(readFileSync(new URL('./testdata/deltas.json', import.meta.url)));

test('a replay folds to the server view at every move', () => {
  for (const c of cases) {
    const rp = { start: c.start, steps: c.events.map((e) => e.d), actions: c.events.map((e) => ({ seq: e.seq })) };
    const vs = positions(rp);
    assert.equal(vs.length, c.events.length + 1);
    assert.deepEqual(vs[0], c.start);
    c.events.forEach((e, i) => assert.deepEqual(vs[i + 1], e.view, `move ${i + 1}`));
  }
});

test('the playing time adds the gaps between actions, each at most a minute', () => {
  const at = (s) => ({ at: new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString() });
  const acts = [at(0), at(10), at(200), at(205)];
  assert.equal(elapsed(acts, 0), 0);
  assert.equal(elapsed(acts, 1), 0);
  assert.equal(elapsed(acts, 2), 10);
  assert.equal(elapsed(acts, 3), 70);
  assert.equal(elapsed(acts, 4), 75);
});
