// The time window the timeline shows, and the mapping between its times (ns since the run's
// start) and canvas x. Pure: each function takes a view { start, end } and returns a new one or a
// figure; nothing here keeps state.

import { LABEL_WIDTH } from './geometry.js';

/** The narrowest view: 1 µs. */
export const MIN_SPAN = 1000;

/**
 * The view from `start` to `end`, kept between MIN_SPAN and 1.2 × `fullSpan` wide, never before
 * the run's start (nothing happens at negative time) and never far past its end.
 */
export function clampView(start, end, fullSpan) {
    const maxSpan = fullSpan * 1.2;
    const span = Math.min(Math.max(end - start, MIN_SPAN), maxSpan);
    const center = (start + end) / 2;
    let s = center - span / 2;
    const lo = 0;
    const hi = Math.max(span, fullSpan * 1.1);
    if (s < lo) s = lo;
    if (s + span > hi) s = Math.max(lo, hi - span);
    return { start: s, end: s + span };
}

/** The view that shows everything. */
export function fitView(fullSpan) {
    return clampView(0, fullSpan * 1.02, fullSpan);
}

/** The view zoomed by `factor` (below 1: in) about `anchorTime`, the middle when undefined. */
export function zoomView(view, factor, anchorTime, fullSpan) {
    const { start, end } = view;
    const anchor = anchorTime === undefined ? (start + end) / 2 : anchorTime;
    return clampView(anchor - (anchor - start) * factor, anchor + (end - anchor) * factor, fullSpan);
}

/** The view moved by `fraction` of its width (negative: to earlier times). */
export function panView(view, fraction, fullSpan) {
    const span = view.end - view.start;
    return clampView(view.start + span * fraction, view.end + span * fraction, fullSpan);
}

/** The view centred on [ts, ts + dur]: zoomed to a width that shows it well when `zoom` is true,
 *  else only moved, and only when it is not already wholly in sight. */
export function revealView(view, ts, dur, zoom, fullSpan) {
    const span = view.end - view.start;
    const middle = ts + dur / 2;
    if (zoom) {
        const width = Math.max(MIN_SPAN * 10, dur * 3, span / 50);
        return clampView(middle - width / 2, middle + width / 2, fullSpan);
    }
    if (ts < view.start || ts + dur > view.end) return clampView(middle - span / 2, middle + span / 2, fullSpan);
    return view;
}

/**
 * The mapping of `view` onto a canvas `width` CSS pixels wide: the plot's width right of the
 * labels, x of a time and the time at an x.
 */
export function timeScale(view, width) {
    const plotWidth = Math.max(10, width - LABEL_WIDTH - 8);
    const span = view.end - view.start;
    return {
        view: view,
        plotWidth: plotWidth,
        xOf: (t) => LABEL_WIDTH + ((t - view.start) / span) * plotWidth,
        timeAt: (x) => view.start + ((x - LABEL_WIDTH) / plotWidth) * span,
    };
}

/** A round step (1, 2 or 5 × a power of ten) that cuts `span` into about `count` parts. */
export function niceStep(span, count) {
    const raw = span / count;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
    return 10 * power;
}
