import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkCode } from '../js/code.js';

// What the server's ParseCode says of each input (internal/cards'
// TestCodeGolden writes the file).
const cases = JSON.parse(readFileSync(new URL('./testdata/codes.json', import.meta.url)));

test('the client checks game codes as the server does', () => {
  assert.ok(cases.length >= 30);
  for (const c of cases) {
    const want = c.field ? { field: c.field } : { code: c.code, kind: c.kind };
    assert.deepEqual(checkCode(c.input), want, JSON.stringify(c.input));
  }
});

test('every wrong part has a message in every language', async () => {
  const fields = new Set(cases.filter((c) => c.field).map((c) => c.field));
  for (const l of ['en', 'es', 'pl', 'it']) {
    const cat = (await import(`../js/i18n/${l}.js`)).default;
    for (const f of fields) assert.ok(cat.code?.[f], `${l}: code.${f}`);
  }
});
