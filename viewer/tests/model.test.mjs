// model.js: the data prepared as lanes and entries, the run's figures, and the findings' entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheRatio, failed, loadTrace, percentile, requestRate, summarize } from '../model.js';
import { smallExport } from './fixture.mjs';

test('a run has a lane per session, and one for records outside any, last', () => {
    const { runs, fullSpan } = loadTrace(smallExport());
    assert.equal(runs.length, 1);
    const [planner, outside] = runs[0].lanes;
    assert.equal(runs[0].label, 'small');
    assert.deepEqual(runs[0].lanes.map((l) => l.label), ['planner', 'outside any session']);
    assert.deepEqual(planner.requests.map((e) => e.id), ['10', '11']);
    assert.deepEqual(planner.tools.map((e) => e.id), ['12', '13']);
    assert.deepEqual(outside.requests.map((e) => e.id), ['20']);
    assert.equal(planner.counts, '2 req · 2 tools · 2 intervals');
    assert.equal(outside.counts, '1 req');
    assert.equal(runs[0].end, 4_000_000_000);
    assert.equal(fullSpan, 4_000_000_000);
});

test('requests know their tool calls, cache share, prompt processing and turn', () => {
    const run = loadTrace(smallExport()).runs[0];
    const [first, second] = run.requests;
    assert.deepEqual(first.toolCalls.map((t) => t.id), ['12', '13']);
    assert.equal(run.tools[0].parent, first);
    assert.equal(first.ratio, 1000 / 1234);
    assert.equal(second.ratio, 0);
    assert.equal(first.promptDur, 100_000_000);
    assert.equal(second.promptDur, null);
    assert.equal(first.modelChanged, true);
    assert.equal(second.modelChanged, true);
    const turn = run.lanes[0].turns[0];
    assert.equal(turn.number, 1);
    assert.equal(turn.ts, 10_000_000);
    assert.equal(turn.dur, 2_490_000_000);
    assert.equal(turn.tools, 2);
    assert.equal(second.turn, turn);
    assert.equal(second.round, 1);
});

test('intervals nest by depth', () => {
    const lane = loadTrace(smallExport()).runs[0].lanes[0];
    assert.deepEqual(lane.intervals.map((e) => [e.id, e.depth]), [['15', 0], ['16', 1]]);
    assert.equal(lane.signpostsOnly, false);
});

test("a finding's entries, each once; the entry knows its findings", () => {
    const { runs, findingEntries } = loadTrace(smallExport());
    assert.deepEqual(findingEntries.map((entries) => entries.map((e) => e.id)), [['10']]);
    assert.deepEqual(runs[0].byID.get('10').findings, [0]);
});

test("the run's figures are computed when the export gives none", () => {
    const summary = loadTrace(smallExport()).runs[0].summary;
    assert.deepEqual(summary, {
        requests: 3, ttftP50: 123_000_000, ttftP95: 380_000_000, tokensPerSecondP50: 40 / 0.72,
        cacheHitRate: 1300 / 2534, modelTime: 2_500_000_000, toolTime: 290_000_000, toolCalls: 2, errors: 1,
    });
});

test("the export's own figures win", () => {
    const data = smallExport();
    data.summary = { runs: [{ requests: 99 }] };
    assert.deepEqual(loadTrace(data).runs[0].summary, { requests: 99 });
    assert.deepEqual(summarize({ requests: [], tools: [] }, { requests: 5 }), { requests: 5 });
});

test('data without runs is refused', () => {
    assert.throws(() => loadTrace({}), /no "runs" array/);
    assert.throws(() => loadTrace(null), /no "runs" array/);
});

test('cacheRatio, requestRate, failed and percentile', () => {
    assert.equal(cacheRatio({ inputTokens: 400, cachedInputTokens: 300 }), 0.75);
    assert.equal(cacheRatio({ inputTokens: 400, cachedInputTokens: 500 }), 1);
    assert.equal(cacheRatio({ inputTokens: 0, cachedInputTokens: 0 }), null);
    assert.equal(cacheRatio({ inputTokens: 400 }), null);
    assert.equal(requestRate({ ttft: 1e8, dur: 1.1e9, outputTokens: 41 }), 40);
    assert.equal(requestRate({ rate: 12.5, ttft: 1e8, dur: 1.1e9, outputTokens: 41 }), 12.5);
    assert.equal(requestRate({ ttft: 1e8, dur: 1.1e9, outputTokens: 1 }), null);
    assert.equal(requestRate({ ttft: 1e9, dur: 1e9, outputTokens: 41 }), null);
    assert.equal(failed({ kind: 'tool', record: { outcome: 'error' } }), true);
    assert.equal(failed({ kind: 'tool', record: { outcome: 'ok' } }), false);
    assert.equal(failed({ kind: 'request', record: { error: 'timeout' } }), true);
    assert.equal(failed({ kind: 'request', record: {} }), false);
    assert.equal(percentile([1, 2, 3, 4], 50), 2);
    assert.equal(percentile([1, 2, 3, 4], 95), 4);
    assert.equal(percentile([7], 50), 7);
    assert.equal(percentile([], 50), null);
});
