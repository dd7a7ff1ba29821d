// Canvas helpers the timeline and the overview share: sizing a canvas to its CSS box, fitting text
// to a width, and the hatching of a failed bar.

import { STYLE } from './style.js';

/** Fits the canvas's pixels to its CSS size; returns its context, width and height (CSS pixels). */
export function sizeCanvas(canvas) {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    const w = Math.max(1, Math.round(width * ratio));
    const h = Math.max(1, Math.round(height * ratio));
    if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    return { ctx: ctx, width: width, height: height };
}

/** `text`, cut with an ellipsis to fit `width` pixels in the context's font; "" when nothing fits. */
export function fitText(ctx, text, width) {
    if (width <= 8) return '';
    if (ctx.measureText(text).width <= width) return text;
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (ctx.measureText(text.slice(0, mid) + '…').width <= width) lo = mid; else hi = mid - 1;
    }
    return lo > 0 ? text.slice(0, lo) + '…' : '';
}

let hatchPattern = null;

/** Black diagonal stripes over a failed bar. */
function hatch(ctx) {
    if (!hatchPattern) {
        const tile = document.createElement('canvas');
        tile.width = 6;
        tile.height = 6;
        const t = tile.getContext('2d');
        t.strokeStyle = STYLE.failed.color;
        t.lineWidth = 1.5;
        t.beginPath();
        t.moveTo(-1, 7);
        t.lineTo(7, -1);
        t.moveTo(5, 7);
        t.lineTo(7, 5);
        t.moveTo(-1, 1);
        t.lineTo(1, -1);
        t.stroke();
        hatchPattern = ctx.createPattern(tile, 'repeat');
    }
    return hatchPattern;
}

/** Draws a failed bar's hatching, black border and, where it fits, a cross. */
export function drawFailure(ctx, x, top, w, h, drawn) {
    ctx.fillStyle = hatch(ctx);
    ctx.fillRect(x, top, w, h);
    ctx.strokeStyle = STYLE.failed.color;
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, top + 0.5, Math.max(1, w - 1), h - 1);
    if (w >= h) {
        const cx = x + Math.min(w / 2, h / 2 + 1);
        const r = h / 2 - 2;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(cx - r, top + 2);
        ctx.lineTo(cx + r, top + h - 2);
        ctx.moveTo(cx + r, top + 2);
        ctx.lineTo(cx - r, top + h - 2);
        ctx.stroke();
    }
    drawn.failed += 1;
}
