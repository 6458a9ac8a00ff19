// RaceMode methods for the HUD, the strip's countdowns, the waiting room and
// the result dialog (mixed into RaceMode.prototype by mode.js).
import { t, ratingText, countdown } from '../i18n.js';
import { celebrate } from '../celebrate.js';
import * as M from './model.js';
import * as A from './arenamodel.js';
import { describe } from './lobby.js';
import { nameInto } from './table.js';
import { noticeEls } from './fair.js';
import { notices } from './commit.js';
import { blockPlayer } from '../block.js';
import { errText } from '../notice.js';

const $ = (s, r = document) => r.querySelector(s);

export const screenMethods = {
  hud(v, me, them) {
    const q = (id) => $(`[data-testid=${id}]`, this.sec);
    const c = M.counts(v);
    nameInto($('.rme .nm', this.sec), this.name(me), !this.seat && this.isBot(me));
    nameInto($('.rthem .nm', this.sec), this.name(them), this.isBot(them));
    $('.rme', this.sec).dataset.seat = me;
    $('.rthem', this.sec).dataset.seat = them;
    q('show-result').hidden = v.status !== 'over' || !v.result; // a cancelled race has none
    q('arena-back').hidden = !v.arena; // an arena's race: its standings, and the arena's time below
    const up = q('to-lobby');
    if (v.arena && up.dataset.i18nLabel !== 'arena.back') {
      up.dataset.i18nLabel = 'arena.back';
      up.setAttribute('aria-label', t('arena.back'));
      up.title = t('arena.back');
    }
    q('count-me').textContent = c[me - 1];
    q('count-them').textContent = c[them - 1];
    q('count-me').setAttribute('aria-label', t('race.countOf', { name: this.name(me), n: c[me - 1] }));
    q('count-them').setAttribute('aria-label', t('race.countOf', { name: this.name(them), n: c[them - 1] }));
    const seated = !!this.seat, playing = v.status === 'playing';
    q('resign').hidden = !seated;
    q('resign').disabled = !playing;
    const turn = q('turn');
    const alt = v.turns === 'alternating';
    let txt;
    const gone = M.cancelled(v);
    const who = { name: this.name(3 - (this.seat || 1)) };
    if (v.status === 'waiting') txt = v.rematchOf ? t('race.waitAccept', who) : t('race.waiting');
    else if (v.status === 'over') txt = v.rematchOf && gone ? t('race.declinedTitle') : t(gone ? 'race.cancelled' : 'race.over');
    else if (!alt) txt = seated ? t('race.go') : t('race.watching');
    else if (v.turn === this.seat) txt = t('race.yourTurn');
    else txt = t('race.theirTurn', { name: this.name(v.turn) });
    if (!seated && v.status !== 'waiting') txt = `${t('race.watching')} · ${txt === t('race.watching') ? describe(v) : txt}`;
    turn.textContent = txt;
    turn.classList.toggle('mine', alt && playing && v.turn === this.seat && seated);
    turn.dataset.turn = v.turn ?? '';
    const pass = q('pass');
    pass.hidden = !(alt && seated && playing);
    pass.disabled = v.turn !== this.seat;
    this.mySeatTurn = alt && playing && v.turn === this.seat;
    if (this.mySeatTurn && !this.wasMyTurn) this.say(t('race.yourTurn'));
    this.wasMyTurn = this.mySeatTurn;

    // fair deal: a mark on a deal its creator chose, the deal's fingerprint
    const mark = q('chosen-mark');
    mark.hidden = !v.chosenDeal;
    $('.mk', mark).textContent = t('fair.chosenMark');
    $('.sr', mark).textContent = ': ' + t('fair.chosen');
    mark.title = t('fair.chosen');
    this.print.show(v);

    // waiting room, or the join offer of a race with notes for the joiner
    const wait = q('waiting');
    const offer = !!this.joinOffer && v.status === 'waiting' && !seated;
    wait.hidden = v.status !== 'waiting' && !gone;
    wait.classList.toggle('gone', gone);
    wait.classList.toggle('offer', offer);
    q('wait-join').hidden = !offer;
    if (gone && !this.goneSaid) this.say(t('race.cancelled'));
    this.goneSaid = gone;
    if (!wait.hidden) {
      const them = { name: this.name(3 - (this.seat || 1)) };
      const rematch = !!v.rematchOf; // waits for the opponent to accept, not for anyone to join
      $('h2', wait).textContent = rematch ? t(gone ? 'race.declinedTitle' : 'race.waitAccept', them)
        : t(gone ? 'race.cancelled' : offer ? 'fair.joinTitle' : 'race.waiting');
      $('.wnote', wait).textContent = rematch && gone ? t('race.declinedMine', them) : t(gone ? 'race.cancelledNote' : 'race.waitNote');
      $('.wnote', wait).hidden = offer || (rematch && !gone);
      const wn = $('.wnotes', wait);
      const nk = gone ? '' : [notices(v).join(), this.seat, t('fair.chosen')].join('|');
      if (wn.dataset.k !== nk) { wn.dataset.k = nk; wn.replaceChildren(...(gone ? [] : noticeEls(v, this.seat === 1))); }
      $('.wrules', wait).textContent = describe(v);
      const inv = q('invite-link');
      const url = this.invite ? `${location.origin}/?race=${encodeURIComponent(v.id)}&invite=${encodeURIComponent(this.invite)}` : `${location.origin}/?race=${encodeURIComponent(v.id)}`;
      inv.value = url;
      $('.winv', wait).hidden = !seated || gone || rematch;
    }
    this.scope.stop(this.waitPoll);
    if (v.status === 'waiting') this.waitPoll = this.scope.every(() => this.conn?.refresh(), 3000);

    // opponent offline → grace countdown
    const opp = v.seats?.[them - 1];
    if (seated && playing && opp && opp.online === false) {
      if (this.offlineSince == null) this.offlineSince = this.presence[them]?.at ?? Date.now();
    } else this.offlineSince = null;
    this.tick();

    // "Check this race": in the result dialog, or in the panel of a cancelled race
    if (v.status === 'over') {
      const host = gone ? wait : $('#dlg-result form');
      const before = gone ? q('wait-lobby') : $('[data-testid=rematch]', host);
      if (this.check.el.parentNode !== host) host.insertBefore(this.check.el, before);
    }
    this.check.show(v, this.seen);

    if (v.status === 'over' && !this.resultShown) {
      this.resultShown = true;
      this.showResult(v);
    }
    if (v.status === 'over') { this.offer(v); this.ratingLine(v); }
  },

  /** ratingLine shows the player's rating change once the race is rated
   * (the view that ends the race comes before its rating is stored). */
  ratingLine(v) {
    const el = $('[data-testid=result-rating]', $('#dlg-result'));
    const rc = this.seat && v.ratings?.[this.seat - 1];
    el.hidden = !rc;
    if (!rc) return;
    const d = rc.after - rc.before;
    el.textContent = t('race.ratingChange', { before: rc.before, after: ratingText(rc.after, rc.provisional), delta: (d > 0 ? '+' : d < 0 ? '−' : '±') + Math.abs(d) });
  },

  /** tick updates the claim countdown and the turn clock. */
  tick() {
    const v = this.view;
    if (!v) return;
    const q = (id) => $(`[data-testid=${id}]`, this.sec);
    const now = Date.now();
    const dc = q('opp-offline'), claim = q('claim');
    if (this.offlineSince != null && v.status === 'playing') {
      const them = 3 - this.seat;
      const p = this.presence[them] || {};
      const at = M.claimDeadline({
        claimAt: p.claimAt ?? v.claimAt ?? v.seats?.[them - 1]?.claimAt,
        graceSeconds: p.graceSeconds ?? v.graceSeconds,
        offlineSince: this.offlineSince,
      });
      const left = M.secondsLeft(at, now);
      dc.hidden = false;
      dc.textContent = left > 0 ? t('race.dropped', { name: this.name(them), time: countdown(left) }) : t('race.droppedLong', { name: this.name(them) });
      claim.hidden = left > 0;
    } else { dc.hidden = true; claim.hidden = true; }
    // a rematch offer's time: in the result dialog, and in the waiting room of the offered race
    const offerLeft = (el, at) => {
      el.hidden = at == null;
      if (at != null) el.textContent = t('race.offerLeft', { time: countdown(M.secondsLeft(at, now)) });
    };
    offerLeft($('[data-testid=rematch-left]'), v.rematch?.status === 'offered' && this.seat ? M.toMillis(v.rematch.expires) : null);
    offerLeft(q('offer-left'), v.status === 'waiting' && v.rematchOf ? M.toMillis(v.offerExpires) : null);
    const ac = q('race-arena-clock');
    const link = v.arena ? this.ui.arenaLink?.(v.arena) : null;
    ac.hidden = !link?.view;
    if (link?.view) {
      const p = A.phase(link.view, link.now());
      ac.textContent = A.clockText(p);
      ac.classList.toggle('low', p.status === 'running' && p.left <= 60);
    }
    const clock = q('turn-clock');
    const end = v.status === 'playing' && v.turns === 'alternating' ? M.turnDeadline(v, this.received) : null;
    clock.hidden = end == null;
    if (end != null) {
      const left = M.secondsLeft(end, now);
      clock.textContent = countdown(left);
      clock.classList.toggle('low', left <= 10);
    }
  },

  showResult(v, now) {
    const o = M.outcome(v, this.seat);
    if (!o) return;
    const q = (id) => $(`[data-testid=${id}]`, $('#dlg-result'));
    const wName = typeof o.who === 'number' ? this.name(o.who) : this.name(3 - (this.seat || 2));
    q('result-title').textContent = o.who === 'me' ? t('race.won') : o.who === 'draw' ? t('race.draw') : t('race.winner', { name: wName });
    const me = this.seat || 1;
    q('result-counts').textContent = t('race.final', { a: this.name(me), n: o.mine, b: this.name(3 - me), m: o.theirs });
    const w = v.result.winner;
    const loser = w ? this.name(3 - w) : '';
    const mine = w != null && w === this.seat;
    q('result-reason').textContent = t('race.reason.' + (o.reason === 'out' && mine ? 'outMe' : o.reason), { name: w ? this.name(w) : '', loser });
    this.ratingLine(v);
    const tie = q('result-tie');
    tie.hidden = !o.tiebreak;
    if (o.tiebreak) tie.textContent = t('race.tie.' + (o.tiebreak === 'last' && mine ? 'lastMe' : o.tiebreak), { name: w ? this.name(w) : '' });
    const s = M.seriesInfo(v);
    const ser = q('series');
    ser.hidden = !s;
    if (s) {
      let txt = s.game ? t('race.seriesGame', { k: s.game, n: s.of }) : t('race.seriesOf', { n: s.of });
      const tot = s.totals || s.wins;
      if (tot) txt += ' · ' + t('race.seriesScore', { a: this.name(me), n: tot[me - 1], b: this.name(3 - me), m: tot[2 - me] });
      if (s.done && s.winner != null) txt += ' · ' + (s.winner === this.seat ? t('race.seriesWon') : t('race.seriesWinner', { name: this.name(s.winner) }));
      ser.textContent = txt;
    }
    q('rematch').hidden = !this.seat || !!this.blocked || !!v.arena; // an arena pairs its races itself
    const back = q('result-lobby');
    back.dataset.i18n = v.arena ? 'arena.back' : 'race.lobby';
    back.textContent = t(back.dataset.i18n);
    const them = this.opponent();
    q('result-block').hidden = !them || !!this.blocked;
    if (them) q('result-block').setAttribute('aria-label', t('block.actionName', { name: them.name }));
    q('rematch').textContent = s && !s.done ? t('race.nextGame') : t('race.rematch');
    if (o.who === 'me' && !now) {
      const all = [];
      for (const el of this.found.querySelectorAll('.card.up')) all.push({ card: el.dataset.card, rect: el.getBoundingClientRect() });
      this.scope.add(celebrate(all));
    }
    this.say($('#dlg-result h2').textContent);
    const d = $('#dlg-result');
    // a refresh may replace the view object meanwhile: still this race, still over
    // focus on the first button, not on the link of the check panel above it
    const first = () => (q('rematch').hidden ? q('result-lobby') : q('rematch')).focus();
    this.scope.later(() => { if (!d.open && this.view?.id === v.id && this.view.status === 'over') { d.showModal(); first(); } }, now ? 0 : o.who === 'me' ? 700 : 300);
  },

  /** opponent is the other seat's player {id, name} when the caller may block them: a person, not the bot or a deleted player. */
  opponent() {
    if (!this.seat) return null;
    const seat = 3 - this.seat;
    const p = this.view?.seats?.[seat - 1]?.player;
    if (!p?.id || p.deleted || this.isBot(seat)) return null;
    return { id: p.id, name: this.name(seat) };
  },

  /** blockOpponent blocks the opponent after a confirmation, from the result dialog. */
  async blockOpponent() {
    const p = this.opponent();
    if (!p) return;
    let done;
    try { done = await blockPlayer(p); } catch (x) { this.ui.toast(errText(x)); return; }
    if (!done || this.scope.disposed) return;
    this.blocked = true;
    const d = $('#dlg-result');
    for (const id of ['result-block', 'rematch']) $(`[data-testid=${id}]`, d).hidden = true;
    this.ui.toast(t('block.done', { name: p.name }));
    $('[data-testid=result-lobby]', d).focus();
  },

  /** offer shows where the rematch offered after this race stands. */
  offer(v) {
    const d = $('#dlg-result');
    const r = v.rematch;
    const el = $('[data-testid=rematch-offer]', d);
    const theirs = !!r && r.by !== this.seat;
    const them = this.name(3 - (this.seat || 1));
    el.hidden = !r || !this.seat || r.status === 'accepted';
    if (!el.hidden) {
      el.textContent = r.status === 'lapsed' ? t('race.lapsed')
        : r.status === 'declined' ? t(theirs ? 'race.declinedTheirs' : 'race.declinedMine', { name: them })
          : t(theirs ? 'race.offer' : 'race.offerMine', { name: them });
    }
    const open = !!r && theirs && r.status === 'offered' && !!this.seat;
    $('[data-testid=rematch-decline]', d).hidden = !open;
    const again = $('[data-testid=rematch]', d);
    if (open) again.textContent = t('race.accept');
    if (r?.status === 'declined' || r?.status === 'lapsed') again.hidden = true;
  },

  say(msg) {
    const sr = $('p.sr[aria-live]', this.sec); // the live region, not the chosen-deal mark's text
    sr.textContent = '';
    this.scope.later(() => { sr.textContent = msg; }, 30);
  },

  askResign() {
    if (!this.seat || this.view?.status !== 'playing') return;
    $('#dlg-resign').showModal();
  },

  async copyInvite() {
    const inp = $('[data-testid=invite-link]', this.sec);
    if (navigator.share && matchMedia('(pointer: coarse)').matches) {
      try { await navigator.share({ title: t('race.title'), url: inp.value }); return; } catch { /* cancelled */ }
    }
    try { await navigator.clipboard.writeText(inp.value); } catch { inp.select(); document.execCommand('copy'); }
    this.ui.toast(t('race.copied'));
  },
};
