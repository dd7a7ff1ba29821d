// bars.js: rectangles merged per colour, and narrow requests summed per pixel column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeBars, makeColumns } from '../bars.js';
import { STYLE } from '../style.js';

/** A context that records what is filled, and with which colour. */
function recorder() {
    const fills = [];
    return { fills, fillStyle: '', fillRect(x, y, w, h) { fills.push([this.fillStyle, x, y, w, h]); } };
}

test('touching bars of one colour, top and height become one rectangle', () => {
    const bars = makeBars();
    bars.add('#111', 10, 5, 4, 8);
    bars.add('#111', 14.5, 5, 4, 8);
    bars.add('#111', 30, 5, 2, 8);
    bars.add('#222', 12, 5, 1, 8);
    bars.add('#111', 31, 7, 1, 4);
    const ctx = recorder();
    bars.draw(ctx);
    assert.deepEqual(ctx.fills, [
        ['#111', 10, 5, 8.5, 8], ['#111', 30, 5, 2, 8], ['#111', 31, 7, 1, 4], ['#222', 12, 5, 1, 8],
    ]);
    const again = recorder();
    bars.draw(again);
    assert.deepEqual(again.fills, [], 'drawing empties the batch');
});

test('a pixel column shows the part that holds most of its time', () => {
    const bars = makeBars();
    const columns = makeColumns(bars, 100, 15);
    columns.add(20.2, STYLE.waitRest, 30);
    columns.add(20.7, STYLE.cached, 50);
    columns.add(21.1, STYLE.waitPrompt, 40);
    columns.add(21.5, STYLE.uncached, 10);
    columns.flush();
    const ctx = recorder();
    bars.draw(ctx);
    assert.deepEqual(ctx.fills, [[STYLE.cached.color, 20, 102, 1, 11], [STYLE.waitPrompt.color, 21, 100, 1, 15]]);
});
