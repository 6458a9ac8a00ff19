// The list of a player's finished games (My games), each with a button to
// watch its replay.
import { t } from './i18n.js';

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
