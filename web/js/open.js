// Opening a solo game: putting one on screen, dealing a new one (winnable
// deals only, if asked), the new game sheet (draw, scoring, a game code), the
// unfinished games, and a game code, which opens a race's waiting room when
// it is a race's. The screens and the history are app.js's: it passes in
// what these need of them.
import { api } from './api.js';
import { t } from './i18n.js';
import { saveSettings } from './settings.js';
import { SoloMode } from './solo/mode.js';
import { unfinished, resumeItems } from './home.js';
import { checkCode } from './code.js';
import { toast, errMessage, showError } from './notice.js';

const $ = (s, r = document) => r.querySelector(s);

/**
 * gameOpener wires the new game sheet (#dlg-new) and the unfinished games
 * (#dlg-resume), and returns the ways to open a game. nav: {settings,
 * soloUI (the solo mode's hooks), begin(), use(kind, make), kind() (the
 * screen on show), depth(), go(url), route(), raceModule()}, as in app.js.
 */
export function gameOpener(nav) {
  const { settings } = nav;

  /**
   * openView puts game v on screen. Coming from another screen it is a new
   * history entry; over a game (a new deal, the game a /?code= link made) it
   * takes that entry's place.
   */
  function openView(v) {
    const url = `/?game=${encodeURIComponent(v.id)}`;
    const kind = nav.kind();
    if (kind === 'solo' || !kind) history.replaceState({ dsol: 1, depth: nav.depth() }, '', url);
    else nav.go(url);
    document.body.dataset.mode = 'solo';
    nav.use('solo', () => new SoloMode($('#table'), nav.soloUI)).open(v);
    $('[data-testid=winnable-mark]').hidden = !v.winnable;
    // a daily challenge's game has no code to show (the server keeps it until the day closes)
    $('[data-testid=daily-mark]').hidden = !v.daily;
    $('#b-copy').hidden = !!v.daily;
  }

  /** openGame shows the game that get() fetches, unless another switch began meanwhile. */
  async function openGame(get) {
    const gone = nav.begin();
    const v = await get();
    if (!gone()) openView(v);
    return v;
  }

  const newGame = (body) => openGame(() => api('POST', '/api/v1/games', body));

  // ---- the new game sheet and the unfinished games ----
  const dlgNew = $('#dlg-new');
  const newErr = $('[data-testid=new-error]');
  const dlgResume = $('#dlg-resume');

  /** showNew opens the new game sheet on the last draw and scoring; err (and the code that caused it) if given. */
  function showNew(err, code) {
    const f = dlgNew.querySelector('form');
    f.draw.value = String(settings.draw);
    f.scoring.value = settings.scoring;
    f.winnable.checked = !!settings.winnable;
    if (code) f.code.value = code;
    newErr.textContent = err || '';
    newErr.hidden = !err;
    if (!dlgNew.open) dlgNew.showModal();
  }

  /**
   * deal starts a new game in draw and scoring, and keeps them for Play. With
   * "Winnable deals only" on it asks for a deal the solver won; when the server
   * knows none of that mode yet, it deals a random one and says so.
   */
  async function deal(draw, scoring) {
    if (settings.draw !== draw || settings.scoring !== scoring) {
      Object.assign(settings, { draw, scoring });
      saveSettings(settings);
    }
    if (!settings.winnable) return newGame({ draw, scoring });
    try {
      return await newGame({ draw, scoring, winnable: true });
    } catch (e) {
      if (e.code !== 'unavailable') throw e;
      toast(t('newGame.noWinnable'));
      return newGame({ draw, scoring });
    }
  }

  /** showResume opens the list of unfinished games; a tap on one goes back to it. */
  async function showResume() {
    const list = $('[data-testid=resume-list]');
    // The last list is not shown again while the new one loads: a game in it
    // may be over, and a tap on it would land on a button about to go.
    const wait = document.createElement('li');
    wait.textContent = t('game.loading');
    list.replaceChildren(wait);
    if (!dlgResume.open) dlgResume.showModal();
    let games = [];
    try { games = await unfinished(); } catch (e) { showError(e); }
    resumeItems(list, games, async (id) => {
      try { await openGame(() => api('GET', `/api/v1/games/${encodeURIComponent(id)}`)); dlgResume.close(); } catch (e) { showError(e); }
    });
  }

  /**
   * openCode opens a game from its code: a solo code deals that game, and a
   * race code typed in the box (typed) creates a race on that deal and opens
   * its waiting room. A code that is not valid says which part is wrong.
   */
  async function openCode(raw, typed) {
    const c = checkCode(raw);
    if (c.field) throw Object.assign(new Error(), { code: 'bad_code', field: c.field });
    if (c.kind === 'race') {
      if (!typed) throw Object.assign(new Error(), { code: 'bad_code' });
      const [v, r] = await Promise.all([api('POST', '/api/v1/races', { code: c.code }), nav.raceModule()]);
      try { sessionStorage.setItem(r.INV + v.id, v.invite); } catch { /* private mode */ }
      nav.go(`/?race=${encodeURIComponent(v.id)}`);
      return nav.route();
    }
    return newGame({ code: c.code });
  }

  dlgNew.querySelector('form').addEventListener('submit', async (e) => {
    const what = e.submitter?.value;
    if (what === 'cancel') return;
    e.preventDefault();
    const f = e.target;
    try {
      if (what === 'code') await openCode(f.code.value, true);
      else await deal(+f.draw.value, f.scoring.value);
      dlgNew.close();
    } catch (err) {
      newErr.textContent = errMessage(err);
      newErr.hidden = false;
    }
  });
  dlgNew.querySelector('input[name=winnable]').addEventListener('change', (e) => {
    settings.winnable = e.target.checked;
    saveSettings(settings);
  });
  dlgNew.querySelector('input[name=code]').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') { e.preventDefault(); dlgNew.querySelector('button[value=code]').click(); }
  });

  return { openView, openGame, deal, showNew, showResume, openCode };
}
