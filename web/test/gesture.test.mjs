import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDrag, TapTracker, dropTarget, tapAction, moveAction } from '../js/gesture.js';
import { changes } from '../js/diff.js';

const view = (o = {}) => ({
  id: 'g', scoring: 'normal', draw: 1, stock: 10, waste: ['7H', '2C'],
  foundations: [['AS'], [], [], [], [], [], [], []],
  columns: Array.from({ length: 9 }, (_, i) => ({ down: i, up: i === 2 ? ['KD', 'QS', 'JH'] : ['5C'] })),
  ...o,
});

test('drags start only after a few pixels', () => {
  assert.equal(isDrag(2, 2, 'mouse'), false);
  assert.equal(isDrag(5, 0, 'mouse'), true);
  assert.equal(isDrag(5, 3, 'touch'), false);
  assert.equal(isDrag(8, 2, 'touch'), true);
});

test('double taps: same target, quick and close', () => {
  const tr = new TapTracker(300, 20);
  assert.equal(tr.press('c3', 10, 10, 0), 'single');
  assert.equal(tr.press('c3', 12, 11, 200), 'double');
  assert.equal(tr.press('c3', 12, 11, 250), 'single');
  assert.equal(tr.press('c3', 12, 11, 700), 'single');
  assert.equal(tr.press('c4', 12, 11, 750), 'single');
  assert.equal(tr.press('c4', 60, 11, 800), 'single');
});

test('drops', () => {
  assert.equal(dropTarget('c3', 'c3'), null);
  assert.equal(dropTarget('c3', 'c5'), 'c5');
  assert.equal(dropTarget('w', 'f6'), 'f');
  assert.equal(dropTarget('c1', 'f'), 'f');
  assert.equal(dropTarget('f3', 'c2'), 'c2');
  assert.equal(dropTarget('f3', 'f4'), null);
  assert.equal(dropTarget('c1', 'w'), null);
  assert.equal(dropTarget('c1', null), null);
});

test('taps become actions', () => {
  const v = view();
  assert.deepEqual(tapAction(v, 's', null, 'single'), { type: 'draw' });
  assert.deepEqual(tapAction(view({ stock: 0 }), 's', null, 'single'), { type: 'recycle' });
  assert.equal(tapAction(view({ stock: 0, scoring: 'vegas' }), 's', null, 'single'), null);
  assert.equal(tapAction(view({ stock: 0, waste: [] }), 's', null, 'single'), null);
  assert.deepEqual(tapAction(v, 'w', 1, 'single'), { type: 'tap', from: 'w' });
  assert.deepEqual(tapAction(v, 'w', 1, 'double'), { type: 'dtap', from: 'w', count: 1 });
  assert.deepEqual(tapAction(v, 'c3', 2, 'single'), { type: 'tap', from: 'c3' });
  assert.equal(tapAction(v, 'c3', 0, 'single'), null);
  assert.deepEqual(tapAction(v, 'c3', 0, 'double'), { type: 'dtap', from: 'c3', count: 3 });
  assert.equal(tapAction(v, 'f1', 0, 'single'), null);
  assert.deepEqual(moveAction('c3', 2, 'c7'), { type: 'move', from: 'c3', to: 'c7', count: 2 });
  assert.deepEqual(moveAction('w', 1, 'f'), { type: 'move', from: 'w', to: 'f' });
});

test('changes finds the move', () => {
  const a = view();
  const b = view({ waste: ['7H'], columns: a.columns.map((c, i) => (i === 7 ? { down: 7, up: ['5C', '2C'] } : c)) });
  assert.deepEqual(changes(a, b), { from: 'w', to: 'c8', count: 1 });
  assert.deepEqual(changes(a, view({ stock: 9, waste: ['7H', '2C', '9D'] })), { from: 's', to: 'w', count: 1 });
  assert.equal(changes(a, a), null);
});
