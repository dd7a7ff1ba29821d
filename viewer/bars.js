// Batching of a lane's rectangles: bars merged per colour, and requests too narrow to show their
// parts summed per pixel column. Pure until drawn: both collect rectangles, and `draw` takes the
// context to fill them on.

import { STYLE } from './style.js';

/**
 * Rectangles of one frame, grouped by colour, drawn in one pass a colour: a rectangle that starts
 * within half a pixel of the last one of its colour, top and height extends it. Dense lanes thus
 * cost a draw per visible run of bars, not a draw per bar, and a colour is set once, not per bar.
 * Colours are drawn in the order they were first used, so a bar added later stays on top.
 */
export function makeBars() {
    // Per colour: its rectangles as x, top, width, height in one flat array (no object per bar),
    // and where the last rectangle of each top and height starts in it.
    const groups = new Map();
    return {
        add(color, x, top, w, h) {
            let group = groups.get(color);
            if (!group) {
                group = { rects: [], open: new Map() };
                groups.set(color, group);
            }
            const rects = group.rects;
            const key = top * 1024 + h;
            const last = group.open.get(key);
            if (last !== undefined && x >= rects[last] && x <= rects[last] + rects[last + 2] + 0.5) {
                rects[last + 2] = Math.max(rects[last + 2], x + w - rects[last]);
                return;
            }
            group.open.set(key, rects.length);
            rects.push(x, top, w, h);
        },
        draw(ctx) {
            for (const [color, group] of groups) {
                ctx.fillStyle = color;
                const rects = group.rects;
                for (let i = 0; i < rects.length; i += 4) {
                    ctx.fillRect(rects[i], rects[i + 1], rects[i + 2], rects[i + 3]);
                }
            }
            groups.clear();
        },
    };
}

/**
 * Requests under two pixels wide, summed per pixel column of the request row: a column shows the
 * part (a shade of waiting or a cache colour of generating) that holds most of its time, drawn as
 * that part is on a wide bar. Requests come in time order, so the columns do too.
 */
export function makeColumns(bars, top, h) {
    let column = null;
    const time = new Map();
    const flush = () => {
        if (column === null) return;
        let best = null;
        let most = -1;
        for (const [style, t] of time) {
            if (t > most) { best = style; most = t; }
        }
        const waiting = best === STYLE.waitWhole || best === STYLE.waitRest || best === STYLE.waitPrompt;
        if (waiting) bars.add(best.color, column, top, 1, h);
        else bars.add(best.color, column, top + 2, 1, h - 4);
        time.clear();
        column = null;
    };
    return {
        add(x, style, t) {
            const c = Math.floor(x);
            if (c !== column) {
                flush();
                column = c;
            }
            time.set(style, (time.get(style) || 0) + t);
        },
        flush: flush,
    };
}
