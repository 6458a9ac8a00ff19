// A small stand-in for the browser, enough to run the client's modes under
// Node: elements parsed from HTML, the selectors the client uses, events
// that bubble, and fakes for timers, animation frames, WebSocket, fetch and
// storage. Every listener, timer, frame and socket is recorded, so that a
// test can tell what a mode left behind once it was disposed.
import { readFileSync } from 'node:fs';
import { parse as parseWith, compile } from './html.mjs';

// ---- what is registered, and what is still live ----

const live = new Set(); // {target, type, fn, capture}

class Target {
  addEventListener(type, fn, o) {
    const capture = typeof o === 'boolean' ? o : !!o?.capture;
    for (const l of live) if (l.target === this && l.type === type && l.fn === fn && l.capture === capture) return;
    live.add({ target: this, type, fn, capture, once: typeof o === 'object' && !!o?.once });
  }

  removeEventListener(type, fn, o) {
    const capture = typeof o === 'boolean' ? o : !!o?.capture;
    for (const l of live) if (l.target === this && l.type === type && l.fn === fn && l.capture === capture) live.delete(l);
  }

  dispatchEvent(e) {
    e.target ??= this;
    const path = [];
    for (let n = this; n; n = n.parentNode ?? (n === document ? windowTarget : null)) path.push(n);
    const run = (n, capture) => {
      for (const l of [...live]) {
        if (l.target !== n || l.type !== e.type || (n !== this && l.capture !== capture) || !live.has(l)) continue;
        e.currentTarget = n;
        if (l.once) live.delete(l);
        l.fn.call(n, e);
      }
      const on = n['on' + e.type];
      if (typeof on === 'function' && !capture) on.call(n, e);
    };
    for (const n of [...path].reverse().slice(0, -1)) run(n, true);
    run(this, false);
    if (e.bubbles) for (const n of path.slice(1)) run(n, false);
    return !e.defaultPrevented;
  }
}

export function event(type, o = {}) {
  return { type, bubbles: true, defaultPrevented: false, timeStamp: now, preventDefault() { this.defaultPrevented = true; }, ...o };
}

// ---- elements ----

const kebab = (s) => s.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
const camel = (s) => s.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
const FOCUSABLE = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY']);

class Text {
  constructor(data) { this.nodeType = 3; this.data = String(data); this.parentNode = null; }
  get textContent() { return this.data; }
  set textContent(v) { this.data = String(v); }
  cloneNode() { return new Text(this.data); }
  remove() { this.parentNode?.removeChild(this); }
}

const rect = () => ({ left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0, x: 0, y: 0 });

class Element extends Target {
  constructor(tag, ns) {
    super();
    this.nodeType = 1;
    this.tagName = ns ? tag : tag.toUpperCase();
    this.namespaceURI = ns || 'http://www.w3.org/1999/xhtml';
    this.attrs = new Map();
    this.childNodes = [];
    this.parentNode = null;
    this.value = '';
    this.checked = false;
    this.returnValue = '';
    const style = { setProperty(k, v) { style[k] = v; }, removeProperty(k) { delete style[k]; } };
    this.style = style;
    this.dataset = new Proxy({}, {
      get: (_, k) => (typeof k === 'string' ? this.getAttribute('data-' + kebab(k)) ?? undefined : undefined),
      set: (_, k, v) => { this.setAttribute('data-' + kebab(k), v); return true; },
      deleteProperty: (_, k) => { this.removeAttribute('data-' + kebab(k)); return true; },
      has: (_, k) => this.hasAttribute('data-' + kebab(k)),
      ownKeys: () => [...this.attrs.keys()].filter((a) => a.startsWith('data-')).map((a) => camel(a.slice(5))),
      getOwnPropertyDescriptor: (_, k) => (this.hasAttribute('data-' + kebab(k)) ? { enumerable: true, configurable: true, value: this.dataset[k] } : undefined),
    });
    const cls = () => (this.getAttribute('class') || '').split(/\s+/).filter(Boolean);
    const setCls = (l) => this.setAttribute('class', l.join(' '));
    this.classList = {
      contains: (c) => cls().includes(c),
      add: (...cs) => setCls([...new Set([...cls(), ...cs])]),
      remove: (...cs) => setCls(cls().filter((c) => !cs.includes(c))),
      toggle: (c, force) => {
        const on = force ?? !cls().includes(c);
        if (on) this.classList.add(c); else this.classList.remove(c);
        return on;
      },
    };
  }

