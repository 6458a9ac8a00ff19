// The notice of a name the server changed: shown once when GET
// /api/v1/me carries `renamed`, in the player's language; closing it tells
// the server it was seen, and the lobby asks for a name again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install } from './dom.mjs';
import { LANGS, useCatalogue } from '../js/i18n.js';
import { renamedNotice, NAMED } from '../js/renamed.js';

const cats = {};
for (const l of LANGS) cats[l] = (await import(`../js/i18n/${l}.js`)).default;

const me = { id: 'p1', name: 'Player p1AB', rating: 1500, ratingDeviation: 350, renamed: { from: 'Сomputer', at: '2030-01-02T03:04:05Z' } };
const seen = 'DELETE /api/v1/me/renamed';
const dialog = () => document.querySelector('#dlg-renamed');

test('no notice without a renaming', async () => {
  const b = install({ [seen]: null });
  const chosen = [];
  assert.equal(renamedNotice({ ...me, renamed: undefined }, () => chosen.push(1)), false);
  assert.equal(renamedNotice(null, () => chosen.push(1)), false);
  await b.flush();
  assert.equal(dialog().open, false);
  assert.deepEqual(b.fetched, []);
  assert.deepEqual(chosen, []);
});

test('the notice says the old name and the new one in each language, and is seen once closed', async () => {
  for (const l of LANGS) {
    useCatalogue(l, cats[l]);
    const b = install({ [seen]: null });
    localStorage.setItem(NAMED, '1');
    const chosen = [];
    assert.equal(renamedNotice(me, () => chosen.push(1)), true);
    assert.equal(dialog().open, true, l);
    const text = document.querySelector('[data-testid=renamed-text]').textContent;
    assert.ok(text.includes('Сomputer') && text.includes('Player p1AB'), `${l}: ${text}`);
    assert.equal(localStorage.getItem(NAMED), null, `${l}: the lobby asks for a name again`);
    await b.flush();
    assert.deepEqual(b.fetched, [], `${l}: not seen before it is closed`);
    dialog().close('ok');
    await b.flush();
    assert.deepEqual(b.fetched, [seen], l);
    assert.deepEqual(chosen, [], l);
    // the dialog's listener went with its closing
    renamedNotice({ ...me, renamed: undefined }, () => {});
    dialog().showModal();
    dialog().close('ok');
    await b.flush();
    assert.deepEqual(b.fetched, [seen], `${l}: seen once`);
  }
  useCatalogue('en', cats.en);
});

test('"Choose a name" goes to the lobby once the notice is seen', async () => {
  const b = install({ [seen]: null });
  const chosen = [];
  renamedNotice(me, () => chosen.push(b.fetched.length));
  dialog().close('name');
  await b.flush();
  assert.deepEqual(b.fetched, [seen]);
  assert.deepEqual(chosen, [1]);
});

test('a notice closed by a switch of screens counts as seen; a failed acknowledgement shows it again next time', async () => {
  const b = install({}); // the DELETE fails (404 here)
  renamedNotice(me, () => {});
  dialog().close('');
  await b.flush();
  assert.deepEqual(b.fetched, [seen]);
  assert.equal(dialog().open, false);
});
