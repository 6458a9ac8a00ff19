// Race table maths: my board at full size, the opponent's smaller, the eight
// shared foundations between or beside them. Pure.
import { RATIO, TALL, MIN_CW, MAX_CW } from '../layout.js';

export const OPP = 0.6; // opponent card size relative to mine
export const OPP_P = 0.66; // the same on a phone held upright
const G = 0.08; // gap as a share of the card width

/**
 * sizes derives the card metrics of one area from its card width and the
 * cards' height / width ratio (the standard card's by default).
 */
export function sizes(cw, portrait, ratio = RATIO) {
  cw = Math.max(18, Math.floor(cw));
  const ch = Math.round(cw * ratio);
  return {
    cw, ch, portrait, gap: Math.max(2, Math.round(cw * G)),
    downStep: Math.max(2, Math.round(ch * 0.12)),
    upStep: Math.round(ch * (portrait ? 0.34 : 0.26)),
    fanStep: Math.round(portrait ? cw * 0.42 : ch * 0.24),
    // the step after a column's last face-down card, which shows their count
    badge: Math.round(Math.max(12, cw * 0.3)),
  };
}

/**
 * raceLayout sizes the race table for an area of width × height.
 * Portrait (phones): opponent board on top (its stock and waste left of its
 * columns), one row of the 8 foundations, my stock and waste, my columns;
 * the cards grow taller than the standard card where the height allows.
 * Landscape: both boards on the left, opponent above me, the foundations as
 * four suit rows of two on the right, spanning both.
 * Returns {portrait, pad, me, opp, f, oppH, fanMe}: heights in pixels.
 */
export function raceLayout({ width, height, draw = 1 }) {
  const portrait = width < height * 1.05;
  const pad = Math.max(4, Math.round(Math.min(width, height) * 0.012));
  const W = width - 2 * pad, H = height - 2 * pad;
  const fan = draw === 3 ? 2 * 0.42 : 0; // waste fan width, in card widths (portrait)
  let cw, fcw, ratio = RATIO;
  if (portrait) {
    const byW = W / (7 + 6 * G);
    // in card heights: opponent 2.3, foundations 0.8, my stock row 1, my columns 3.6, gaps
    const byH = (H - 6 * pad) / (RATIO * (OPP_P * 2.3 + 0.8 + 1 + 3.6));
    cw = Math.min(byW, byH);
    fcw = Math.min(cw * 0.8, W / (8 + 7 * G + 3 * 0.25));
    // seven columns across a phone leave its height unused: the cards grow
    // taller, as far as my columns keep room for a card, six face down and
    // twelve face-up steps that show the index
    const c = Math.floor(cw), index = Math.ceil(c * 0.36 * 1.05);
    const fit = (height - 4 * pad - Math.round(c * G) - Math.round(Math.max(12, c * 0.3)) - 12 * (index + 2)) /
      (2.3 * Math.floor(c * OPP_P) + Math.floor(fcw) + c * (1 + 1 + 6 * 0.05));
    ratio = Math.max(RATIO, Math.min(TALL, fit));
  } else {
    // widths: stock/waste column, seven columns, a gutter, two foundation slots
    const byW = W / (1 + 7 + 1.6 + 2 * 0.8 + 9 * G + 0.9);
    const byH = (H - 3 * pad) / (RATIO * (OPP * 2.6 + 3.5));
    cw = Math.min(byW, byH);
    fcw = Math.min(cw * 0.8, (H - 3 * pad) / (RATIO * 4 + 3 * G + 0.5));
  }
  cw = Math.max(MIN_CW, Math.min(MAX_CW, Math.floor(cw)));
  const me = sizes(cw, portrait, ratio);
  const opp = sizes(cw * (portrait ? OPP_P : OPP), portrait, ratio);
  const f = sizes(fcw, portrait, ratio);
  const oppH = Math.round(opp.ch * (portrait ? 2.3 : 2.6));
  return { portrait, pad, me, opp, f, oppH, fan };
}
