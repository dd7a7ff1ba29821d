// view.js and geometry.js: the time window, its mapping to canvas x, and where lanes sit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clampView, fitView, niceStep, panView, revealView, timeScale, zoomView } from '../view.js';
import { intervalRow, layoutRuns } from '../geometry.js';

const full = 1_000_000_000;

test('a view stays between 1 µs and 1.2 × the run wide, and never before the start', () => {
    assert.deepEqual(clampView(100, 200, full), { start: 0, end: 1000 });
    assert.deepEqual(clampView(5000, 5100, full), { start: 4550, end: 5550 });
    assert.deepEqual(clampView(-500, 500, full), { start: 0, end: 1000 });
    assert.deepEqual(clampView(0, 5 * full, full), { start: 0, end: 1_200_000_000 });
    assert.deepEqual(clampView(1_000_000_000, 1_200_000_000, full), { start: 900_000_000, end: 1_100_000_000 });
    assert.deepEqual(fitView(full), { start: 0, end: 1_020_000_000 });
});

test('zoom keeps its anchor in place; pan moves by a share of the width', () => {
    const view = { start: 200_000_000, end: 600_000_000 };
    assert.deepEqual(zoomView(view, 0.5, undefined, full), { start: 300_000_000, end: 500_000_000 });
    assert.deepEqual(zoomView(view, 0.5, 200_000_000, full), { start: 200_000_000, end: 400_000_000 });
    assert.deepEqual(zoomView(view, 2, undefined, full), { start: 0, end: 800_000_000 });
    assert.deepEqual(panView(view, 0.25, full), { start: 300_000_000, end: 700_000_000 });
    assert.deepEqual(panView(view, -1, full), { start: 0, end: 400_000_000 });
});

test('reveal zooms onto an entry, or moves only when it is out of sight', () => {
    const view = { start: 0, end: 500_000_000 };
    assert.deepEqual(revealView(view, 100_000_000, 20_000_000, true, full), { start: 80_000_000, end: 140_000_000 });
    assert.equal(revealView(view, 100_000_000, 20_000_000, false, full), view);
    assert.deepEqual(revealView(view, 700_000_000, 100_000_000, false, full), { start: 500_000_000, end: 1_000_000_000 });
});

test('the time scale maps a view onto the plot right of the labels', () => {
    const scale = timeScale({ start: 1000, end: 2000 }, 1158);
    assert.equal(scale.plotWidth, 1000);
    assert.equal(scale.xOf(1000), 150);
    assert.equal(scale.xOf(1500), 650);
    assert.equal(scale.timeAt(650), 1500);
    assert.equal(timeScale({ start: 0, end: 1 }, 20).plotWidth, 10);
});

test('axis steps are 1, 2 or 5 times a power of ten', () => {
    assert.equal(niceStep(1000, 10), 100);
    assert.equal(niceStep(1000, 7), 200);
    assert.equal(niceStep(1000, 3), 500);
    assert.equal(niceStep(1_020_000_000, 11.4), 100_000_000);
});

test('runs and lanes are laid out one above the other', () => {
    const runs = [{ lanes: [{}, {}] }, { lanes: [{}] }];
    assert.equal(layoutRuns(runs), 22 + 56 * 2 + 8 + 22 + 56 + 8);
    assert.deepEqual(runs.map((r) => [r.top, r.height]), [[0, 134], [142, 78]]);
    assert.deepEqual(runs[0].lanes.map((l) => l.top), [22, 78]);
    assert.equal(runs[1].lanes[0].top, 164);
    // A lane with instructions stretches to draw gets their row; the others take no room for it.
    const withRow = [{ lanes: [{ contexts: [{}] }, { contexts: [] }] }];
    assert.equal(layoutRuns(withRow), 22 + 64 + 56 + 8);
    assert.deepEqual(withRow[0].lanes.map((l) => l.height), [64, 56]);
    assert.deepEqual(intervalRow({ signpostsOnly: false }, { depth: 2 }), { top: 3, height: 6 });
    assert.deepEqual(intervalRow({ signpostsOnly: true }, { depth: 2 }), { top: 29, height: 10 });
});
