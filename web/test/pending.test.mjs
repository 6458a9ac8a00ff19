// The list of my actions the server has not shown yet, which the solo and
// the race modes draw over the server's view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pending } from '../js/pending.js';

// a view that is just a list of the moves applied; "?" stands for a move the
// client cannot work out (a draw)
const step = (v, a) => (a === '?' ? null : [...v, a]);

function three() {
  const p = new Pending();
  p.add('a', 'x', true);
  p.add('b', '?', false);
  p.add('c', 'y', true, { drop: 'held' });
  return p;
}

test('the actions are drawn in order up to the first one the client cannot work out', () => {
  const p = three();
  assert.deepEqual(p.over([], step), ['x']);
  // skipping: every action drawn at once, the others left out
  assert.deepEqual(p.over([], step, { skip: true }), ['x', 'y']);
  assert.deepEqual(new Pending().over(['v'], step), ['v']);
  assert.equal(p.length, 3);
  assert.equal(p.some((e) => e.drop === 'held' && e.opt), true);
});

test('an ack or an event gives an action its seq, and a view up to it takes it out', () => {
  const p = three();
  assert.equal(p.acked('b', 7).action, '?');
  assert.equal(p.acked('zz', 8), null);
  // an event of mine: the oldest action still without a seq made it
  p.event(6);
  assert.deepEqual(p.list.map((e) => e.seq), [6, 7, null]);
  p.event(9);
  p.event(10); // none left without a seq: nothing changes
  assert.deepEqual(p.list.map((e) => e.seq), [6, 7, 9]);
  p.seen(7);
  assert.deepEqual(p.list.map((e) => e.id), ['c']);
  p.seen(9);
  assert.equal(p.length, 0);
});

test('a view keeps the actions without a seq that the connection still has pending', () => {
  const p = three();
  p.acked('a', 4);
  p.seen(5, [{ id: 'c' }]);
  assert.deepEqual(p.list.map((e) => e.id), ['c']);
  p.seen(5);
  assert.equal(p.length, 0);
});

test('a refused action goes, and says whether it had been drawn', () => {
  const p = three();
  assert.equal(p.reject('b'), false);
  assert.equal(p.reject('a'), true);
  assert.equal(p.reject('a'), false);
  assert.deepEqual(p.list.map((e) => e.id), ['c']);
  p.drop(p.list[0]);
  assert.equal(p.length, 0);
});
