import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hex, shortHex, normHex, commitmentOf, checkDeal, notices, codeURL, subtleCrypto } from '../js/race/commit.js';

// printf '%s' 'DR2-D1UI-<64 zeros>:00112233445566778899aabbccddeeff' | sha256sum
const CODE = 'DR2-D1UI-' + '0'.repeat(64);
const SALT = '00112233445566778899aabbccddeeff';
const WANT = 'cbf076206042e35055ce65ee21cb33284d6c310d5b9c1107c78cb755bfddf8e4';

test('the commitment of a known code and salt', async () => {
  assert.ok(subtleCrypto(), 'Node has Web Crypto');
  assert.equal(await commitmentOf(CODE, SALT), WANT);
  assert.equal(await commitmentOf(CODE, SALT, null), null);
});

test('a finished race checks out', async () => {
  const r = await checkDeal({ code: CODE, salt: SALT, commitment: WANT, seen: WANT });
  assert.deepEqual(r, { state: 'ok', computed: WANT, final: WANT, seen: WANT, matchesFinal: true, matchesSeen: true });
  // upper case from anywhere is the same fingerprint; nothing seen during play is still a check
  const late = await checkDeal({ code: CODE, salt: SALT, commitment: WANT.toUpperCase(), seen: '' });
  assert.equal(late.state, 'ok');
  assert.equal(late.matchesSeen, null);
});

test('a changed code, salt or commitment does not', async () => {
  const other = WANT.slice(0, -1) + '5';
  assert.equal((await checkDeal({ code: CODE, salt: SALT, commitment: other, seen: '' })).state, 'bad');
  assert.equal((await checkDeal({ code: CODE.replace('D1UI', 'D3UI'), salt: SALT, commitment: WANT, seen: WANT })).state, 'bad');
  assert.equal((await checkDeal({ code: CODE, salt: SALT.replace('00', '01'), commitment: WANT, seen: WANT })).state, 'bad');
  // the server showed one fingerprint during play and another at the end
  const swapped = await checkDeal({ code: CODE, salt: SALT, commitment: WANT, seen: other });
  assert.equal(swapped.state, 'bad');
  assert.equal(swapped.matchesFinal, true);
  assert.equal(swapped.matchesSeen, false);
  // no commitment at all cannot match
  assert.equal((await checkDeal({ code: CODE, salt: SALT, commitment: '', seen: '' })).state, 'bad');
});

test('without Web Crypto, or before the end', async () => {
  assert.equal((await checkDeal({ code: CODE, salt: SALT, commitment: WANT, seen: WANT }, null)).state, 'insecure');
  assert.equal((await checkDeal({ commitment: WANT, seen: WANT })).state, 'missing');
  assert.equal(subtleCrypto({}), null);
  assert.equal(subtleCrypto({ crypto: {} }), null);
});

test('hex helpers', () => {
  assert.equal(hex(new Uint8Array([0, 15, 255])), '000fff');
  assert.equal(hex(new Uint8Array([1, 2, 3, 4]).subarray(1, 3)), '0203');
  assert.equal(hex(new Uint8Array([171]).buffer), 'ab');
  assert.equal(shortHex(WANT), 'cbf076206042');
  assert.equal(shortHex(undefined), '');
  assert.equal(normHex(' ' + WANT.toUpperCase()), WANT);
  assert.equal(normHex('abc'), '');
  assert.equal(normHex(WANT + '0'), '');
});

test('what a joiner is told', () => {
  assert.deepEqual(notices({ chosenDeal: true, decks: 'mirrored' }), ['chosen', 'mirrored']);
  assert.deepEqual(notices({ chosenDeal: false, decks: 'independent' }), []);
  assert.deepEqual(notices({ decks: 'mirrored' }), ['mirrored']);
  assert.deepEqual(notices(null), []);
  assert.equal(codeURL('DR1-D1UI-HELLOXY'), '/api/v1/codes/DR1-D1UI-HELLOXY');
});
