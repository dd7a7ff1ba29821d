// instructions.js: a lane's stretches of one profile, model, instructions and tool set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTrace } from '../model.js';
import { layoutRuns } from '../geometry.js';
import { hitTest } from '../hit-test.js';
import { timeScale } from '../view.js';
import { contextLabel } from '../instructions.js';
import { contextText } from '../labels.js';
import { smallExport } from './fixture.mjs';

test('a new stretch starts where the model or the tool set changes, and names the change', () => {
    const { runs } = loadTrace(smallExport());
    const planner = runs[0].lanes.find((l) => l.label === 'planner');
    const [first, second] = planner.contexts;
    assert.equal(planner.contexts.length, 2);
    assert.deepEqual([first.ts, first.dur, first.requests.map((r) => r.id)], [10_000_000, 1_390_000_000, ['10']]);
    assert.deepEqual(first.changed, []);
    assert.deepEqual([second.ts, second.dur, second.requests.map((r) => r.id)], [1_400_000_000, 1_100_000_000, ['11']]);
    assert.deepEqual(second.changed, ['model', 'tools']);
    assert.notEqual(first.shade, second.shade);
    assert.equal(contextLabel(second), 'model smollm2-135m → smollm2-360m, tools changed');
    assert.equal(contextLabel(first), 'Instructions a1b2c3d4 · tools 0f1e2d3c · smollm2-135m');
    assert.match(contextText(first), /^instructions a1b2c3d4, tools 0f1e2d3c, smollm2-135m in planner .* 1 requests; first/);
});

test('requests with nothing recorded share one stretch, and the run lists every stretch by time', () => {
    const data = smallExport();
    data.runs[0].requests.push({ id: '21', ts: 3_600_000_000, dur: 100_000_000, model: 'smollm2-135m' });
    const { runs } = loadTrace(data);
    const outside = runs[0].lanes.find((l) => l.key === '');
    assert.deepEqual(outside.contexts.map((c) => c.requests.map((r) => r.id)), [['20', '21']]);
    assert.equal(contextLabel(outside.contexts[0]), 'Instructions none · tools none · smollm2-135m');
    assert.deepEqual(runs[0].contexts.map((c) => c.ts), [10_000_000, 1_400_000_000, 3_000_000_000]);
});

test('a point in the instructions row picks the stretch there', () => {
    const { runs } = loadTrace(smallExport());
    layoutRuns(runs);
    const scale = timeScale({ start: 0, end: 4_000_000_000 }, 1158);
    // The planner lane starts at y 22 + 24 (axis); its instructions row is 54 to 62 below that.
    assert.equal(hitTest(runs, scale, 0, scale.xOf(500_000_000), 22 + 24 + 58).kind, 'instructions');
    assert.equal(hitTest(runs, scale, 0, scale.xOf(2_000_000_000), 22 + 24 + 58).changed.join(), 'model,tools');
});
