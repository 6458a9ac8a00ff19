// The ways into and out of a race: opening one by its link (joining it, or
// first offering to when the joiner should be told something), leaving,
// taking the seat offered, rematch. resolve is for app.js; the methods are
// mixed into RaceMode.prototype by mode.js. Each way to another race or to
// the lobby goes through ui.openRace or ui.toLobby, which switch modes.
import { api } from '../api.js';
import { t } from '../i18n.js';
import * as M from './model.js';
import { notices } from './commit.js';
import { INV } from './skeleton.js';
import { errText } from '../notice.js';

const $ = (s, r = document) => r.querySelector(s);
const path = (id) => `/api/v1/games/${encodeURIComponent(id)}`;

/**
 * resolve finds what the link's query q opens for player me: {view, watch,
 * offer}, joining the race on the way where the link says so; it throws the
 * API's error when the race cannot be opened. toast tells of a full race.
 */
export async function resolve(q, me, toast) {
  const id = q.get('race');
  const watch = q.get('watch') === '1';
  const get = () => api('GET', path(id));
  // a race with something to know before joining (a deal its creator
  // chose, mirrored decks) says so and waits for Join
  const first = watch ? null : await get().catch(() => null);
  if (first?.status === 'waiting' && M.mySeat(first, me.id) == null && notices(first).length) {
    return { view: first, watch, offer: { invite: q.get('invite') || '' } };
  }
  if (q.get('invite') && !watch) {
    let v;
    try {
      v = await api('POST', `/api/v1/races/${encodeURIComponent(id)}/join`, { invite: q.get('invite') });
    } catch (e) {
      if (e.code !== 'conflict' && e.code !== 'forbidden') throw e;
      v = await get(); // already seated, or full
      if (M.mySeat(v, me.id) == null && !M.cancelled(v)) toast(t('race.full'));
    }
    return { view: v, watch };
  }
  let v = first || await get();
  if (!watch && v.status === 'waiting' && M.mySeat(v, me.id) == null) {
    try { v = await api('POST', `/api/v1/races/${encodeURIComponent(id)}/join`); } catch { /* private: watch */ }
  }
  return { view: v, watch };
}

export const routeMethods = {
  /** leave goes back to the lobby (from an arena's race: to the arena); the creator leaving the waiting room
   * cancels the race, so that it leaves the lobby too. Someone who joined
   * meanwhile wins: the race stays and starts. */
  async leave() {
    const v = this.view;
    if (v?.arena) return void this.ui.toArena(v.arena); // an arena's race: back to its standings
    if (v && v.status === 'waiting' && this.seat === 1 && !v.rematchOf) { // a rematch offer stays open
      try {
        await api('POST', `/api/v1/races/${encodeURIComponent(v.id)}/cancel`);
      } catch (e) {
        if (e.code === 'conflict') { this.ui.toast(errText(e)); this.conn?.refresh(); return; }
        // anything else (offline, gone): leave anyway
      }
    }
    if (!this.scope.disposed) this.ui.toLobby();
  },

  /** acceptJoin takes seat 2 from the join offer, once its notes were shown. */
  async acceptJoin() {
    const v = this.view, o = this.joinOffer;
    if (!v || !o) return;
    const b = $('[data-testid=wait-join]', this.sec);
    b.disabled = true;
    try {
      const joined = await api('POST', `/api/v1/races/${encodeURIComponent(v.id)}/join`, o.invite ? { invite: o.invite } : undefined);
      if (!this.scope.disposed) this.ui.openRace(joined);
    } catch (e) {
      this.ui.toast(e.code === 'forbidden' && !o.invite ? t('fair.private') : errText(e));
      this.joinOffer = null; // watch instead
      this.render();
      this.conn?.refresh();
    } finally {
      b.disabled = false;
    }
  },

  /** decline turns down the rematch the opponent offered after this race. */
  async decline() {
    const v = this.view;
    if (!v) return;
    try {
      await api('POST', `/api/v1/races/${encodeURIComponent(v.id)}/decline`);
    } catch (e) {
      this.ui.toast(errText(e));
    }
    this.conn?.refresh();
  },

  async rematch() {
    const old = this.view;
    if (!old) return;
    try {
      let v = await api('POST', `/api/v1/races/${encodeURIComponent(old.id)}/rematch`);
      if (v && !v.seats && v.id) v = await api('GET', path(v.id));
      if (v?.invite) try { sessionStorage.setItem(INV + v.id, v.invite); } catch { /* private mode */ }
      if (!this.scope.disposed) this.ui.openRace(v);
    } catch (e) {
      this.ui.toast(errText(e));
    }
  },
};
