// Layout maths: card size from the viewport and column compression. Pure.
export const RATIO = 1.4; // card height / width
export const MAX_CW = 132;
export const MIN_CW = 28;

/**
 * computeLayout sizes the cards for a table area of width × height.
 * Portrait: a top row (stock, waste, foundations as a 2×2 block of suit pairs)
 * over nine columns. Landscape: stock and waste | nine columns | 4 suit rows.
 */
export function computeLayout({ width, height, cols = 9 }) {
  const portrait = width < height * 1.05;
  const pad = Math.max(4, Math.round(Math.min(width, height) * 0.012));
  const g = 0.08; // gap as a share of the card width
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
  return {
    portrait, cw, ch, gap, pad,
    downStep: Math.round(ch * 0.12),
    upStep: Math.round(ch * (portrait ? 0.4 : 0.28)),
    fanStep: Math.round(portrait ? cw * 0.46 : ch * 0.26),
  };
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