  getAttribute(n) { return this.attrs.has(n) ? this.attrs.get(n) : null; }
  setAttribute(n, v) { this.attrs.set(n, String(v)); }
  removeAttribute(n) { this.attrs.delete(n); }
  hasAttribute(n) { return this.attrs.has(n); }
  get id() { return this.getAttribute('id') || ''; }
  set id(v) { this.setAttribute('id', v); }
  get className() { return this.getAttribute('class') || ''; }
  set className(v) { this.setAttribute('class', v); }
  get title() { return this.getAttribute('title') || ''; }
  set title(v) { this.setAttribute('title', v); }
  get lang() { return this.getAttribute('lang') || ''; }
  set lang(v) { this.setAttribute('lang', v); }
  get href() { return this.getAttribute('href') || ''; }
  set href(v) { this.setAttribute('href', v); }
  get type() { return this.getAttribute('type') || ''; }
  set type(v) { this.setAttribute('type', v); }
  get tabIndex() {
    const t = this.getAttribute('tabindex');
    return t != null ? +t : FOCUSABLE.has(this.tagName) ? 0 : -1;
  }

  set tabIndex(v) { this.setAttribute('tabindex', v); }
  bool(n, v) { if (v) this.setAttribute(n, ''); else this.removeAttribute(n); }
  get hidden() { return this.hasAttribute('hidden'); }
  set hidden(v) { this.bool('hidden', v); }
  get disabled() { return this.hasAttribute('disabled'); }
  set disabled(v) { this.bool('disabled', v); }
  get open() { return this.hasAttribute('open'); }
  set open(v) { this.bool('open', v); }

  get children() { return this.childNodes.filter((n) => n.nodeType === 1); }
  get firstChild() { return this.childNodes[0] || null; }
  get lastChild() { return this.childNodes.at(-1) || null; }
  get parentElement() { return this.parentNode?.nodeType === 1 ? this.parentNode : null; }
  get isConnected() { let n = this; while (n.parentNode) n = n.parentNode; return n === document; }
  get textContent() { return this.childNodes.map((n) => n.textContent).join(''); }
  set textContent(v) { this.replaceChildren(String(v ?? '')); }
  set innerHTML(html) { this.replaceChildren(...parse(html)); }

  adopt(n) {
    if (typeof n !== 'object') n = new Text(n);
    n.parentNode?.removeChild(n);
    n.parentNode = this;
    return n;
  }

  removeChild(n) {
    const i = this.childNodes.indexOf(n);
    if (i >= 0) this.childNodes.splice(i, 1);
    n.parentNode = null;
    return n;
  }

  insertBefore(n, ref) {
    n = this.adopt(n);
    const i = ref ? this.childNodes.indexOf(ref) : -1;
    this.childNodes.splice(i < 0 ? this.childNodes.length : i, 0, n);
    return n;
  }

  appendChild(n) { return this.insertBefore(n, null); }
  append(...ns) { for (const n of ns) this.insertBefore(n, null); }
  prepend(...ns) { const first = this.childNodes[0] || null; for (const n of ns) this.insertBefore(n, first); }
  replaceChildren(...ns) { for (const n of [...this.childNodes]) this.removeChild(n); this.append(...ns); }
  remove() { this.parentNode?.removeChild(this); }
  after(...ns) { const p = this.parentNode, next = p.childNodes[p.childNodes.indexOf(this) + 1] || null; for (const n of ns) p.insertBefore(n, next); }
  before(...ns) { for (const n of ns) this.parentNode.insertBefore(n, this); }
  replaceWith(n) { const p = this.parentNode; p.insertBefore(n, this); p.removeChild(this); }
  contains(n) { for (; n; n = n.parentNode) if (n === this) return true; return false; }

