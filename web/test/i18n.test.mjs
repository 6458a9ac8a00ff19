import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGS, pickLang, formatMoney, formatScore, formatTime, countdown, cardName, fill, ratingText, useCatalogue } from '../js/i18n.js';

const cats = {};
for (const l of LANGS) cats[l] = (await import(`../js/i18n/${l}.js`)).default;

function shape(v, path = '', out = []) {
  if (Array.isArray(v)) { out.push(path + ':array'); v.forEach((x, i) => Array.isArray(x) && shape(x, path + '[]', out)); }
  else if (v && typeof v === 'object') for (const k of Object.keys(v).sort()) shape(v[k], path ? `${path}.${k}` : k, out);
  else out.push(path + ':' + typeof v);
  return [...new Set(out)];
}
const placeholders = (s) => (String(s).match(/\{\w+\}/g) || []).sort().join();
function leaves(v, path = '', out = {}) {
  if (typeof v === 'string') out[path] = v;
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) leaves(v[k], `${path}.${k}`, out);
  return out;
}

test('every language has every key and no more', () => {
  const ref = shape(cats.en);
  for (const l of LANGS) assert.deepEqual(shape(cats[l]), ref, l);
});

test('no empty strings, same placeholders everywhere', () => {
  const ref = leaves(cats.en);
  for (const l of LANGS) {
    const ls = leaves(cats[l]);
    for (const [k, v] of Object.entries(ls)) assert.ok(v.trim(), `${l}${k} is empty`);
    for (const k of Object.keys(ref)) {
      if (k.startsWith('.help.sections')) continue;
      assert.equal(placeholders(ls[k]), placeholders(ref[k]), `${l}${k}`);
    }
    assert.equal(cats[l].help.sections.length, cats.en.help.sections.length, l);
  }
});

test('help is written for each language', () => {
  const texts = LANGS.map((l) => cats[l].help.sections.flat().join(' '));
  assert.equal(new Set(texts).size, LANGS.length);
});

test('Vegas money per language', () => {
  const cases = { en: ['$416', '$0', '-$104'], es: ['$416', '$0', '-$104'], pl: ['$416', '$0', '-$104'], it: ['416 $', '0 $', '-104 $'] };
  for (const [l, want] of Object.entries(cases)) {
    assert.deepEqual([416, 0, -104].map((n) => formatMoney(n, cats[l].money)), want, l);
  }
  assert.equal(formatScore(-104, 'vegas', cats.it.money), '-104 $');
  assert.equal(formatScore(1220, 'normal', cats.it.money), '1220');
});

test('card names', () => {
  assert.equal(cardName('7H', cats.en), 'seven of hearts');
  assert.equal(cardName('TS', cats.es), 'diez de picas');
  assert.equal(cardName('7H', cats.pl), 'siódemka kier');
  assert.equal(cardName('QD', cats.it), 'regina di quadri');
});

test('language choice', () => {
  assert.equal(pickLang(['pl-PL', 'en']), 'pl');
  assert.equal(pickLang(['fr-FR', 'es-MX']), 'es');
  assert.equal(pickLang(['de']), 'en');
  assert.equal(pickLang(['IT']), 'it');
});

test('time and fill', () => {
  assert.equal(formatTime(0), '0:00');
  assert.equal(formatTime(75), '1:15');
  assert.equal(formatTime(3725), '1:02:05');
  // a countdown rounds up, and keeps its minutes
  assert.equal(countdown(60), '1:00');
  assert.equal(countdown(9.2), '0:10');
  assert.equal(countdown(-3), '0:00');
  assert.equal(countdown(3725), '62:05');
  assert.equal(fill('{a} {b}', { a: 1 }), '1 {b}');
});

test('plural forms by the language\'s rule', async () => {
  const { useCatalogue, t } = await import('../js/i18n.js');
  const cases = {
    en: [[1, '1 card'], [2, '2 cards'], [5, '5 cards']],
    es: [[1, '1 carta'], [3, '3 cartas']],
    it: [[1, '1 carta'], [7, '7 carte']],
    pl: [[1, '1 karta'], [2, '2 karty'], [5, '5 kart'], [22, '22 karty'], [12, '12 kart']],
  };
  for (const [l, want] of Object.entries(cases)) {
    useCatalogue(l, cats[l]);
    for (const [n, s] of want) assert.equal(t('pile.cards', { n }), s, `${l} ${n}`);
  }
  useCatalogue('en', cats.en);
  assert.equal(t('hud.undoLeft', { n: 1 }), '1 undo step left');
});

test('a provisional rating has a question mark, in each language\'s digits', () => {
  useCatalogue('en', cats.en);
  assert.equal(ratingText(1500, true), '1,500?');
  assert.equal(ratingText(1712, false), '1,712');
  useCatalogue('pl', cats.pl);
  assert.equal(ratingText(1712, true), new Intl.NumberFormat('pl').format(1712) + '?');
  useCatalogue('en', cats.en);
});
