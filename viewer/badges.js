// What a lane drawn as aggregate bands shows of each band besides its bar: the shade of its p95
// strip, and its findings as a count, one badge per cluster of bands that would overlap.

import { formatCount } from './format.js';
import { STYLE } from './style.js';

/** The p95 strip's shades: eight steps of STYLE.bandP95's colour, so its rectangles batch. */
const HEAT_STEPS = 8;
/** Pixels a badge takes: bands starting closer than this to a badge's start share it. */
const BADGE_ROOM = 26;

/** The shade of a band's p95 strip for `ratio`: 0 for the run's fastest band, 1 for its slowest. */
export function heatColor(ratio) {
    const step = Math.max(1, Math.min(HEAT_STEPS, Math.ceil(ratio * HEAT_STEPS)));
    return 'rgba(153,153,51,' + (step / HEAT_STEPS).toFixed(3) + ')';
}

/**
 * Badges with the number of findings about bands, drawn at `top` (the request row) over the bars:
 * `add(x, findings)` for each band left to right, with the indexes of its findings; `draw()` once.
 * A finding about several bands of one badge counts once. Counts go to `drawn.bandFindings`
 * (summed over badges) and `drawn.findingBadge`.
 */
export function makeBadges(ctx, top, drawn) {
    const groups = [];
    return {
        add(x, findings) {
            const last = groups[groups.length - 1];
            const group = last && x < last.x + BADGE_ROOM ? last : { x: x, findings: new Set() };
            if (group !== last) groups.push(group);
            for (const index of findings) group.findings.add(index);
        },
        draw() {
            ctx.font = '600 10px system-ui, sans-serif';
            for (const group of groups) {
                const text = formatCount(group.findings.size);
                const width = ctx.measureText(text).width + 6;
                ctx.fillStyle = '#ffffff';
                ctx.fillRect(group.x, top - 1, width, 11);
                ctx.strokeStyle = STYLE.finding.color;
                ctx.strokeRect(group.x + 0.5, top - 0.5, width - 1, 10);
                ctx.fillStyle = STYLE.finding.color;
                ctx.fillText(text, group.x + 3, top + 4.5);
                drawn.bandFindings += group.findings.size;
                drawn.findingBadge += 1;
            }
            ctx.font = '11px system-ui, sans-serif';
        },
    };
}