  cloneNode(deep) {
    const c = new Element(this.namespaceURI === 'http://www.w3.org/1999/xhtml' ? this.tagName.toLowerCase() : this.tagName, this.namespaceURI === 'http://www.w3.org/1999/xhtml' ? undefined : this.namespaceURI);
    for (const [k, v] of this.attrs) c.attrs.set(k, v);
    if (deep) c.append(...this.childNodes.map((n) => n.cloneNode(true)));
    return c;
  }

  matches(sel) { return compile(sel)(this); }
  closest(sel) { const m = compile(sel); for (let n = this; n?.nodeType === 1; n = n.parentNode) if (m(n)) return n; return null; }
  querySelectorAll(sel) {
    const m = compile(sel), out = [];
    const walk = (n) => { for (const c of n.children) { if (m(c)) out.push(c); walk(c); } };
    walk(this);
    return out;
  }

  querySelector(sel) { return this.querySelectorAll(sel)[0] || null; }

  getBoundingClientRect() { return rect(); }
  get clientWidth() { return 0; }
  get clientHeight() { return 0; }
  get offsetWidth() { return 0; }
  get offsetHeight() { return 0; }
  get scrollWidth() { return 0; }
  setPointerCapture() {}
  animate() { return { onfinish: null, cancel() {}, finished: new Promise(() => {}) }; }
  focus() {
    if (document.activeElement === this) return;
    focused = this;
    this.dispatchEvent(event('focusin'));
  }

  blur() { if (focused === this) focused = null; }
  click() { this.dispatchEvent(event('click')); }
  showModal() { this.open = true; }
  show() { this.open = true; }
  close(v) {
    if (!this.open) return;
    this.open = false;
    if (v !== undefined) this.returnValue = v;
    this.dispatchEvent(event('close', { bubbles: false }));
  }

  select() {}
}

const make = (tag, ns) => new Element(tag, ns);
const parse = (html) => parseWith(html, make);

// ---- the document and the window ----

let focused = null;
let now = 0;

class Document extends Target {
  constructor() {
    super();
    this.documentElement = new Element('html');
    this.documentElement.parentNode = this;
    this.head = new Element('head');
    this.body = new Element('body');
    this.documentElement.append(this.head, this.body);
    this.visibilityState = 'visible';
    this.title = '';
  }

  get activeElement() { return focused?.isConnected ? focused : this.body; }
  createElement(t) { return new Element(t); }
  createElementNS(ns, t) { return new Element(t, ns); }
  createTextNode(s) { return new Text(s); }
  querySelector(s) { return this.documentElement.matches(s) ? this.documentElement : this.documentElement.querySelector(s); }
  querySelectorAll(s) { return this.documentElement.querySelectorAll(s); }
  elementFromPoint() { return null; }
  execCommand() { return true; }
}

let document, window, windowTarget = null;

// timers and frames run on a clock that moves only when a test says so
const timers = new Map(); // id → {fn, at, every}
const frames = new Map();
let nextId = 1;

function advance(ms) {
  const end = now + ms;
  for (;;) {
    let due = null;
    for (const [id, t] of timers) if (t.at <= end && (!due || t.at < due[1].at)) due = [id, t];
    if (!due) break;
    const [id, t] = due;
    now = t.at;
    if (t.every) t.at += t.every; else timers.delete(id);
    t.fn();
  }
  now = end;
  for (const [id, fn] of [...frames]) { frames.delete(id); fn(now); }
}

class Storage {
  constructor() { this.m = new Map(); }
  getItem(k) { return this.m.has(k) ? this.m.get(k) : null; }
  setItem(k, v) { this.m.set(k, String(v)); }
  removeItem(k) { this.m.delete(k); }
  clear() { this.m.clear(); }
}

export class FakeSocket {
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.all.push(this);
  }

  open() { this.readyState = 1; this.onopen?.({}); }
  send(d) { this.sent.push(JSON.parse(d)); }
  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    queueMicrotask(() => this.onclose?.({ code: 1000 }));
  }
}
FakeSocket.all = [];

/**
 * install puts the stand-in browser in globalThis, with index.html's body,
 * and returns the test's handles. routes answers fetch: "GET /path" → body
 * (a function of the request body, or a value).
 */
