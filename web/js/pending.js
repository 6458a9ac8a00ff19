// My actions that the server has not shown yet, in the order they went out:
// the solo and the race modes draw them over the server's view, as far as
// the client can work them out, until a view holds them or the server
// refuses them. Pure.

export class Pending {
  constructor() {
    /** list holds the entries {id, action, seq, opt, …}: seq is the action's once known (ack or event), opt that it was drawn at once. */
    this.list = [];
  }

  /** length is the number of actions waiting. */
  get length() { return this.list.length; }

  /** add notes action, sent with client id id; opt: drawn before the answer; more: the mode's own fields. It returns the entry. */
  add(id, action, opt, more = {}) {
    const e = { id, action, seq: null, opt, ...more };
    this.list.push(e);
    return e;
  }

  /** acked gives entry id the seq of its ack, and returns it (null if there is none). */
  acked(id, seq) {
    const e = this.list.find((x) => x.id === id);
    if (e) e.seq = seq;
    return e || null;
  }

  /** event gives the seq of an event that one of my actions made to the oldest entry still without one. */
  event(seq) {
    const e = this.list.find((x) => x.seq == null);
    if (e) e.seq = seq;
  }

  /**
   * seen drops what a view at seq holds: the entries with a seq up to it,
   * and those without one that the connection no longer has pending (their
   * answer went with a view); waiting lists the connection's pending actions.
   */
  seen(seq, waiting = []) {
    const ids = new Set(waiting.map((p) => p.id));
    this.list = this.list.filter((e) => (e.seq != null ? e.seq > seq : ids.has(e.id)));
  }

  /** drop takes entry e out. */
  drop(e) { this.list = this.list.filter((x) => x !== e); }

  /** reject takes out entry id, refused, and tells whether it had been drawn (and so must go back). */
  reject(id) {
    const had = this.list.some((e) => e.id === id && e.opt);
    this.list = this.list.filter((e) => e.id !== id);
    return had;
  }

  /** some tells whether an entry satisfies f. */
  some(f) { return this.list.some(f); }

  /**
   * over returns view with the entries' actions applied in order by
   * apply(view, action), which returns the next view or null where the
   * client cannot work it out. After such an action the rest wait for the
   * server (a draw shows cards not yet known), unless skip: then only
   * that one is left out, and so is every entry not drawn at once.
   */
  over(view, apply, { skip = false } = {}) {
    let d = view;
    for (const e of this.list) {
      if (skip && !e.opt) continue;
      const n = apply(d, e.action);
      if (n) d = n;
      else if (!skip) break;
    }
    return d;
  }
}
