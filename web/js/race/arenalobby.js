// The arenas in the race lobby: the upcoming, running and lately ended
// ones (GET /api/v1/arenas, polled) with their countdowns and a Join
// button, and the form that creates one. Joining or creating opens the
// arena's screen through ui.openArena.
import { api } from '../api.js';
import { t } from '../i18n.js';
import { errText } from '../notice.js';
import * as A from './arenamodel.js';

const POLL_MS = 5000;
const enc = encodeURIComponent;

const opt = (v, txt, sel) => `<option value="${v}"${sel ? ' selected' : ''}>${txt}</option>`;

/** arenaCards is the markup of the lobby's arena cards (texts from data-i18n keys and the catalogue). */
export function arenaCards() {
  const radios = (name, opts) => opts.map(([v, key], i) =>
    `<label><input type="radio" name="${name}" value="${v}"${i ? '' : ' checked'} data-testid="arena-${name}-${v}"> <span data-i18n="${key}"></span></label>`).join('');
  return `
  <section class="lcard larenas" data-testid="arenas" aria-labelledby="arenas-h">
    <h2 id="arenas-h" data-i18n="arena.list"></h2>
    <p class="lnote" data-i18n="arena.about"></p>
    <ul class="llist" data-testid="arena-list"></ul>
    <p class="lempty" data-testid="arena-empty" data-i18n="arena.none"></p>
  </section>
  <form class="lcard" data-testid="arena-form" aria-labelledby="arena-form-h">
    <h2 id="arena-form-h" data-i18n="arena.create"></h2>
    <label class="line"><span data-i18n="arena.length"></span>
      <select name="minutes" data-testid="arena-minutes"></select></label>
    <fieldset><legend data-i18n="newGame.draw"></legend>${radios('draw', [['1', 'race.d1'], ['3', 'race.d3']])}</fieldset>
    <fieldset><legend data-i18n="race.redeal"></legend>${radios('redeal', [['unlimited', 'race.unlimited'], ['single', 'race.single']])}</fieldset>
    <label class="line"><span data-i18n="arena.startsInLabel"></span>
      <select name="startsIn" data-testid="arena-starts"></select></label>
    <div class="lbtns"><button class="primary" data-testid="arena-create" data-i18n="arena.createBtn"></button></div>
    <p class="err" data-testid="arena-error" role="alert" hidden></p>
  </form>`;
}

export class ArenaLobby {
  /** lobby: the LobbyMode (its scope and ui: openArena(id), toast); root: the lobby's element. */
  constructor(lobby, root) {
    this.lobby = lobby;
    this.scope = lobby.scope;
    this.arenas = [];
    this.offset = 0;
    this.list = root.querySelector('[data-testid=arena-list]');
    this.form = root.querySelector('[data-testid=arena-form]');
    this.form.addEventListener('submit', (e) => this.submit(e));
    this.options();
    this.poll();
    this.scope.every(() => this.tick(), 1000);
  }

  /** options fills the form's lists in the current language. */
  options() {
    const mins = this.field('minutes'), starts = this.field('startsIn');
    const m = mins.value || '30', s = starts.value || '60';
    mins.innerHTML = [5, 10, 15, 20, 30, 45, 60, 90, 120].map((n) => opt(n, t('arena.minutes', { n }), String(n) === m)).join('');
    starts.innerHTML = [[0, t('arena.now')], ...[1, 2, 5, 10, 30, 60].map((n) => [n * 60, t('arena.inMinutes', { n })])]
      .map(([v, txt]) => opt(v, txt, String(v) === s)).join('');
  }

  /** field is the form's control named name. */
  field(name) { return this.form.querySelector(`[name=${name}]`); }

  /** checked is the value of the form's radio button named name that is checked. */
  checked(name) { return this.form.querySelector(`[name=${name}]:checked`)?.value; }

  async poll() {
    if (this.scope.disposed) return;
    try {
      const at = Date.now();
      const r = await api('GET', '/api/v1/arenas');
      if (this.scope.disposed) return;
      const vs = r.arenas || [];
      if (vs.length) this.offset = A.serverOffset(vs[0], at);
      this.arenas = vs;
      this.paint();
    } catch { /* keep the last list */ }
    this.scope.cancel(this.timer);
    this.timer = this.scope.later(() => this.poll(), POLL_MS);
  }

  /** paint writes the list again (a new list, a change of language). */
  paint() {
    const now = Date.now() + this.offset;
    const vs = A.listed(this.arenas, now);
    this.list.replaceChildren(...vs.map((v) => this.row(v, now)));
    this.lobby.root.querySelector('[data-testid=arena-empty]').hidden = vs.length > 0;
  }

  /** tick moves the countdowns on; a change of phase writes the list again. */
  tick() {
    const now = Date.now() + this.offset;
    for (const li of this.list.children) {
      const v = this.arenas.find((a) => a.id === li.dataset.arena);
      if (!v) continue;
      const p = A.phase(v, now);
      if (p.status !== li.dataset.status) return this.paint();
      li.querySelector('.aclock').textContent = A.clockText(p);
    }
  }

  row(v, now) {
    const p = A.phase(v, now);
    const li = document.createElement('li');
    li.dataset.arena = v.id;
    li.dataset.status = p.status;
    const txt = document.createElement('span');
    const b = document.createElement('b');
    b.textContent = `${t('arena.title')} · ${A.rules(v)}`;
    const clock = document.createElement('small');
    clock.className = 'aclock';
    clock.dataset.testid = 'arena-countdown';
    clock.textContent = A.clockText(p);
    const who = document.createElement('small');
    who.textContent = t('arena.players', { n: v.players });
    txt.append(b, clock, who);
    const btn = document.createElement('button');
    btn.type = 'button';
    btn.dataset.testid = 'arena-open';
    btn.dataset.arena = v.id;
    const over = p.status === 'over';
    btn.textContent = over ? t('arena.results') : t('race.join');
    if (!over) btn.className = 'primary';
    btn.setAttribute('aria-label', `${btn.textContent}: ${b.textContent}, ${clock.textContent}, ${who.textContent}`);
    btn.onclick = async () => {
      if (over) return void this.lobby.ui.openArena(v.id);
      btn.disabled = true;
      try {
        await api('POST', `/api/v1/arenas/${enc(v.id)}/join`);
        if (!this.scope.disposed) this.lobby.ui.openArena(v.id);
      } catch (e) {
        this.lobby.ui.toast(e.code === 'conflict' ? t('arena.overJoin') : errText(e));
        btn.disabled = false;
        this.poll();
      }
    };
    li.append(txt, btn);
    return li;
  }

  async submit(e) {
    e.preventDefault();
    const f = this.form;
    const err = f.querySelector('.err');
    err.hidden = true;
    const btn = f.querySelector('button');
    btn.disabled = true;
    try {
      const v = await api('POST', '/api/v1/arenas', { minutes: +this.field('minutes').value, draw: +this.checked('draw'), redeal: this.checked('redeal'), startsIn: +this.field('startsIn').value });
      if (!this.scope.disposed) this.lobby.ui.openArena(v.id);
    } catch (x) {
      err.textContent = x.code === 'rate_limited' ? t('arena.limit') : errText(x);
      err.hidden = false;
    } finally {
      btn.disabled = false;
    }
  }
}
