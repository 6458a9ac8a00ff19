// Layout maths: card size from the viewport and column compression. Pure.
export const RATIO = 1.4; // card height / width
export const MAX_CW = 132;
export const MIN_CW = 28;
export const MIN_RANK = 16; // px: the corner index stays readable on a phone

/** rankPx is the size of a card's corner index: a share of its width, at least MIN_RANK while the card has room for it. */
export function rankPx(cw) {
  return Math.round(Math.max(cw * 0.36, Math.min(MIN_RANK, cw * 0.46)));
}

/**
 * computeLayout sizes the cards for a table area of width × height.
 * Portrait: a top row (stock, waste, foundations as a 2×2 block of suit pairs)
 * over nine columns. Landscape: stock and waste | nine columns | 4 suit rows.
 * longest ({down, up}: the column that needs most room) lets the steps
 * between cards grow, so that columns overlap less where there is height
 * to spare, and shrink so that it fits.
 */
export function computeLayout({ width, height, cols = 9, longest = null }) {
  const portrait = width < height * 1.05;
  const pad = Math.max(4, Math.round(Math.min(width, height) * 0.012));
  // gap as a share of the card width: narrow tables (nine columns on a
  // phone) give their gaps to the cards
  const g = portrait && width < 600 ? 0.05 : 0.08;
  let cw;
  if (portrait) {
    const byW = (width - 2 * pad) / (cols + (cols - 1) * g);
    // top row two cards high, then a column of a card plus twelve steps
    const byH = (height - 2 * pad) / (RATIO * (2 + 1 + 12 * 0.2) + 3 * g);
    cw = Math.min(byW, byH);
  } else {
    const byW = (width - 2 * pad) / (cols + 3 + (cols - 1) * g + g + 0.9);
    const byH = (height - 2 * pad) / (4 * RATIO + 3 * g);
    cw = Math.min(byW, byH);
  }
  cw = Math.max(MIN_CW, Math.min(MAX_CW, Math.floor(cw)));
  const ch = Math.round(cw * RATIO);
  const gap = Math.max(2, Math.round(cw * g));
  const rank = rankPx(cw);
  // the height of the columns: the table less the top row in portrait
  const colH = height - 2 * pad - (portrait ? 2 * ch + gap + Math.round(gap * 2.5) : 0);
  const L = {
    portrait, cw, ch, gap, pad, rank, colH,
    downStep: Math.round(ch * 0.12),
    // a face-up card shows at least its index and suit
    upStep: Math.max(rank + 6, Math.round(ch * (portrait ? 0.4 : 0.28))),
    // a fanned waste card shows its whole index ("10")
    fanStep: Math.round(portrait ? Math.max(cw * 0.46, rank * 1.25 + 2) : ch * 0.26),
  };
  if (longest) Object.assign(L, growSteps(L, longest));
  return L;
}

/**
 * growSteps returns the steps for the longest column: up to half a card
 * between face-up cards (a third in landscape), then up to a fifth between
 * face-down ones, while it fits; never less than the natural steps
 * (columnSteps shrinks the columns that need it).
 */
function growSteps(L, { down, up }) {
  const badge = down ? Math.max(14, Math.round(L.cw * 0.3)) : 0;
  const maxUp = Math.round(L.ch * (L.portrait ? 0.5 : 0.34));
  const maxDown = Math.round(L.ch * 0.2);
  const room = L.colH - L.ch - badge;
  if (room <= 0) return {};
  // the face-up cards first: they are the ones to read
  const fitUp = up > 1 ? Math.floor((room - down * L.downStep) / (up - 1)) : maxUp;
  const upStep = Math.max(L.upStep, Math.min(maxUp, fitUp));
  const left = room - Math.max(0, up - 1) * upStep;
  const downStep = down ? Math.max(L.downStep, Math.min(maxDown, Math.floor(left / down))) : L.downStep;
  return { downStep, upStep };
}

/** longestColumn returns {down, up} of the column of view v that needs most room. */
export function longestColumn(v) {
  let best = { down: 0, up: 0 }, most = -1;
  for (const c of v.columns) {
    const need = c.down * 0.3 + c.up.length;
    if (need > most) { most = need; best = { down: c.down, up: c.up.length }; }
  }
  return best;
}

/**
 * columnSteps returns the offsets between face-down cards and between face-up
 * cards so that the whole column fits in avail pixels: first the face-down
 * steps shrink, then the face-up ones; every card keeps a strip to grab.
 */
export function columnSteps(down, up, L, avail) {
  let ds = L.downStep, us = L.upStep;
  const need = (d, u) => down * d + Math.max(0, up - 1) * u + L.ch - (up === 0 && down > 0 ? d : 0);
  if (need(ds, us) <= avail) return { down: ds, up: us };
  const dMin = Math.max(2, Math.round(L.ch * 0.05));
  ds = dMin;
  if (need(ds, us) <= avail) {
    // give the face-down cards back what room there is
    const d = down > 0 ? Math.floor((avail - need(0, us)) / down) : ds;
    return { down: Math.max(dMin, Math.min(L.downStep, d)), up: us };
  }
  const uMin = Math.max(4, Math.round(L.ch * 0.1));
  if (up > 1) us = Math.max(uMin, Math.floor((avail - need(ds, 0)) / (up - 1)));
  if (need(ds, us) > avail && down > 0) ds = Math.max(1, Math.floor((avail - need(0, us)) / down));
  return { down: ds, up: us };
}

/** wasteFan lists which waste cards to draw and at what fan position. */
export function wasteFan(len, draw) {
  const shown = Math.min(len, draw === 3 ? 3 : 1);
  const out = [];
  if (len > shown) out.push({ index: len - shown - 1, pos: 0 });
  for (let i = 0; i < shown; i++) out.push({ index: len - shown + i, pos: i });
  return out;
}
