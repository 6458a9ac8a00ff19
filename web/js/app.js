// Entry point: session, language, dialogs, and the solo mode on the table.
import { api, ensurePlayer } from './api.js';
import { LANGS, loadLang, pickLang, t, lang, formatScore, formatTime } from './i18n.js';
import { loadSettings, saveSettings, applySettings } from './settings.js';
import { celebrate } from './celebrate.js';
import { SoloMode } from './solo/mode.js';

const $ = (s, r = document) => r.querySelector(s);
const settings = loadSettings();
applySettings(settings);
const LAST = 'dsol.last';
const CODE_RE = /^DS1-D[13][NV]-[A-Z]{7}$/;

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

const mode = new SoloMode($('#table'), {
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
});

function showError(e) {
  toast(t('err.' + e.code) === 'err.' + e.code ? t('err.generic') : t('err.' + e.code));
}

function openView(v) {
  mode.open(v);
  $('[data-testid=winnable-mark]').hidden = !v.winnable;
  try { localStorage.setItem(LAST, v.id); } catch { /* private mode */ }
  history.replaceState(null, '', `/?game=${encodeURIComponent(v.id)}`);
}

async function newGame(body) {
  const v = await api('POST', '/api/v1/games', body);
  openView(v);
  return v;
}

// ---- new game dialog ----
const dlgNew = $('#dlg-new');
const newErr = $('[data-testid=new-error]');

async function showNew() {
  newErr.hidden = true;
  dlgNew.querySelector('form').winnable.checked = !!settings.winnable;
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
        try { openView(await api('GET', `/api/v1/games/${encodeURIComponent(g.id)}`)); dlgNew.close(); } catch (e) { showError(e); }
      };
      li.append(b);
      list.append(li);
    }
  } catch { /* the list is a convenience */ }
}

async function openCode(raw) {
  const code = String(raw || '').trim().toUpperCase();
  if (!CODE_RE.test(code)) throw Object.assign(new Error(), { code: 'bad_code' });
  return newGame({ code });
}

dlgNew.querySelector('form').addEventListener('submit', async (e) => {
  const what = e.submitter?.value;
  if (what === 'cancel') return;
  e.preventDefault();
  const f = e.target;
  try {
    if (what === 'code') await openCode(f.code.value);
    else await newGame({ draw: +f.draw.value, scoring: f.scoring.value, winnable: f.winnable.checked });
    dlgNew.close();
  } catch (err) {
    // Unavailable for a winnable deal: the server knows none of this mode yet.
    if (what !== 'code' && f.winnable.checked && err.code === 'unavailable') newErr.textContent = t('newGame.noWinnable');
    else newErr.textContent = t('err.' + err.code) === 'err.' + err.code ? t('err.generic') : t('err.' + err.code);
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
  mode.render();
  race?.relang();
});

// ---- HUD buttons ----
$('#b-new').onclick = () => showNew();
$('#b-undo').onclick = () => mode.undo();
$('#b-help').onclick = () => $('#dlg-help').showModal();
$('#b-copy').onclick = async () => {
  const code = mode.view?.code;
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
  if (e.key.toLowerCase() === 'n' && !race && !e.ctrlKey && !e.metaKey && !e.altKey && !document.querySelector('dialog[open]') && !e.target.closest?.('input, select')) showNew();
});

// ---- start ----
let race = null;

function banner(down) {
  const b = $('#banner');
  b.hidden = !down;
  b.textContent = t('net.reconnecting');
  document.body.dataset.online = down ? '0' : '1';
}

async function boot() {
  await loadLang(settings.lang || pickLang(navigator.languages || [navigator.language]));
  translate();
  document.body.dataset.ready = '0';
  let me;
  try {
    me = await ensurePlayer();
  } catch (e) {
    showError(e);
    setTimeout(boot, 3000);
    return;
  }
  const q = new URLSearchParams(location.search);
  if (q.get('mode') === 'race' || q.get('race')) {
    const { startRace } = await import('./race/mode.js');
    race = await startRace({ settings, toast, translate, banner, me });
    return;
  }
  document.body.dataset.mode = 'solo';
  try {
    if (q.get('code')) return void (await openCode(q.get('code')));
  } catch (e) {
    showError(e);
    return showNew();
  }
  const id = q.get('game') || localStorage.getItem(LAST);
  if (id) {
    try {
      const v = await api('GET', `/api/v1/games/${encodeURIComponent(id)}`);
      if (v.status !== 'won' || q.get('game')) return openView(v);
    } catch { /* gone or not ours */ }
  }
  showNew();
}
boot();
