// Errors worded for the player, the same on every screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useCatalogue } from '../js/i18n.js';
import en from '../js/i18n/en.js';
import { errText, errMessage } from '../js/notice.js';

useCatalogue('en', en);

test('an error is worded by its code, else generically', () => {
  assert.equal(errText({ code: 'illegal_move' }), en.err.illegal_move);
  assert.equal(errText({ code: 'no_such_code' }), en.err.generic);
  assert.equal(errText({}), en.err.generic);
  assert.equal(errText(null), en.err.generic);
  assert.equal(errText(new Error('offline')), en.err.generic);
});

test('a game code that is not valid is worded by its wrong part', () => {
  assert.equal(errMessage({ code: 'bad_code', field: 'draw' }), en.code.draw);
  assert.equal(errMessage({ code: 'bad_code' }), en.err.bad_code);
  assert.equal(errMessage({ code: 'nope' }), en.err.generic);
});
