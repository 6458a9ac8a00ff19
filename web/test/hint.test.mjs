import test from 'node:test';
import assert from 'node:assert/strict';
import { marks } from '../js/solo/hint.js';

test('marks: a move marks its source, its count of cards and its target', () => {
  assert.deepEqual(marks({ type: 'move', from: 'c3', to: 'c5', count: 2 }), { from: 'c3', to: 'c5', count: 2 });
  assert.deepEqual(marks({ type: 'move', from: 'w', to: 'f4' }), { from: 'w', to: 'f4', count: 1 });
});

test('marks: a draw or a recycle marks the stock, no hint marks nothing', () => {
  assert.deepEqual(marks({ type: 'draw' }), { from: 's', to: null, count: 0 });
  assert.deepEqual(marks({ type: 'recycle' }), { from: 's', to: null, count: 0 });
  assert.equal(marks(null), null);
  assert.equal(marks({ type: 'undo' }), null);
});
