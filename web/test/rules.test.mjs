import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apply, resolve, targets, dtapColumn } from '../js/rules.js';

const view = (o = {}) => ({
  status: 'playing', stock: 10, waste: ['AH'], foundations: [[], [], ['AH'], [], [], [], [], []],
  columns: [
    { down: 2, up: ['AS'] }, { down: 0, up: ['9C', '8H'] }, { down: 3, up: ['7S'] },
    { down: 0, up: [] }, { down: 4, up: ['9D'] }, { down: 1, up: ['KD'] },
    { down: 0, up: ['QS'] }, { down: 5, up: ['3C'] }, { down: 6, up: ['8S'] },
  ],
  ...o,
});

test('a tap sends a card to the first slot of its suit row that takes it', () => {
  const v = view();
  assert.deepEqual(resolve(v, { type: 'tap', from: 'c1' }), { from: 'c1', to: 'f1', count: 1 });
  // the second heart ace goes to the row's second slot
  assert.deepEqual(resolve(v, { type: 'tap', from: 'w' }), { from: 'w', to: 'f4', count: 1 });
  assert.equal(resolve(v, { type: 'tap', from: 'c3' }), null);
  const n = apply(v, { type: 'tap', from: 'c1' });
  assert.deepEqual(n.foundations[0], ['AS']);
  // the card it uncovers stays face down until the server answers
  assert.deepEqual(n.columns[0], { down: 2, up: [] });
  assert.deepEqual(v.columns[0].up, ['AS'], 'the view given stays as it was');
});

test('a double tap takes the fullest column that accepts the run', () => {
  const v = view();
  // 7S goes on 8H (c2, 2 cards) — 8H is the only red eight
  assert.equal(dtapColumn(v, 'c3', '7S'), 1);
  const n = apply(v, { type: 'dtap', from: 'c3', count: 1 });
  assert.deepEqual(n.columns[1].up, ['9C', '8H', '7S']);
  // a run of two: 8H (with 7S? no) — 9C,8H goes nowhere, so null
  assert.equal(apply(v, { type: 'dtap', from: 'c2', count: 2 }), null);
  // a king goes to the empty column
  assert.equal(dtapColumn(v, 'c6', 'KD'), 3);
});

test('a double tap in a race picks its column on the seat\'s board by the same rule', () => {
  // a board of seven columns: c2 holds face-down cards only, c4 and c7 are empty
  const board = {
    stock: 3, waste: [],
    columns: [
      { down: 0, up: ['KH'] }, { down: 3, up: [] }, { down: 1, up: ['8C'] },
      { down: 0, up: [] }, { down: 4, up: ['8S'] }, { down: 0, up: ['QH', 'JS'] }, { down: 0, up: [] },
    ],
  };
  assert.equal(dtapColumn(board, 'c1', '7D'), 4, 'the fuller of the two black eights');
  assert.equal(dtapColumn(board, 'c5', '7D'), 2, 'never the column it leaves');
  assert.equal(dtapColumn(board, 'c6', 'TD'), -1, 'nothing takes a red ten');
  assert.equal(dtapColumn(board, 'c1', 'KS'), 3, 'a king: the first empty column, not one with cards face down');
  assert.equal(dtapColumn(board, 'c4', 'KS'), 6, 'nor the one it leaves');
  assert.equal(dtapColumn(board, 'c3', 'QS'), 0, 'a queen on the king, not on an empty column');
});

test('moves follow the column and foundation rules', () => {
  const v = view();
  assert.ok(apply(v, { type: 'move', from: 'c2', to: 'c4', count: 1 }) === null, 'only a king on an empty column');
  assert.ok(apply(v, { type: 'move', from: 'c6', to: 'c4' }));
  assert.ok(apply(v, { type: 'move', from: 'c3', to: 'c2' }));
  assert.deepEqual(apply(v, { type: 'move', from: 'c1', to: 'f2' }).foundations[1], ['AS'], 'either slot of its row');
  assert.equal(apply(v, { type: 'move', from: 'c1', to: 'f3' }), null, 'not another suit row');
  // a foundation card may come back to a column
  assert.ok(apply(view({ foundations: [[], [], ['AH', '2H'], [], [], [], [], []], columns: [...view().columns.slice(0, 7), { down: 0, up: ['3C'] }, { down: 0, up: [] }] }), { type: 'move', from: 'f3', to: 'c8' }));
  assert.equal(apply(v, { type: 'move', from: 'f3', to: 'f4' }), null);
  assert.equal(apply(v, { type: 'draw' }), null);
  assert.equal(apply({ ...v, status: 'won' }, { type: 'tap', from: 'c1' }), null);
});

test('targets lists the piles a dragged run may land on', () => {
  const v = view();
  assert.deepEqual(targets(v, 'c1', 1), ['f1', 'f2']);
  assert.deepEqual(targets(v, 'c3', 1), ['c2']);
  assert.deepEqual(targets(v, 'c6', 1), ['c4']);
  assert.deepEqual(targets(v, 'c2', 2), []);
});
