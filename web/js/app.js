// Entry point: session, language, and the mode on screen — the first
// screen, the statistics, the daily challenges, a solo game, the race lobby,
// an arena, a race or a replay — which the URL chooses. Only one mode is live at a
// time: switching disposes of the old one (its listeners, timers and
// socket) before the next one starts. The ways to open a solo game are in
// open.js, the HUD in hud.js, the win dialog in win.js, the notices in
// notice.js, the notice of a name the server changed in renamed.js.
//
// An arena's socket (race/arenalink.js) outlives the modes: it stays open
// while the arena's screen or one of its races is on screen, since a
// joined player is paired only while it is; a pairing opens the race, and
// the race's end goes back to the arena.
//
// History: moving to another screen is a new entry (pushState); a change
// of the same screen (a new deal over a game, a race's own URL) replaces
// its entry. Each entry keeps its depth above the first screen, which is
// always at the bottom, so Home goes back there instead of piling up.
import { api, ensurePlayer, signedOutNotice } from './api.js';
import { loadLang, pickLang, t, lang } from './i18n.js';
import { loadSettings, applySettings } from './settings.js';
import { settingsDialog } from './prefs.js';
import { HomeMode } from './home.js';
import { StatsMode } from './stats.js';
import { DailyMode } from './daily.js';
import { accountSection, redeem, linkError } from './account.js';
import { blocksSection } from './block.js';
import { gamesDialog } from './games.js';
import { toast, errMessage, showError, banner } from './notice.js';
import { gameOpener } from './open.js';
import { winDialog } from './win.js';
import { hudButtons } from './hud.js';
import { renamedNotice } from './renamed.js';

const $ = (s, r = document) => r.querySelector(s);
const settings = loadSettings();
applySettings(settings);

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

let mode = null; // the mode on screen: a HomeMode, StatsMode, SoloMode, LobbyMode, ArenaMode, RaceMode or ReplayMode (null: none yet)
let kind = ''; // which screen: 'home', 'stats', 'daily', 'solo', 'lobby', 'arena', 'race' or 'replay'
let link = null; // the open ArenaLink: of the arena on screen, or of the arena of the race on screen
let raceMod = null; // the race screens' module, once loaded
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
  // the arena's socket stays open on its screen and in its races, and only there
  const arena = k === 'arena' ? mode?.id : k === 'race' ? mode?.view?.arena : null;
  if (link && link.id !== arena) { link.close(); link = null; }
  if (arena) arenaLink(arena);
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

// ---- a solo game: the mode's hooks, and the ways to open one ----
const soloUI = {
  settings,
  toast,
  onBanner: (down) => banner(down),
  onWin: (v, sources) => onWin(v, sources), // the win dialog, wired below
};

const { openView, openGame, deal, showNew, showResume, openCode } = gameOpener({
  settings, soloUI, begin, use, kind: () => kind, depth, go, route, raceModule,
});

// ---- settings ----
const showSettings = settingsDialog(settings, (relang) => {
  if (relang) translate();
  mode?.redraw();
});
const loadBlocks = blocksSection({ toast });
/** openSettings opens the settings dialog with the blocked players' list loaded anew. */
const openSettings = () => { showSettings(); loadBlocks(); };

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

// ---- HUD buttons and the win dialog ----
const showHelp = () => $('#dlg-help').showModal();
hudButtons({ mode: () => mode, kind: () => kind, showNew, home, help: showHelp, prefs: openSettings });
const onWin = winDialog({ elapsed: () => mode.elapsed, again: () => showNew(), home: () => home(), replay: (id) => watch(id) });

// ---- screens ----

/** raceModule loads the race screens (and their styles) the first time they are needed. */
async function raceModule() {
  const r = await import('./race/mode.js');
  await r.ready();
  raceMod = r;
  return r;
}

/** arenaLink returns the open link to arena id, opening it (and closing another) if need be. */
function arenaLink(id) {
  if (link?.id === id && !link.closed) return link;
  link?.close();
  link = new raceMod.ArenaLink(id, {
    // paired: the race at once (not again when it is on screen already)
    paired: (race) => { if (!(kind === 'race' && mode?.view?.id === race)) openArenaRace(race); },
    // the race on screen ended and counted: back to the standings, with its points
    scored: (m) => { if (kind === 'race' && mode?.view?.id === m.race) raceUI.toArena(id); },
  });
  link.start();
  return link;
}

/** openArenaRace opens race id of the arena, a new history entry. */
async function openArenaRace(id) {
  const gone = begin();
  let v;
  try { v = await api('GET', `/api/v1/games/${encodeURIComponent(id)}`); } catch (e) { if (!gone()) showError(e); return; }
  if (gone()) return;
  go(`/?race=${encodeURIComponent(id)}`);
  use('race', () => new raceMod.RaceMode(raceUI, v));
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
    if (kind === 'race' || kind === 'arena') go('/?mode=race');
    use('lobby', () => new r.LobbyMode(raceUI));
  },
  /** toArena shows arena id's screen, a new history entry. */
  async toArena(id) {
    const gone = begin();
    const r = await raceModule();
    if (gone()) return;
    go(`/?arena=${encodeURIComponent(id)}`);
    use('arena', () => new r.ArenaMode(raceUI, id));
  },
  /** arenaLink returns the open link to arena id, or null. */
  arenaLink: (id) => (link?.id === id ? link : null),
  link: (id) => arenaLink(id),
  openArenaRace: (id) => openArenaRace(id),
  openArena: (id) => raceUI.toArena(id),
};

// ---- finished games and their replays ----
const showGames = gamesDialog((id) => watch(id));

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
    const [tbl] = await Promise.all([import('./race/table.js'), raceModule()]);
    replayUI.race = tbl;
  }
  if (gone()) return;
  use('replay', () => new ReplayMode(replayUI, rp));
  translate();
}

const homeUI = {
  settings,
  play: () => deal(settings.draw, settings.scoring).catch(showError),
  resume: showResume,
  games: showGames,
  options: () => showNew(),
  help: showHelp,
  prefs: openSettings,
};

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
  if (q.get('arena')) {
    const r = await raceModule();
    if (!gone()) use('arena', () => new r.ArenaMode(raceUI, q.get('arena')));
    return;
  }
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
  if (signedOutNotice()) toast(t('account.revoked'));
  if (linkParam && !boot.linked) {
    boot.linked = true;
    try {
      const p = await redeem(linkParam);
      if (p) { me = p; toast(t('account.linked', { name: p.name })); }
    } catch (e) { toast(linkError(e)); }
  }
  await route();
  // after the screen is up: a switch of screens closes every dialog
  renamedNotice(me, () => { go('/?mode=race'); route(); });
}
boot();
