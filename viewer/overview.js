// The overview strip above the timeline: every run at once as request density coloured by cache
// hits, drawn once per size and data, with the view's box over it.

import { num } from './format.js';
import { COLORS, STYLE, cacheStyle } from './style.js';
import { fitText, sizeCanvas } from './canvas.js';

/** Draws the overview on `canvas` for the viewer's `state` (its runs, view and cached image). */
export function drawOverview(canvas, state) {
    const { ctx, width, height } = sizeCanvas(canvas);
    const ratio = window.devicePixelRatio || 1;
    const key = width + 'x' + height + '@' + ratio;
    if (!state.overview || state.overview.key !== key) {
        state.overview = { key: key, image: overviewImage(width, height, ratio, state.runs, state.fullSpan) };
    }
    ctx.clearRect(0, 0, width, height);
    ctx.drawImage(state.overview.image, 0, 0, width, height);
    const span = state.fullSpan * 1.02;
    const x0 = (state.view.start / span) * width;
    const x1 = (state.view.end / span) * width;
    ctx.fillStyle = 'rgba(47,111,219,0.12)';
    ctx.fillRect(x0, 0, Math.max(2, x1 - x0), height);
    ctx.strokeStyle = '#2f6fdb';
    ctx.lineWidth = 1;
    ctx.strokeRect(x0 + 0.5, 0.5, Math.max(2, x1 - x0) - 1, height - 1);
    canvas.dataset.viewStart = String(Math.round(state.view.start));
}

/** Requests per pixel column of each run, as a density strip coloured by the column's cache ratio;
 *  columns of aggregate bands only in the band colour. */
function overviewImage(width, height, ratio, runs, fullSpan) {
    const image = document.createElement('canvas');
    image.width = Math.max(1, Math.round(width * ratio));
    image.height = Math.max(1, Math.round(height * ratio));
    const ctx = image.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = '#f3f4f6';
    ctx.fillRect(0, 0, width, height);
    const span = fullSpan * 1.02;
    const px = (t) => (t / span) * width;
    const bandHeight = (height - 4) / Math.max(1, runs.length);
    const columns = Math.max(1, Math.floor(width));
    const column = (t) => Math.max(0, Math.min(columns - 1, Math.floor(px(t))));
    runs.forEach((run, index) => {
        const counts = new Float64Array(columns);
        const banded = new Float64Array(columns);
        const cached = new Float64Array(columns);
        const input = new Float64Array(columns);
        for (const r of run.requests) {
            const a = column(r.ts);
            const b = Math.max(a, column(r.ts + r.dur));
            const withCache = r.ratio !== null;
            const cachedTokens = withCache ? num(r.record.cachedInputTokens) : 0;
            const inputTokens = withCache ? num(r.record.inputTokens) : 0;
            for (let c = a; c <= b; c++) {
                counts[c] += 1;
                cached[c] += cachedTokens;
                input[c] += inputTokens;
            }
        }
        for (const band of run.bands) {
            const a = column(band.ts);
            const b = Math.max(a, column(band.ts + band.dur));
            for (let c = a; c <= b; c++) banded[c] += band.requests / (b - a + 1);
        }
        let max = 1;
        for (let c = 0; c < columns; c++) max = Math.max(max, counts[c] + banded[c]);
        const top = 2 + index * bandHeight;
        for (let c = 0; c < columns; c++) {
            const all = counts[c] + banded[c];
            if (!all) continue;
            const h = Math.max(2, ((bandHeight - 4) * all) / max);
            ctx.fillStyle = !counts[c] ? STYLE.band.color
                : cacheStyle(input[c] > 0 ? cached[c] / input[c] : null).color;
            ctx.fillRect(c, top + bandHeight - 2 - h, 1, h);
        }
        for (const h of run.handoffs) {
            ctx.fillStyle = STYLE.handoff.color;
            ctx.fillRect(Math.round(px(h.ts)), top, 1, bandHeight - 2);
        }
        if (runs.length > 1) {
            ctx.fillStyle = COLORS.muted;
            ctx.font = '10px system-ui, sans-serif';
            ctx.textBaseline = 'top';
            ctx.fillText(fitText(ctx, run.label, 200), 4, top + 1);
        }
    });
    return image;
}
