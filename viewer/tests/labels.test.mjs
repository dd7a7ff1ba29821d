// labels.js: the hover line of each kind of entry, and a turn's line in the event list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hoverText, turnText } from '../labels.js';
import { loadTrace } from '../model.js';
import { smallExport } from './fixture.mjs';

test('hover text names what is not on the bar', () => {
    const run = loadTrace(smallExport()).runs[0];
    assert.equal(hoverText(run.requests[0]), 'smollm2-135m · 900 ms · TTFT 123 ms');
    assert.equal(hoverText(run.tools[1]), 'getCalendar · 150 ms · error');
    assert.equal(hoverText(run.handoffs[0]), 'model: smollm2-135m → smollm2-360m');
    assert.equal(hoverText(run.intervals[0]), 'PlanDay · 2.60 s');
    assert.equal(hoverText({ kind: 'band', requests: 40, tools: 3, turns: 2, record: {} }),
        '40 requests, 3 tool calls, 2 turns starting (aggregate band)');
    assert.equal(hoverText(null), '');
});

test("a turn's line", () => {
    const turn = loadTrace(smallExport()).runs[0].lanes[0].turns[0];
    assert.equal(turnText(turn), 'turn 1 of planner: 2 requests, 2 tool calls, total 2.49 s');
    assert.equal(turnText({ ...turn, inferred: true }), 'turn 1 of planner: 2 requests, 2 tool calls, total 2.49 s (inferred)');
});
