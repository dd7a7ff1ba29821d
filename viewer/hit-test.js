// Which entry is drawn at a point of the timeline canvas, and where an entry is drawn: the two
// directions of one mapping. Pure: takes the runs (laid out by layoutRuns), the time scale of the
// frame (timeScale) and the vertical scroll, and returns an entry or a point.

import { AXIS_HEIGHT, LABEL_WIDTH, ROW, SIGNPOST_DEPTHS, SIGNPOST_ROW, intervalRow } from './geometry.js';

/** Index of the first entry with ts >= t in a list sorted by ts. */
export function lowerBound(list, t) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid].ts < t) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/** Calls body for each entry overlapping [t0, t1]. */
export function forEachVisible(list, maxDur, t0, t1, body) {
    for (let i = lowerBound(list, t0 - maxDur); i < list.length && list[i].ts <= t1; i++) {
        const e = list[i];
        if (e.ts + e.dur >= t0) body(e);
    }
}

/** The entry drawn at canvas point (x, y), or null: handoffs first, then the row under y. */
export function hitTest(runs, scale, scrollY, x, y) {
    if (y < AXIS_HEIGHT || x < LABEL_WIDTH) return null;
    const contentY = y - AXIS_HEIGHT + scrollY;
    const slack = (scale.view.end - scale.view.start) / scale.plotWidth * 3;
    const t = scale.timeAt(x);
    for (const run of runs) {
        for (const l of run.lanes) {
            if (contentY < l.top || contentY >= l.top + l.height) continue;
            const local = contentY - l.top;
            // Handoff markers win: they are thin and drawn on top.
            let best = null;
            let bestDistance = Infinity;
            forEachVisible(l.handoffs, 0, t - slack * 2, t + slack * 2, (e) => {
                const d = Math.abs(e.ts - t);
                if (d < bestDistance) { best = e; bestDistance = d; }
            });
            if (best) return best;
            const pick = (list, maxDur) => {
                let found = null;
                let foundDistance = Infinity;
                forEachVisible(list, maxDur, t - slack, t + slack, (e) => {
                    const inside = t >= e.ts && t <= e.ts + e.dur;
                    const d = inside ? 0 : Math.min(Math.abs(e.ts - t), Math.abs(e.ts + e.dur - t));
                    if (d < foundDistance || (d === foundDistance && found && e.dur < found.dur)) {
                        found = e;
                        foundDistance = d;
                    }
                });
                return found;
            };
            const inRow = (rowSpec) => local >= rowSpec.top - 2 && local <= rowSpec.top + rowSpec.height + 2;
            if (l.signpostsOnly) {
                const depth = Math.max(0, Math.min(SIGNPOST_DEPTHS - 1, Math.floor((local - 3) / SIGNPOST_ROW)));
                const atDepth = l.intervals.filter((e) => e.depth === depth);
                return pick(atDepth, l.maxDur.interval);
            }
            if (inRow(ROW.request) && l.bands.length) return pick(l.bands, l.maxDur.band);
            if (inRow(ROW.request)) return pick(l.requests, l.maxDur.request);
            if (inRow(ROW.tool)) return pick(l.tools, l.maxDur.tool);
            if (inRow(ROW.interval)) return pick(l.intervals, l.maxDur.interval);
            if (inRow(ROW.instructions)) return pick(l.contexts, l.maxDur.instructions);
            return null;
        }
    }
    return null;
}

/** The middle of where an entry is drawn, in canvas coordinates (off the canvas when out of view);
 *  a request's middle is that of its generating part. */
export function entryPoint(entry, scale, scrollY) {
    const xOf = scale.xOf;
    const rowSpec = entry.kind === 'tool' ? ROW.tool
        : entry.kind === 'interval' ? intervalRow(entry.lane, entry)
        : entry.kind === 'instructions' ? ROW.instructions : ROW.request;
    let x;
    if (entry.kind === 'request' && entry.ttft !== null && entry.dur > entry.ttft) {
        x = (xOf(entry.ts + entry.ttft) + xOf(entry.ts + entry.dur)) / 2;
    } else {
        x = (xOf(entry.ts) + xOf(entry.ts + entry.dur)) / 2;
    }
    const y = entry.lane.top + AXIS_HEIGHT - scrollY
        + (entry.kind === 'handoff' ? entry.lane.height / 2 : rowSpec.top + rowSpec.height / 2);
    return { x: x, y: y };
}
