// Entry point: session, language, dialogs, and the mode on screen — a solo
// game, the race lobby or a race — which the URL chooses. Only one mode is
// live at a time: switching disposes of the old one (its listeners, timers
// and socket) before the next one starts.
import { api, ensurePlayer } from './api.js';
import { LANGS, loadLang, pickLang, t, lang, formatScore, formatTime } from './i18n.js';
import { loadSettings, saveSettings, applySettings } from './settings.js';
import { celebrate } from './celebrate.js';
import { SoloMode } from './solo/mode.js';
import { checkCode } from './code.js';

const $ = (s, r = document) => r.querySelector(s);
const settings = loadSettings();
applySettings(settings);
const LAST = 'dsol.last';

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

let mode = null; // the mode on screen: a SoloMode, LobbyMode or RaceMode (null: no game yet)
let kind = ''; // which screen: 'solo', 'lobby' or 'race'
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
  mode = make();
  return mode;
}

const soloUI = {
  settings,
  toast,
  onBanner: (down) => banner(down),
  onWin(v, sources) {
    celebrate(sources);
    $('[data-testid=win-summary]').textContent = t('game.summary', {
      score: formatScore(v.score, v.scoring), moves: v.moves, time: formatTime(mode.elapsed),
    });
    setTimeout(() => { if (!$('#dlg-win').open) $('#dlg-win').showModal(); }, 600);
  },
};

/** errMessage words an error for the player: a game code's wrong part, else its code. */
function errMessage(e) {
  if (e.field) return t('code.' + e.field);
  return t('err.' + e.code) === 'err.' + e.code ? t('err.generic') : t('err.' + e.code);
}

function showError(e) {
  toast(errMessage(e));
}

function openView(v) {
  document.body.dataset.mode = 'solo';
  use('solo', () => new SoloMode($('#table'), soloUI)).open(v);
  try { localStorage.setItem(LAST, v.id); } catch { /* private mode */ }
  history.replaceState(null, '', `/?game=${encodeURIComponent(v.id)}`);
}

/** openGame shows the game that get() fetches, unless another switch began meanwhile. */
async function openGame(get) {
  const gone = begin();
  const v = await get();
  if (!gone()) openView(v);
  return v;
}

const newGame = (body) => openGame(() => api('POST', '/api/v1/games', body));

// ---- new game dialog ----
const dlgNew = $('#dlg-new');
const newErr = $('[data-testid=new-error]');

async function showNew() {
  newErr.hidden = true;
  if (!dlgNew.open) dlgNew.showModal();
  const list = $('[data-testid=resume-list]');
  list.replaceChildren();
  try {
    const r = await api('GET', '/api/v1/games?status=playing');
    const games = (Array.isArray(r) ? r : r?.games || []).filter((g) => (g.kind || 'solo') === 'solo' && g.status !== 'won');
    if (!games.length) {
      const li = document.createElement('li');
      li.textContent = t('newGame.none');
      list.append(li);
    }
    for (const g of games.slice(0, 20)) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.game = g.id;
      b.textContent = t('newGame.started', { code: g.code, score: formatScore(g.score ?? 0, g.scoring), moves: g.moves ?? 0 });
      b.onclick = async () => {
        try { await openGame(() => api('GET', `/api/v1/games/${encodeURIComponent(g.id)}`)); dlgNew.close(); } catch (e) { showError(e); }
      };
      li.append(b);
      list.append(li);
    }
  } catch { /* the list is a convenience */ }
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
    history.pushState(null, '', `/?race=${encodeURIComponent(v.id)}`);
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
    else await newGame({ draw: +f.draw.value, scoring: f.scoring.value });
    dlgNew.close();
  } catch (err) {
    newErr.textContent = errMessage(err);
    newErr.hidden = false;
  }
});
dlgNew.querySelector('input[name=code]').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') { e.preventDefault(); dlgNew.querySelector('button[value=code]').click(); }
});

// ---- settings ----
const dlgSet = $('#dlg-set');
const setForm = dlgSet.querySelector('form');
for (const l of LANGS) {
  const o = document.createElement('option');
  o.value = l;
  setForm.lang.append(o);
}
async function fillLangNames() {
  for (const o of setForm.lang.options) o.textContent = (await import(`./i18n/${o.value}.js`)).default.lang;
}
$('#b-set').onclick = () => {
  setForm.lang.value = lang();
  setForm.theme.value = settings.theme;
  for (const k of ['dblclick', 'fourColor', 'leftHanded']) setForm[k].checked = !!settings[k];
  fillLangNames();
  dlgSet.showModal();
};
setForm.addEventListener('change', async () => {
  for (const k of ['dblclick', 'fourColor', 'leftHanded']) settings[k] = setForm[k].checked;
  settings.theme = setForm.theme.value;
  if (setForm.lang.value !== lang()) {
    settings.lang = setForm.lang.value;
    await loadLang(settings.lang);
    translate();
  }
  saveSettings(settings);
  applySettings(settings);
  mode?.redraw();
});

// ---- HUD buttons ----
$('#b-new').onclick = () => showNew();
$('#b-undo').onclick = () => mode?.undo?.();
$('#b-help').onclick = () => $('#dlg-help').showModal();
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
$('#dlg-win').addEventListener('close', () => { if ($('#dlg-win').returnValue === 'new') showNew(); });
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
    if (!gone()) use('race', () => new r.RaceMode(raceUI, v, o));
  },
  async toLobby() {
    const gone = begin();
    const r = await raceModule();
    if (!gone()) use('lobby', () => new r.LobbyMode(raceUI));
  },
};

/** route shows what the URL asks for: a race, the race lobby, or a solo game. */
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
  document.body.dataset.mode = 'solo';
  for (const k of ['seat', 'watch', 'status']) delete document.body.dataset[k];
  if (kind !== 'solo') { use('solo', () => null); translate(); }
  try {
    if (q.get('code')) return void (await openCode(q.get('code')));
  } catch (e) {
    if (gone()) return;
    showError(e);
    return showNew();
  }
  const id = q.get('game') || localStorage.getItem(LAST);
  if (id) {
    try {
      const v = await api('GET', `/api/v1/games/${encodeURIComponent(id)}`);
      if (gone()) return;
      if (v.status !== 'won' || q.get('game')) return openView(v);
    } catch { /* gone or not ours */ }
  }
  if (!gone()) showNew();
}

// links between the screens (a solo game, the race lobby) switch modes in
// the page; the browser's back and forward go through the same route
document.addEventListener('click', (e) => {
  const a = e.target.closest?.('a[href]');
  if (!a || a.target || e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname !== '/') return;
  e.preventDefault();
  history.pushState(null, '', url.pathname + url.search);
  route();
});
addEventListener('popstate', () => route());

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
  route();
}
boot();
