// Lobby mode: create a race, race the computer, join an open public race,
// join or create an arena (arenalobby.js).
// The list of open races comes from the lobby socket when there is one, and
// from polling GET /api/v1/lobby otherwise (and while the socket is down).
// Opening a race goes through ui.openRace: app.js disposes of the lobby.
import { api, SIGNED_OUT, signedOut } from '../api.js';
import { t, ratingText } from '../i18n.js';
import { Scope } from '../scope.js';
import { lobbyRaces, diffLobby, hostName, seriesLength } from './model.js';
import { noticeEls } from './fair.js';
import { INV } from './skeleton.js';
import { errText } from '../notice.js';
import { blockPlayer } from '../block.js';
import { QuickMatch } from './quick.js';
import { NAMED } from '../renamed.js';
import { ArenaLobby, arenaCards } from './arenalobby.js';

const POLL_MS = 4000;

const radios = (name, opts, testid) => opts.map(([v, key], i) =>
  `<label><input type="radio" name="${name}" value="${v}"${i ? '' : ' checked'} data-testid="${testid}-${v}"> <span data-i18n="${key}"></span></label>`).join('');

/** describe writes a race's agreed rules in a few words. */
export function describe(r) {
  const parts = [t(r.draw === 3 ? 'race.d3' : 'race.d1')];
  if (r.redeal === 'single') parts.push(t('race.single'));
  if (r.decks === 'mirrored') parts.push(t('race.mirrored'));
  if (r.turns === 'alternating') parts.push(t('race.alternating'));
  if (r.soloOutBonus) parts.push(t('race.bonusShort'));
  const n = seriesLength(r.series);
  if (n > 1) parts.push(t('race.seriesOf', { n }));
  return parts.join(' · ');
}

