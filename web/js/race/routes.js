// RaceMode methods for the routes: the lobby, opening a race by its link
// (joining it, or first offering to when the joiner should be told
// something), creating, joining from the lobby, leaving, rematch (mixed into
// RaceMode.prototype by mode.js).
import { api } from '../api.js';
import { t } from '../i18n.js';
import * as M from './model.js';
import { notices } from './commit.js';
import { INV, errText } from './skeleton.js';

const $ = (s, r = document) => r.querySelector(s);

export const routeMethods = {
  async route(q) {
    const id = q.get('race');
    if (!id) return this.toLobby();
    this.watch = q.get('watch') === '1';
    const get = () => api('GET', `/api/v1/games/${encodeURIComponent(id)}`);
    try {
      // a race with something to know before joining (a deal its creator
      // chose, mirrored decks) says so and waits for Join
      const first = this.watch ? null : await get().catch(() => null);
      if (first?.status === 'waiting' && M.mySeat(first, this.me.id) == null && notices(first).length) {
        return this.open(first, { invite: q.get('invite') || '' });
      }
      if (q.get('invite') && !this.watch) {
        let v;
        try {
          v = await api('POST', `/api/v1/races/${encodeURIComponent(id)}/join`, { invite: q.get('invite') });
        } catch (e) {
          if (e.code !== 'conflict' && e.code !== 'forbidden') throw e;
          v = await api('GET', `/api/v1/games/${encodeURIComponent(id)}`); // already seated, or full
          if (M.mySeat(v, this.me.id) == null && !M.cancelled(v)) this.ui.toast(t('race.full'));
        }
        return this.open(v);
      }
      let v = first || await get();
      if (!this.watch && v.status === 'waiting' && M.mySeat(v, this.me.id) == null) {
        try { v = await api('POST', `/api/v1/races/${encodeURIComponent(id)}/join`); } catch { /* private: watch */ }
      }
      this.open(v);
    } catch (e) {
      this.ui.toast(errText(e));
      this.toLobby();
    }
  },

  toLobby() {
    this.close();
    $('#dlg-result').open && $('#dlg-result').close();
    history.replaceState(null, '', '/?mode=race');
    this.game.hidden = true;
    this.lobby.show();
    document.body.dataset.status = 'lobby';
    document.body.dataset.ready = '1';
  },

  /** leave goes back to the lobby; the creator leaving the waiting room
   * cancels the race, so that it leaves the lobby too. Someone who joined
   * meanwhile wins: the race stays and starts. */
  async leave() {
    const v = this.view;
    if (v && v.status === 'waiting' && this.seat === 1 && !this.game.hidden) {
      try {
        await api('POST', `/api/v1/races/${encodeURIComponent(v.id)}/cancel`);
      } catch (e) {
        if (e.code === 'conflict') { this.ui.toast(errText(e)); this.conn?.refresh(); return; }
        // anything else (offline, gone): leave anyway
      }
    }
    this.toLobby();
  },

  async create(body) {
    const v = await api('POST', '/api/v1/races', body);
    if (v.invite) try { sessionStorage.setItem(INV + v.id, v.invite); } catch { /* private mode */ }
    this.watch = false;
    this.open(v);
  },

  async joinPublic(id) {
    this.watch = false;
    this.open(await api('POST', `/api/v1/races/${encodeURIComponent(id)}/join`));
  },

  /** acceptJoin takes seat 2 from the join offer, once its notes were shown. */
  async acceptJoin() {
    const v = this.view, o = this.joinOffer;
    if (!v || !o) return;
    const b = $('[data-testid=wait-join]', this.sec);
    b.disabled = true;
    try {
      this.open(await api('POST', `/api/v1/races/${encodeURIComponent(v.id)}/join`, o.invite ? { invite: o.invite } : undefined));
    } catch (e) {
      this.ui.toast(e.code === 'forbidden' && !o.invite ? t('fair.private') : errText(e));
      this.joinOffer = null; // watch instead
      this.render();
      this.conn?.refresh();
    } finally {
      b.disabled = false;
    }
  },

  async rematch() {
    const old = this.view;
    if (!old) return;
    try {
      let v = await api('POST', `/api/v1/races/${encodeURIComponent(old.id)}/rematch`);
      if (v && !v.seats && v.id) v = await api('GET', `/api/v1/games/${encodeURIComponent(v.id)}`);
      if (v?.invite) try { sessionStorage.setItem(INV + v.id, v.invite); } catch { /* private mode */ }
      this.open(v);
    } catch (e) {
      this.ui.toast(errText(e));
    }
  },
};