export function install(routes = {}) {
  document = new Document();
  window = globalThis;
  const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
  document.body.append(...parse(/<body>([\s\S]*)<\/body>/.exec(html)[1]));
  const winTarget = new Target();
  const loc = { protocol: 'http:', host: 'localhost', origin: 'http://localhost', pathname: '/', search: '' };
  Object.defineProperty(loc, 'href', { get: () => loc.origin + loc.pathname + loc.search });
  const go = (url) => { const u = new URL(url, loc.href); loc.pathname = u.pathname; loc.search = u.search; };
  const fetched = [];
  Object.assign(globalThis, {
    document,
    window,
    addEventListener: winTarget.addEventListener.bind(winTarget),
    removeEventListener: winTarget.removeEventListener.bind(winTarget),
    location: loc,
    history: { replaceState: (s, t, url) => go(url), pushState: (s, t, url) => go(url) },
    localStorage: new Storage(),
    sessionStorage: new Storage(),
    matchMedia: () => ({ matches: false }),
    innerWidth: 1440,
    innerHeight: 900,
    CSS: { escape: (s) => String(s).replace(/["\\]/g, '\\$&') },
    WebSocket: FakeSocket,
    setTimeout: (fn, ms = 0) => { const id = nextId++; timers.set(id, { fn, at: now + Math.max(0, ms) }); return id; },
    clearTimeout: (id) => { timers.delete(id); },
    setInterval: (fn, ms = 0) => { const id = nextId++; timers.set(id, { fn, at: now + Math.max(1, ms), every: Math.max(1, ms) }); return id; },
    clearInterval: (id) => { timers.delete(id); },
    requestAnimationFrame: (fn) => { const id = nextId++; frames.set(id, fn); return id; },
    cancelAnimationFrame: (id) => { frames.delete(id); },
    fetch: async (path, o = {}) => {
      const key = `${o.method || 'GET'} ${path}`;
      fetched.push(key);
      const r = routes[key];
      const body = typeof r === 'function' ? r(o.body && JSON.parse(o.body)) : r;
      const ok = r !== undefined;
      return { ok, status: ok ? 200 : 404, statusText: ok ? 'OK' : 'Not Found', json: async () => (ok ? structuredClone(body) : { error: { code: 'not_found' } }) };
    },
  });
  // the window is a target of its own: events on it are seen by its listeners
  globalThis.dispatchEvent = winTarget.dispatchEvent.bind(winTarget);
  windowTarget = winTarget;
  focused = null;
  return {
    document,
    fetched,
    advance,
    /** flush lets promises and microtasks run. */
    flush: async () => { for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r)); },
    /** mark notes what is registered now; leaks then lists what was added since and is still live. */
    mark() {
      return { listeners: new Set(live), timers: new Set(timers.keys()), frames: new Set(frames.keys()), sockets: FakeSocket.all.length };
    },
    leaks(m) {
      const on = (t) => t === windowTarget || t === document || t.isConnected;
      const name = (t) => (t === windowTarget ? 'window' : t === document ? 'document' : `<${t.tagName.toLowerCase()} class="${t.className}">`);
      return {
        listeners: [...live].filter((l) => !m.listeners.has(l) && on(l.target)).map((l) => `${name(l.target)} ${l.type}`),
        timers: [...timers.keys()].filter((id) => !m.timers.has(id)).map((id) => (timers.get(id).every ? 'interval ' : 'timeout ') + id),
        frames: [...frames.keys()].filter((id) => !m.frames.has(id)).length,
        sockets: FakeSocket.all.slice(m.sockets).filter((s) => s.readyState !== 3).map((s) => s.url),
      };
    },
    /** key sends a keydown to the focused element. */
    key(k, o = {}) {
      const e = event('keydown', { key: k, ctrlKey: false, metaKey: false, altKey: false, ...o });
      document.activeElement.dispatchEvent(Object.assign(e, { target: document.activeElement }));
      return e;
    },
    /** tap presses and releases the mouse on el. */
    tap(el) {
      for (const type of ['pointerdown', 'pointerup']) {
        el.dispatchEvent(event(type, { target: el, pointerId: 1, pointerType: 'mouse', button: 0, clientX: 5, clientY: 5 }));
      }
    },
  };
}
