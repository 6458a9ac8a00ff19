// Entry point: session, language, dialogs, and the mode on screen — the
// first screen, the statistics, a solo game, the race lobby or a race — which the URL
// chooses. Only one mode is live at a time: switching disposes of the old
// one (its listeners, timers and socket) before the next one starts.
//
// History: moving to another screen is a new entry (pushState); a change
// of the same screen (a new deal over a game, a race's own URL) replaces
// its entry. Each entry keeps its depth above the first screen, which is
// always at the bottom, so Home goes back there instead of piling up.
import { api, ensurePlayer } from './api.js';
import { loadLang, pickLang, t, lang, formatScore, formatTime } from './i18n.js';
import { loadSettings, saveSettings, applySettings } from './settings.js';
import { settingsDialog } from './prefs.js';
import { celebrate } from './celebrate.js';
import { SoloMode } from './solo/mode.js';
import { HomeMode, unfinished, resumeItems } from './home.js';
import { StatsMode } from './stats.js';
import { DailyMode } from './daily.js';
import { checkCode } from './code.js';
import { accountSection, redeem, linkError } from './account.js';
import { blocksSection } from './block.js';
import { gamesItems } from './games.js';

const $ = (s, r = document) => r.querySelector(s);
const settings = loadSettings();
applySettings(settings);

let toastTimer = 0;
function toast(msg) {
  const el = $('#toast');
  el.textContent = msg;
  el.classList.add('on');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove('on'), 2600);
}

/** translate fills every element marked with a catalogue key. */
function translate() {
  document.documentElement.lang = lang();
  document.title = t('title');
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-label]')) {
    el.setAttribute('aria-label', t(el.dataset.i18nLabel));
    el.title = t(el.dataset.i18nLabel);
  }
  for (const el of document.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  const help = $('#dlg-help .helptext');
  help.replaceChildren();
  for (const [h, p] of t(document.body.dataset.mode === 'race' ? 'race.help' : 'help.sections')) {
    const h3 = document.createElement('h3');
    h3.textContent = h;
    const para = document.createElement('p');
    para.textContent = p;
    help.append(h3, para);
  }
}

let mode = null; // the mode on screen: a HomeMode, StatsMode, SoloMode, LobbyMode, RaceMode or ReplayMode (null: none yet)
let kind = ''; // which screen: 'home', 'stats', 'daily', 'solo', 'lobby', 'race' or 'replay'
let me = null; // the player
let routing = 0; // counts the switches begun: one overtaken by a newer one gives way

/** begin starts a switch of screens; the function it returns tells whether a newer one began since. */
function begin() {
  const n = ++routing;
  return () => n !== routing;
}

/** use disposes of the mode on screen, then starts the next one with make(). */
function use(k, make) {
  const old = mode;
  mode = null;
  old?.dispose();
  kind = k;
  const st = history.state;
  mode = make();
  // the race screens write their own URL; the entry keeps its depth
  if (st?.dsol && !history.state?.dsol) history.replaceState(st, '', location.pathname + location.search);
  return mode;
}

const depth = () => history.state?.depth ?? 0;

/** go makes url a new history entry, one above the one on screen. */
function go(url) {
  history.pushState({ dsol: 1, depth: depth() + 1 }, '', url);
}

/** home goes back to the first screen: down the history to it, or (its place unknown) to a new entry. */
function home() {
  const d = history.state?.dsol ? depth() : -1;
  if (d > 0) return history.go(-d); // popstate routes
  if (d < 0) history.pushState({ dsol: 1, depth: 0 }, '', '/');
  route();
}

const soloUI = {
  settings,
  toast,
  onBanner: (down) => banner(down),
  onWin(v, sources) {
    celebrate(sources);
    $('[data-testid=win-score]').textContent = formatScore(v.score, v.scoring);
    $('[data-testid=win-time]').textContent = formatTime(mode.elapsed);
    $('[data-testid=win-moves]').textContent = v.moves;
    dailyRank(v);
    setTimeout(() => { if (!$('#dlg-win').open) $('#dlg-win').showModal(); }, 600);
  },
};

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

/** errMessage words an error for the player: a game code's wrong part, else its code. */
function errMessage(e) {
  if (e.field) return t('code.' + e.field);
  return t('err.' + e.code) === 'err.' + e.code ? t('err.generic') : t('err.' + e.code);
}

function showError(e) {
  toast(errMessage(e));
}

/**
 * openView puts game v on screen. Coming from another screen it is a new
 * history entry; over a game (a new deal, the game a /?code= link made) it
 * takes that entry's place.
 */
function openView(v) {
  const url = `/?game=${encodeURIComponent(v.id)}`;
  if (kind === 'solo' || !kind) history.replaceState({ dsol: 1, depth: depth() }, '', url);
  else go(url);
  document.body.dataset.mode = 'solo';
  use('solo', () => new SoloMode($('#table'), soloUI)).open(v);
  $('[data-testid=winnable-mark]').hidden = !v.winnable;
  // a daily challenge's game has no code to show (the server keeps it until the day closes)
  $('[data-testid=daily-mark]').hidden = !v.daily;
  $('#b-copy').hidden = !!v.daily;
}