export class LobbyMode {
  /** ui: {settings, toast, translate, banner(down), me, openRace(v), toLobby(), openArena(id)}. */
  constructor(ui) {
    this.ui = ui;
    this.races = [];
    this.timer = 0;
    this.ws = null;
    this.scope = new Scope();
    const sec = document.createElement('section');
    sec.id = 'race';
    sec.className = 'race';
    const root = this.root = document.createElement('div');
    root.className = 'lobby';
    root.dataset.testid = 'lobby';
    sec.append(root);
    document.body.dataset.mode = 'race';
    document.body.append(sec);
    this.scope.add(() => {
      sec.remove();
      if (this.ws) { const ws = this.ws; this.ws = null; ws.close(1000); }
    });
    root.innerHTML = `
<div class="lwrap">
  <h1 data-i18n="race.title"></h1>
  <form class="lcard lname" data-testid="name-form" hidden>
    <h2 data-i18n="race.nameTitle"></h2>
    <label class="line"><span data-i18n="race.nameNote"></span>
      <input name="name" maxlength="24" autocomplete="nickname" data-testid="name-input"></label>
    <div class="lbtns"><button class="primary" value="save" data-testid="name-save" data-i18n="race.nameSave"></button>
      <button value="skip" data-testid="name-skip" data-i18n="race.nameSkip"></button></div>
    <p class="err" data-testid="name-error" role="alert" hidden></p>
  </form>
  <section class="lcard lquick" data-testid="quick">
    <h2 data-i18n="race.quick"></h2>
    <p class="lrating" data-testid="my-rating"></p>
    <p data-i18n="race.quickNote"></p>
    <div class="lbtns"><button type="button" class="primary" data-testid="quick-match" data-i18n="race.quickBtn"></button></div>
    <div class="lwait" data-testid="quick-waiting" hidden>
      <p role="status"><span data-i18n="race.quickWaiting"></span> <span data-testid="quick-elapsed">0:00</span></p>
      <p data-testid="quick-bot-offer" data-i18n="race.quickNobody" hidden></p>
      <div class="lbtns"><button type="button" data-testid="quick-bot" data-i18n="race.quickBot" hidden></button>
        <button type="button" data-testid="quick-cancel" data-i18n="newGame.cancel"></button></div>
    </div>
    <p class="err" data-testid="quick-error" hidden></p>
    <div class="lwait" data-testid="in-play" role="alert" hidden>
      <p data-i18n="race.inPlay"></p>
      <div class="lbtns"><button type="button" class="primary" data-testid="in-play-open" data-i18n="race.backToRace"></button></div>
    </div>
  </section>
  <section class="lcard">
    <h2 data-i18n="race.open"></h2>
    <ul class="llist" data-testid="lobby-list" aria-live="polite"></ul>
    <p class="lempty" data-testid="lobby-empty" data-i18n="race.none"></p>
  </section>${arenaCards()}
  <form class="lcard" data-testid="race-form">
    <h2 data-i18n="race.create"></h2>
    <fieldset><legend data-i18n="newGame.draw"></legend>${radios('draw', [['1', 'race.d1'], ['3', 'race.d3']], 'race-draw')}</fieldset>
    <fieldset><legend data-i18n="race.redeal"></legend>${radios('redeal', [['unlimited', 'race.unlimited'], ['single', 'race.single']], 'race-redeal')}</fieldset>
    <fieldset><legend data-i18n="race.decks"></legend>${radios('decks', [['independent', 'race.independent'], ['mirrored', 'race.mirrored']], 'race-decks')}</fieldset>
    <p class="fnote mirrored" data-testid="race-mirrored-note" data-i18n="fair.mirrored" role="note" hidden></p>
    <fieldset><legend data-i18n="race.turns"></legend>${radios('turns', [['simultaneous', 'race.simultaneous'], ['alternating', 'race.alternating']], 'race-turns')}</fieldset>
    <label class="line"><input type="checkbox" name="soloOutBonus" data-testid="race-bonus"> <span data-i18n="race.bonus"></span></label>
    <label class="line"><span data-i18n="race.series"></span>
      <select name="series" data-testid="race-series"><option value="1">1</option><option value="3">3</option><option value="5">5</option></select></label>
    <label class="line"><input type="checkbox" name="public" checked data-testid="race-public"> <span data-i18n="race.public"></span></label>
    <div class="lbtns">
      <button class="primary" value="create" data-testid="race-create" data-i18n="race.createBtn"></button>
    </div>
    <div class="lbot">
      <h3 data-i18n="race.bot"></h3>
      <div class="row"><select name="bot" data-testid="race-bot-speed" data-i18n-label="race.botSpeed">
        <option value="slow" data-i18n="race.slow"></option><option value="normal" selected data-i18n="race.normal"></option><option value="fast" data-i18n="race.fast"></option><option value="strong" data-i18n="race.strong"></option></select>
      <button value="bot" data-testid="race-bot" data-i18n="race.botBtn"></button></div>
    </div>
    <p class="err" data-testid="race-error" hidden></p>
  </form>
  <p class="lsolo"><a href="/" data-testid="solo-link" data-i18n="race.solo"></a></p>
</div>`;
    this.form = root.querySelector('[data-testid=race-form]');
    this.list = root.querySelector('.llist');
    this.form.addEventListener('submit', (e) => this.submit(e));
    // mirrored decks: the creator is told what that means for both
    const note = root.querySelector('[data-testid=race-mirrored-note]');
    this.form.addEventListener('change', () => { note.hidden = this.form.decks.value !== 'mirrored'; });
    this.quick = new QuickMatch(this, root);
    this.arenas = new ArenaLobby(this, root);
    this.nameForm = root.querySelector('[data-testid=name-form]');
    this.nameForm.addEventListener('submit', (e) => this.saveName(e));
    this.showName();
    history.replaceState(null, '', '/?mode=race');
    ui.translate();
    this.rating();
    document.body.dataset.status = 'lobby';
    document.body.dataset.ready = '1';
    this.paint();
    this.connect();
    this.poll();
  }

