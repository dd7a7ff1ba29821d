// hit-test.js: the entry under a point, and the point where an entry is drawn, on a laid-out run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entryPoint, forEachVisible, hitTest, lowerBound } from '../hit-test.js';
import { loadTrace } from '../model.js';
import { layoutRuns } from '../geometry.js';
import { timeScale } from '../view.js';
import { smallExport } from './fixture.mjs';

function laidOut() {
    const { runs } = loadTrace(smallExport());
    layoutRuns(runs);
    // 1158 px wide: a plot of 1000 px, 4 ms a pixel.
    return { runs, scale: timeScale({ start: 0, end: 4_000_000_000 }, 1158) };
}

test('lowerBound and forEachVisible find entries by time', () => {
    const list = [{ ts: 0, dur: 5 }, { ts: 10, dur: 30 }, { ts: 20, dur: 1 }, { ts: 50, dur: 1 }];
    assert.equal(lowerBound(list, -1), 0);
    assert.equal(lowerBound(list, 10), 1);
    assert.equal(lowerBound(list, 11), 2);
    assert.equal(lowerBound(list, 99), 4);
    const seen = [];
    forEachVisible(list, 30, 25, 45, (e) => seen.push(e.ts));
    assert.deepEqual(seen, [10]);
});

test('a point in the request row of a lane picks the request there', () => {
    const { runs, scale } = laidOut();
    // The planner lane starts at y 22 + 24 (axis); its request row is 11 to 26 below that.
    assert.equal(hitTest(runs, scale, 0, scale.xOf(500_000_000), 22 + 24 + 20).id, '10');
    assert.equal(hitTest(runs, scale, 0, scale.xOf(2_000_000_000), 22 + 24 + 20).id, '11');
    assert.equal(hitTest(runs, scale, 0, scale.xOf(1_000_000_000), 22 + 24 + 36).id, '12');
    assert.equal(hitTest(runs, scale, 0, scale.xOf(1_500_000_000), 22 + 24 + 7).id, '15');
    assert.equal(hitTest(runs, scale, 0, scale.xOf(1_301_000_000), 22 + 24 + 36).id, '14');
    assert.equal(hitTest(runs, scale, 0, scale.xOf(3_200_000_000), 86 + 24 + 20).id, '20');
});

test('nothing is hit over the labels, the axis or an empty row', () => {
    const { runs, scale } = laidOut();
    assert.equal(hitTest(runs, scale, 0, 100, 22 + 24 + 20), null);
    assert.equal(hitTest(runs, scale, 0, 500, 10), null);
    assert.equal(hitTest(runs, scale, 0, scale.xOf(3_800_000_000), 22 + 24 + 20), null);
    assert.equal(hitTest(runs, scale, 0, scale.xOf(500_000_000), 22 + 24 + 46), null);
});

test("an entry's drawn point hits that entry, scrolled or not", () => {
    const { runs, scale } = laidOut();
    const request = runs[0].requests[0];
    // The generating part of request 10 runs from 133 to 910 ms: its middle, 521.5 ms, is 130.375 px in.
    assert.deepEqual(entryPoint(request, scale, 0), { x: 150 + 521.5 / 4, y: 22 + 24 + 11 + 7.5 });
    for (const scrollY of [0, 40]) {
        for (const entry of [...runs[0].requests, ...runs[0].tools, ...runs[0].handoffs, ...runs[0].contexts]) {
            const p = entryPoint(entry, scale, scrollY);
            assert.equal(hitTest(runs, scale, scrollY, p.x, p.y), entry, entry.id + ' at scroll ' + scrollY);
        }
    }
});