/** openGame shows the game that get() fetches, unless another switch began meanwhile. */
async function openGame(get) {
  const gone = begin();
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
    const [v, r] = await Promise.all([api('POST', '/api/v1/races', { code: c.code }), raceModule()]);
    try { sessionStorage.setItem(r.INV + v.id, v.invite); } catch { /* private mode */ }
    go(`/?race=${encodeURIComponent(v.id)}`);
    return route();
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

// ---- settings ----
const showSettings = settingsDialog(settings, (relang) => {
  if (relang) translate();
  mode?.redraw();
});
const loadBlocks = blocksSection({ toast });
/** openSettings opens the settings dialog with the blocked players' list loaded anew. */
const openSettings = () => { showSettings(); loadBlocks(); };
$('#b-set').onclick = openSettings;

// ---- your account ----
/** signedIn puts this device on another player (p, or a fresh one for null) and shows the first screen. */
async function signedIn(p, msg) {
  for (const d of document.querySelectorAll('dialog[open]')) d.close('');
  try { me = p || await ensurePlayer(); } catch (e) { showError(e); }
  home();
  toast(msg);
}
accountSection({ signedIn });

// A transfer code's link (/#link=CODE from its QR code, or /?link=CODE)
// signs this device in after a confirmation; it leaves the address at once.
const linkParam = new URLSearchParams(location.hash.slice(1)).get('link') || new URLSearchParams(location.search).get('link');
if (linkParam) history.replaceState(null, '', '/');

// ---- HUD buttons ----
$('#b-new').onclick = () => showNew();
$('#b-home').onclick = () => home();
$('#b-undo').onclick = () => mode?.undo?.();
$('#b-hint').onclick = () => mode?.hint?.();
$('#b-finish').onclick = () => mode?.finish?.();
const showHelp = () => $('#dlg-help').showModal();
$('#b-help').onclick = showHelp;
$('#b-copy').onclick = async () => {
  const code = kind === 'solo' && mode?.view?.code;
  if (!code) return;
  const url = `${location.origin}/?code=${code}`;
  if (navigator.share && matchMedia('(pointer: coarse)').matches) {
    try { await navigator.share({ title: t('title'), text: code, url }); return; } catch { /* cancelled */ }
  }
  try { await navigator.clipboard.writeText(code); } catch {
    const ta = Object.assign(document.createElement('textarea'), { value: code });
    document.body.append(ta); ta.select(); document.execCommand('copy'); ta.remove();
  }
  toast(t('hud.copied'));
};
$('#dlg-win').addEventListener('close', () => {
  const r = $('#dlg-win').returnValue;
  if (r === 'new') showNew();
  else if (r === 'home') home();
  else if (r === 'replay') watch(new URLSearchParams(location.search).get('game'));
});
// the stuck notice's ways out: take back a step, ask for a hint, or deal again
$('[data-testid=stuck-undo]').onclick = () => mode?.undo?.();
$('[data-testid=stuck-hint]').onclick = () => mode?.hint?.();
$('[data-testid=stuck-new]').onclick = () => showNew();
// Enter or Space on its buttons is theirs, not the table's (a draw)
$('#stuck').addEventListener('keydown', (e) => { if (e.target.closest('button')) e.stopPropagation(); });
document.addEventListener('keydown', (e) => {
  if (e.key.toLowerCase() === 'n' && kind === 'solo' && !e.ctrlKey && !e.metaKey && !e.altKey && !document.querySelector('dialog[open]') && !e.target.closest?.('input, select')) showNew();
});

// ---- screens ----

function banner(down) {
  const b = $('#banner');
  b.hidden = !down;
  b.textContent = t('net.reconnecting');
  document.body.dataset.online = down ? '0' : '1';
}

/** raceModule loads the race screens (and their styles) the first time they are needed. */
async function raceModule() {
  const r = await import('./race/mode.js');
  await r.ready();
  return r;
}

const raceUI = {
  settings, toast, translate, banner,
  get me() { return me; },
  async openRace(v, o) {
    const gone = begin();
    const r = await raceModule();
    if (gone()) return;
    if (kind === 'lobby') go(`/?race=${encodeURIComponent(v.id)}`);
    use('race', () => new r.RaceMode(raceUI, v, o));
  },
  async toLobby() {
    const gone = begin();
    const r = await raceModule();
    if (gone()) return;
    if (kind === 'race') go('/?mode=race');
    use('lobby', () => new r.LobbyMode(raceUI));
  },
};

const homeUI = {
  settings,
  play: () => deal(settings.draw, settings.scoring).catch(showError),
  resume: showResume,
  games: showGames,
  options: () => showNew(),
  help: showHelp,
  prefs: openSettings,
};

// ---- finished games and their replays ----
const dlgGames = $('#dlg-games');

/** showGames lists the caller's finished games, newest first, a page of games at a time, each with Watch. */
async function showGames() {
  const list = $('[data-testid=games-list]');
  const more = $('[data-testid=games-more]');
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
}

/** watch opens the replay of finished game id, a new history entry. */
function watch(id) {
  if (!id) return;
  go(`/?replay=${encodeURIComponent(id)}`);
  route();
}

const replayUI = {
  toast,
  home: () => home(),
  playDeal: (code) => { go('/'); openCode(code).catch(showError); },
};

/** showReplay fetches replay id and plays it again; a race's needs the race table. */
async function showReplay(id, gone) {
  const [rp, { ReplayMode }] = await Promise.all([api('GET', `/api/v1/games/${encodeURIComponent(id)}/replay`), import('./replay.js')]);
  if (rp.kind === 'race') {
    const [tbl, lay] = await Promise.all([import('./race/table.js'), import('./race/layout.js'), raceModule()]);
    replayUI.race = { ...tbl, ...lay };
  }
  if (gone()) return;
  use('replay', () => new ReplayMode(replayUI, rp));
  translate();
}

function showHome() {
  use('home', () => new HomeMode(homeUI));
  translate();
}

function showDaily() {
  use('daily', () => new DailyMode({ error: showError, open: (v) => openGame(async () => v) }));
  translate();
}

function showStats() {
  use('stats', () => new StatsMode({ toast, error: showError }));
  translate();
}

/** route shows what the URL asks for: a race, the race lobby, a solo game, or the first screen. */
async function route() {
  const gone = begin();
  for (const d of document.querySelectorAll('dialog[open]')) d.close('');
  document.body.dataset.ready = '0';
  const q = new URLSearchParams(location.search);
  if (q.get('mode') === 'race' || q.get('race')) {
    const r = await raceModule();
    if (gone()) return;
    if (!q.get('race')) return void use('lobby', () => new r.LobbyMode(raceUI));
    let to;
    try {
      to = await r.resolve(q, me, toast);
    } catch (e) {
      if (gone()) return;
      showError(e);
      return void use('lobby', () => new r.LobbyMode(raceUI));
    }
    if (!gone()) use('race', () => new r.RaceMode(raceUI, to.view, to));
    return;
  }
  if (q.get('replay')) {
    try {
      return void (await showReplay(q.get('replay'), gone));
    } catch (e) {
      if (gone()) return;
      history.replaceState({ dsol: 1, depth: depth() }, '', '/');
      showHome();
      return void toast(e.code === 'forbidden' ? t('replay.notYet') : errMessage(e));
    }
  }
  if (q.get('mode') === 'stats') return showStats();
  if (q.get('mode') === 'daily') return showDaily();
  if (!q.get('code') && !q.get('game')) return showHome();
  document.body.dataset.mode = 'solo';
  for (const k of ['seat', 'watch', 'status']) delete document.body.dataset[k];
  if (kind !== 'solo') { use('solo', () => null); translate(); }
  try {
    if (q.get('code')) return void (await openCode(q.get('code')));
    const v = await api('GET', `/api/v1/games/${encodeURIComponent(q.get('game'))}`);
    if (!gone()) openView(v);
  } catch (e) {
    if (gone()) return;
    // no such game, or a code that is not valid: the first screen, and
    // the new game sheet saying what is wrong with the code
    history.replaceState({ dsol: 1, depth: depth() }, '', '/');
    showHome();
    if (q.get('code')) showNew(errMessage(e), q.get('code'));
    else showError(e);
  }
}

// links between the screens (the first screen, the race lobby) switch
// modes in the page; the browser's back and forward go through the same route
document.addEventListener('click', (e) => {
  const a = e.target.closest?.('a[href]');
  if (!a || a.target || e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname !== '/') return;
  e.preventDefault();
  for (const d of document.querySelectorAll('dialog[open]')) d.close('');
  if (!url.search) return home();
  go(url.pathname + url.search);
  route();
});
addEventListener('popstate', () => route());

// The first screen is the bottom entry of the app's history: a link
// straight into a game or a race gets it underneath, so Back from there
// comes to it, and Back from it leaves the app.
if (!history.state?.dsol) {
  const here = location.pathname + location.search;
  history.replaceState({ dsol: 1, depth: 0 }, '', '/');
  if (here !== '/') history.pushState({ dsol: 1, depth: 1 }, '', here);
}

async function boot() {
  await loadLang(settings.lang || pickLang(navigator.languages || [navigator.language]));
  translate();
  document.body.dataset.ready = '0';
  try {
    me = await ensurePlayer();
  } catch (e) {
    showError(e);
    setTimeout(boot, 3000);
    return;
  }
  if (linkParam && !boot.linked) {
    boot.linked = true;
    try {
      const p = await redeem(linkParam);
      if (p) { me = p; toast(t('account.linked', { name: p.name })); }
    } catch (e) { toast(linkError(e)); }
  }
  route();
}
boot();
