// The win dialog of a solo game: the cascade, then the score, time and
// moves, the rank a daily challenge's game won, and the ways on from it —
// a new game, the first screen, the replay.
import { api } from './api.js';
import { t, formatScore, formatTime } from './i18n.js';
import { celebrate } from './celebrate.js';

const $ = (s, r = document) => r.querySelector(s);

/**
 * winDialog wires #dlg-win and returns the solo mode's onWin(view,
 * sources). ui: {elapsed() (the time of the game on screen), again(),
 * home(), replay(id)}, what the dialog's buttons do.
 */
export function winDialog(ui) {
  $('#dlg-win').addEventListener('close', () => {
    const r = $('#dlg-win').returnValue;
    if (r === 'new') ui.again();
    else if (r === 'home') ui.home();
    else if (r === 'replay') ui.replay(new URLSearchParams(location.search).get('game'));
  });
  return (v, sources) => {
    celebrate(sources);
    $('[data-testid=win-score]').textContent = formatScore(v.score, v.scoring);
    $('[data-testid=win-time]').textContent = formatTime(ui.elapsed());
    $('[data-testid=win-moves]').textContent = v.moves;
    dailyRank(v);
    setTimeout(() => { if (!$('#dlg-win').open) $('#dlg-win').showModal(); }, 600);
  };
}

/** dailyRank shows, on the win dialog of a daily challenge's game, the rank it won. */
async function dailyRank(v) {
  const el = $('[data-testid=win-rank]');
  el.hidden = true;
  if (!v.daily) return;
  try {
    const d = await api('GET', `/api/v1/daily/${encodeURIComponent(v.daily)}`);
    const c = d.challenges.find((x) => x.game === v.id);
    if (!c?.rank) return;
    el.textContent = t('daily.rank', { rank: c.rank, n: c.players });
    el.hidden = false;
  } catch { /* the rank is a bonus on the dialog */ }
}
