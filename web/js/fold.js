// Folding the deltas of protocol 2 events into a game view: the same rules
// as the server's (see the protocol document, "Events as deltas").
//
// A delta is an object whose keys name what changed: w (waste) and s
// (stock count); fN foundation N; cN / dN column N's face-up cards and
// face-down count; in a race 1x / 2x the same inside seat 1 or 2, with
// 1n / 2n its count, 1b / 2b blocked, 1p / 2p its player; any other key is
// the view's own key, set to the value. A pile's value is [keep, item…]:
// the pile keeps its first keep items and gets the rest on top.

const splice = (pile, [keep, ...items]) => [...(pile || []).slice(0, keep), ...items];

const SEAT = /^([12])([a-z]\d*)$/;
const PILE = /^([fcd])([1-9])$/;

/** fold returns the view after an event: view is not changed. */
export function fold(view, seq, d) {
  const v = structuredClone(view);
  v.seq = seq;
  for (const [key, val] of Object.entries(d)) {
    let obj = v;
    let name = key;
    const s = SEAT.exec(key);
    if (s) {
      obj = v.seats[s[1] - 1];
      name = s[2];
    }
    const p = PILE.exec(name);
    if (name === 'w') obj.waste = splice(obj.waste, val);
    else if (name === 's') obj.stock = val;
    else if (name === 'n') obj.count = val;
    else if (name === 'b') obj.blocked = val;
    else if (name === 'p') obj.player = val;
    else if (p && p[1] === 'f') v.foundations[p[2] - 1] = splice(v.foundations[p[2] - 1], val);
    else if (p && p[1] === 'c') obj.columns[p[2] - 1].up = splice(obj.columns[p[2] - 1].up, val);
    else if (p && p[1] === 'd') obj.columns[p[2] - 1].down = val;
    else v[key] = val;
  }
  return v;
}
