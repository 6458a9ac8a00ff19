// What a mode holds while it is on screen: its listeners, timers, animation
// frames and anything else to close. A mode registers them here and its
// dispose() releases them all at once, so that the next mode starts on a
// page that no longer reacts to the old one.

export class Scope {
  constructor() {
    this.offs = new Set();
    this.timers = new Set();
    this.intervals = new Set();
    this.frames = new Map();
    this.disposed = false;
  }

  /** on adds a listener to target until dispose. */
  on(target, type, fn, opts) {
    target.addEventListener(type, fn, opts);
    const off = () => target.removeEventListener(type, fn, opts);
    this.offs.add(off);
    return off;
  }

  /** add keeps something to release on dispose: a function, or an object with dispose(), close() or disconnect(). */
  add(thing) {
    if (!thing) return thing;
    const off = typeof thing === 'function' ? thing
      : () => (thing.dispose ? thing.dispose() : thing.close ? thing.close() : thing.disconnect());
    this.offs.add(off);
    return thing;
  }

  /**
   * live wraps fn so that it does nothing once the scope is disposed: for
   * callbacks that may still come (an answer in flight, a socket closing).
   */
  live(fn) { return (...a) => (this.disposed ? undefined : fn(...a)); }

  /** later runs fn once after ms, unless cancelled (cancel(id)) or disposed first. */
  later(fn, ms) {
    if (this.disposed) return 0;
    const id = setTimeout(() => { this.timers.delete(id); fn(); }, ms);
    this.timers.add(id);
    return id;
  }

  /** every runs fn every ms until stop(id) or dispose. */
  every(fn, ms) {
    if (this.disposed) return 0;
    const id = setInterval(fn, ms);
    this.intervals.add(id);
    return id;
  }

  /** frame runs fn on the next animation frame; a newer call with the same key replaces it. */
  frame(key, fn) {
    if (this.disposed) return;
    const old = this.frames.get(key);
    if (old != null) cancelAnimationFrame(old);
    const id = requestAnimationFrame(() => { this.frames.delete(key); fn(); });
    this.frames.set(key, id);
  }

  cancel(id) { clearTimeout(id); this.timers.delete(id); }

  stop(id) { clearInterval(id); this.intervals.delete(id); }

  /** dispose releases everything, newest first. */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    for (const id of this.timers) clearTimeout(id);
    for (const id of this.intervals) clearInterval(id);
    for (const id of this.frames.values()) cancelAnimationFrame(id);
    this.timers.clear();
    this.intervals.clear();
    this.frames.clear();
    for (const off of [...this.offs].reverse()) off();
    this.offs.clear();
  }
}