  /** rating shows the player's rating (GET /api/v1/me). */
  async rating() {
    let me;
    try { me = await api('GET', '/api/v1/me'); } catch { return; }
    if (this.scope.disposed) return;
    this.me = me;
    const el = this.root.querySelector('[data-testid=my-rating]');
    el.textContent = t('race.myRating', { n: ratingText(me.rating, me.provisional) });
  }

  /**
   * inPlay answers a refusal that names the player's race in play (one race
   * at a time): it says so and offers to go back to that race; it tells
   * whether the refusal was one.
   */
  inPlay(x) {
    if (x?.code !== 'conflict' || !x.game) return false;
    const box = this.root.querySelector('[data-testid=in-play]');
    box.hidden = false;
    const b = box.querySelector('[data-testid=in-play-open]');
    b.onclick = async () => {
      try {
        const v = await api('GET', `/api/v1/games/${encodeURIComponent(x.game)}`);
        if (!this.scope.disposed) this.ui.openRace(v);
      } catch (e) { this.ui.toast(errText(e)); }
    };
    b.focus();
    return true;
  }

  /** showName asks for a display name until the player chose or skipped one. */
  showName() {
    let named = false;
    try { named = !!localStorage.getItem(NAMED); } catch { /* private mode: ask */ }
    this.nameForm.hidden = named;
    if (!named) this.nameForm.querySelector('input').value = this.ui.me?.name || '';
  }

  async saveName(e) {
    e.preventDefault();
    const f = this.nameForm;
    const input = f.querySelector('input');
    const err = f.querySelector('.err');
    err.hidden = true;
    if (e.submitter?.value === 'save') {
      try {
        const p = await api('PATCH', '/api/v1/me', { name: input.value.trim() });
        if (this.ui.me) this.ui.me.name = p.name;
      } catch (x) {
        err.textContent = x.code === 'bad_request' ? t('race.nameBad') : errText(x);
        err.hidden = false;
        input.focus();
        return;
      }
    }
    try { localStorage.setItem(NAMED, '1'); } catch { /* private mode */ }
    f.hidden = true;
  }

  /** dispose stops the list's socket and polling and takes the lobby off the page. */
  dispose() { this.scope.dispose(); }

  /** redraw writes the rows again after a change of language. */
  redraw() {
    this.paint();
    this.arenas.options();
    this.arenas.paint();
    if (this.me) this.root.querySelector('[data-testid=my-rating]').textContent = t('race.myRating', { n: ratingText(this.me.rating, this.me.provisional) });
  }

  async create(body) {
    const v = await api('POST', '/api/v1/races', body);
    if (v.invite) try { sessionStorage.setItem(INV + v.id, v.invite); } catch { /* private mode */ }
    if (!this.scope.disposed) this.ui.openRace(v);
  }

  async join(id) {
    const v = await api('POST', `/api/v1/races/${encodeURIComponent(id)}/join`);
    if (!this.scope.disposed) this.ui.openRace(v);
  }

  body(f, bot) {
    const b = {
      draw: +f.draw.value, redeal: f.redeal.value, decks: f.decks.value, turns: f.turns.value,
      soloOutBonus: f.soloOutBonus.checked, series: +f.series.value, public: bot ? false : f.public.checked,
    };
    if (bot) b.bot = f.bot.value;
    return b;
  }

  async submit(e) {
    e.preventDefault();
    const bot = e.submitter?.value === 'bot';
    const err = this.root.querySelector('.err');
    err.hidden = true;
    const btns = this.form.querySelectorAll('button');
    btns.forEach((b) => { b.disabled = true; });
    try {
      await this.create(this.body(this.form, bot));
    } catch (x) {
      err.textContent = errText(x);
      err.hidden = false;
    } finally {
      btns.forEach((b) => { b.disabled = false; });
    }
  }

  async poll() {
    this.scope.cancel(this.timer);
    if (this.scope.disposed) return;
    if (!this.wsOpen) {
      let list = null;
      try { list = lobbyRaces(await api('GET', '/api/v1/lobby')); } catch { /* keep the last list */ }
      if (list && !this.scope.disposed) this.update(list);
    }
    this.scope.cancel(this.timer);
    this.timer = this.scope.later(() => this.poll(), POLL_MS);
  }

