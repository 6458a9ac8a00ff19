// The list of a player's finished games (My games), each with a button to
// watch its replay.
import { api } from './api.js';
import { t } from './i18n.js';
import { showError } from './notice.js';

const when = (iso) => new Date(iso).toLocaleDateString(document.documentElement.lang || undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

/**
 * gamesItems appends games (summaries of GET /api/v1/games) to ul, each a
 * Watch button calling open(id); last says no page follows, so an empty
 * list says there is nothing yet.
 */
export function gamesItems(ul, games, open, last) {
  for (const g of games) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.game = g.id;
    const what = `${t('games.' + g.kind)} · ${t(g.kind === 'solo' ? 'games.won' : 'games.over')} · ${when(g.updatedAt || g.createdAt)}`;
    b.textContent = `${t('games.watch')}: ${what}${g.code ? ' · ' + g.code : ''}`;
    li.append(b);
    b.onclick = () => open(g.id);
    ul.append(li);
  }
  if (last && !ul.children.length) {
    const li = document.createElement('li');
    li.textContent = t('games.none');
    ul.append(li);
  }
}

/**
 * gamesDialog returns the function that opens #dlg-games: the caller's
 * finished games, newest first, a page of games at a time, each with Watch,
 * which closes the dialog and calls watch(id).
 */
export function gamesDialog(watch) {
  const dlgGames = document.querySelector('#dlg-games');
  return async function showGames() {
    const list = document.querySelector('[data-testid=games-list]');
    const more = document.querySelector('[data-testid=games-more]');
    list.replaceChildren();
    more.hidden = true;
    if (!dlgGames.open) dlgGames.showModal();
    let cursor = '';
    const page = async () => {
      more.hidden = true;
      try {
        const r = await api('GET', `/api/v1/games?limit=30${cursor ? '&cursor=' + encodeURIComponent(cursor) : ''}`);
        gamesItems(list, r.games.filter((g) => g.status === 'won' || g.status === 'over'), (id) => { dlgGames.close(); watch(id); }, !r.next);
        cursor = r.next || '';
        more.hidden = !cursor;
      } catch (e) { showError(e); }
    };
    more.onclick = page;
    await page();
  };
}