  connect() {
    if (this.ws || this.noSocket || this.scope.disposed || !('WebSocket' in globalThis)) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try { ws = new WebSocket(`${proto}//${location.host}/api/v1/lobby/ws`); } catch { this.noSocket = true; return; }
    this.ws = ws;
    let opened = false;
    ws.onopen = () => { opened = true; this.wsOpen = true; };
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m.type === 'lobby') this.update(lobbyRaces(m));
    };
    ws.onclose = (e) => {
      this.wsOpen = false;
      if (this.ws !== ws) return;
      if (e?.code === SIGNED_OUT) { signedOut(); return; }
      this.ws = null;
      if (!opened) { this.noSocket = true; return; } // no lobby socket here: polling only
      this.scope.later(() => this.connect(), 3000);
    };
  }

  /** update applies a new list, touching only the rows that changed. */
  update(races) {
    const d = diffLobby(this.races, races);
    this.races = races;
    const byId = new Map(races.map((r) => [r.id, r]));
    for (const id of d.remove) this.list.querySelector(`li[data-race="${CSS.escape(id)}"]`)?.remove();
    for (const id of [...d.add, ...d.update]) {
      const old = this.list.querySelector(`li[data-race="${CSS.escape(id)}"]`);
      const li = this.row(byId.get(id));
      if (old) old.replaceWith(li); else this.list.append(li);
    }
    // keep the server's order
    d.order.forEach((id, i) => {
      const li = this.list.querySelector(`li[data-race="${CSS.escape(id)}"]`);
      if (li && this.list.children[i] !== li) this.list.insertBefore(li, this.list.children[i] || null);
    });
    this.root.querySelector('.lempty').hidden = races.length > 0;
  }

  row(r) {
    const li = document.createElement('li');
    li.dataset.race = r.id;
    const txt = document.createElement('span');
    const who = document.createElement('b');
    who.textContent = r.creator?.bot ? t('race.computer') : hostName(r) || t('race.someone');
    who.title = who.textContent; // the name in full where the row shortens it
    const what = document.createElement('small');
    what.textContent = r.creatorRating ? `${t('race.ratingOf', { n: ratingText(r.creatorRating, r.creatorProvisional) })} · ${describe(r)}` : describe(r);
    // told before joining: a deal the creator chose, mirrored decks
    const notes = noticeEls(r, false, 'small');
    txt.append(who, what, ...notes);
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.testid = 'join';
    b.dataset.race = r.id;
    b.textContent = t('race.join');
    b.setAttribute('aria-label', [`${t('race.join')}: ${who.textContent}, ${what.textContent}`, ...notes.map((n) => n.textContent)].join('. '));
    b.onclick = async () => {
      b.disabled = true;
      try { await this.join(r.id); } catch (x) { if (!this.inPlay(x)) this.ui.toast(errText(x)); b.disabled = false; this.poll(); }
    };
    li.append(txt, b);
    const host = r.creator;
    if (host?.id && !host.bot && host.id !== this.ui.me?.id) {
      const x = document.createElement('button');
      x.type = 'button';
      x.className = 'lblock';
      x.dataset.testid = 'block-host';
      x.textContent = t('block.action');
      x.setAttribute('aria-label', t('block.actionName', { name: who.textContent }));
      x.onclick = () => this.blockHost({ id: host.id, name: who.textContent });
      li.append(x);
    }
    return li;
  }

  /** blockHost blocks a race's host after a confirmation; their races leave the list at once. */
  async blockHost(p) {
    let done;
    try { done = await blockPlayer(p); } catch (x) { this.ui.toast(errText(x)); return; }
    if (!done || this.scope.disposed) return;
    this.ui.toast(t('block.done', { name: p.name }));
    this.update(this.races.filter((r) => r.creator?.id !== p.id));
  }

  /** paint re-translates the rows (language change). */
  paint() {
    const races = this.races;
    this.races = [];
    this.list.replaceChildren();
    this.update(races);
  }
}
