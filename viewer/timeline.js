// The timeline canvas: a frame of every run's lanes (intervals, bands, requests split into waiting
// and generating, tool calls, failures, labels, turns, handoffs, finding markers, outlines), the
// time axis and the overview. The canvas reports what each frame drew in data-drawn-* attributes.

import { formatDollars, formatDuration, formatTick, num, str } from './format.js';
import { COLORS, CONTEXT_COLORS, STYLE, cacheStyle } from './style.js';
import { AXIS_HEIGHT, LABEL_WIDTH, ROW, RUN_HEADER, intervalRow } from './geometry.js';
import { niceStep, timeScale } from './view.js';
import { failed } from './model.js';
import { forEachVisible } from './hit-test.js';
import { drawFailure, fitText, sizeCanvas } from './canvas.js';
import { makeBars, makeColumns } from './bars.js';
import { drawOverview } from './overview.js';
import { contextLabel } from './instructions.js';
import { heatColor, makeBadges } from './badges.js';

/** The width a tool call shorter than a pixel is drawn at, so that it can be seen and clicked. */
const THIN_TOOL_WIDTH = 2;

/**
 * Draws a frame of the viewer's `state` on `canvases.lanes` and `canvases.overview`, and says what
 * it shows in `canvases.status`; records the canvas's width in `state.width` for hit testing.
 */
export function drawTimeline(state, canvases) {
    const began = performance.now();
    const lanesCanvas = canvases.lanes;
    const { ctx, width, height } = sizeCanvas(lanesCanvas);
    state.width = width;
    const scale = timeScale(state.view, width);
    const { xOf, timeAt, plotWidth } = scale;
    // Selected or highlighted by a finding: drawn with an outline.
    const frame = { xOf: xOf, selected: state.selected,
        marked: (entry) => state.selected === entry || state.highlight.has(entry) };
    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    const drawn = { request: 0, tool: 0, handoff: 0, interval: 0, failed: 0, splitWait: 0, turn: 0,
        findingMarker: 0, noiseMarker: 0, modelLabel: 0, band: 0, bandRequests: 0, bandTurns: 0,
        instructions: 0, instructionChanges: 0, thinTool: 0, bandP95: 0, bandFindings: 0, findingBadge: 0 };
    const t0 = timeAt(LABEL_WIDTH);
    const t1 = timeAt(LABEL_WIDTH + plotWidth);
    const step = niceStep(state.view.end - state.view.start, Math.max(2, plotWidth / 110));

    // Grid lines under everything.
    ctx.fillStyle = COLORS.grid;
    for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
        ctx.fillRect(Math.round(xOf(t)), AXIS_HEIGHT, 1, height - AXIS_HEIGHT);
    }

    ctx.save();
    ctx.beginPath();
    ctx.rect(0, AXIS_HEIGHT, width, height - AXIS_HEIGHT);
    ctx.clip();
    const offset = AXIS_HEIGHT - state.scrollY;
    for (const run of state.runs) {
        const runTop = run.top + offset;
        if (runTop > height || runTop + run.height < AXIS_HEIGHT) continue;
        ctx.fillStyle = '#eef1f6';
        ctx.fillRect(0, runTop, width, RUN_HEADER - 2);
        ctx.fillStyle = COLORS.text;
        ctx.font = '600 12px system-ui, sans-serif';
        const requests = run.requests.length + run.bandRequests;
        ctx.fillText(fitText(ctx, run.label + '  ·  ' + requests + ' requests'
            + (run.bandRequests ? ', ' + run.bandRequests + ' in aggregate bands' : ''), width - 16),
            6, runTop + RUN_HEADER / 2 - 1);
        ctx.font = '11px system-ui, sans-serif';
        for (const l of run.lanes) {
            const y = l.top + offset;
            if (y > height || y + l.height < AXIS_HEIGHT) continue;
            drawLane(ctx, frame, l, y, t0, t1, drawn, width);
        }
    }
    ctx.restore();
    drawAxis(ctx, xOf, width, t0, t1, step);
    drawOverview(canvases.overview, state);

    state.drawn = drawn;
    state.frames += 1;
    for (const kind of Object.keys(drawn)) {
        lanesCanvas.dataset['drawn' + kind[0].toUpperCase() + kind.slice(1)] = String(drawn[kind]);
    }
    lanesCanvas.dataset.viewStart = String(Math.round(state.view.start));
    lanesCanvas.dataset.viewEnd = String(Math.round(state.view.end));
    lanesCanvas.dataset.frames = String(state.frames);
    lanesCanvas.dataset.lastRenderMs = (performance.now() - began).toFixed(2);
    canvases.status.textContent = 'showing ' + formatDuration(state.view.start) + ' – '
        + formatDuration(state.view.end) + ' (' + formatDuration(state.view.end - state.view.start)
        + ')   ·   wheel or + − to zoom, drag or arrows to pan, 0 to fit';
}

function drawLane(ctx, frame, l, y, t0, t1, drawn, width) {
    const { xOf, marked } = frame;
    ctx.fillStyle = COLORS.grid;
    ctx.fillRect(0, y + l.height - 1, width, 1);
    ctx.fillStyle = COLORS.text;
    ctx.fillText(fitText(ctx, l.label, LABEL_WIDTH - 12), 8, y + ROW.request.top + ROW.request.height / 2);
    ctx.fillStyle = COLORS.muted;
    ctx.fillText(fitText(ctx, l.counts + (l.money && l.money.cost !== null ? ' · ' + formatDollars(l.money.cost) : ''),
        LABEL_WIDTH - 12), 8, y + ROW.tool.top + 5);
    if (l.contexts.length) ctx.fillText('instructions · tools', 8, y + ROW.instructions.top + 4);

    ctx.save();
    ctx.beginPath();
    ctx.rect(LABEL_WIDTH, y, width - LABEL_WIDTH, l.height);
    ctx.clip();
    // Bars first, then on top of them: hatching, labels, turns, handoffs, markers, outlines.
    const bars = makeBars();
    const columns = makeColumns(bars, y + ROW.request.top, ROW.request.height);
    const failures = [];
    const labels = [];
    const outlines = [];
    const markers = [];
    const mark = (e, x, top, w, h) => {
        if (e.findings.length) markers.push([x, top + h / 2, e.realFinding === true]);
        if (marked(e)) outlines.push([e, x, top, w, h]);
    };

    forEachVisible(l.intervals, l.maxDur.interval, t0, t1, (e) => {
        const x0 = xOf(e.ts);
        const w = Math.max(1, xOf(e.ts + e.dur) - x0);
        const rowSpec = intervalRow(l, e);
        const top = y + rowSpec.top;
        bars.add(STYLE.interval.color, x0, top, w, rowSpec.height);
        if (failed(e)) failures.push([x0, top, w, rowSpec.height]);
        if (l.signpostsOnly && w > 50) {
            labels.push(['#ffffff', str(e.record.name), x0, top + rowSpec.height / 2, w]);
        }
        drawn.interval += 1;
        mark(e, x0, top, w, rowSpec.height);
    });

    // A band shows what varies between bands: as tall as its requests' share of the lane's densest
    // band, under a teal cap; its body coloured by its cache hit, as a request's generating part;
    // its p95 time to first token as a strip in the top row, from light (the run's fastest band) to
    // dark (its slowest), so the slow stretches of every session stand out; its tool calls in the tool row; failures hatched as on single bars; its findings
    // as a count (badges.js), not a diamond each: a dense lane reads as numbers, not a hatch.
    const badges = makeBadges(ctx, y + ROW.request.top, drawn);
    forEachVisible(l.bands, l.maxDur.band, t0, t1, (e) => {
        const x0 = xOf(e.ts);
        const w = Math.max(1, xOf(e.ts + e.dur) - x0);
        const top = y + ROW.request.top;
        const h = ROW.request.height;
        if (e.requests) {
            const bar = Math.max(3, Math.round(h * e.requests / l.bandPeak));
            bars.add(cacheStyle(num(e.record.cacheHitRate)).color, x0, top + h - bar, w, bar);
            bars.add(STYLE.band.color, x0, top + h - bar, w, 2);
        }
        const p95 = num(e.record.ttftP95);
        if (p95 !== null) {
            const [fastest, slowest] = l.run.bandP95;
            bars.add(heatColor(slowest > fastest ? (p95 - fastest) / (slowest - fastest) : 0), x0,
                y + ROW.interval.top, w, ROW.interval.height);
            drawn.bandP95 += 1;
        }
        if (e.findings.length) badges.add(x0, e.findings);
        if (e.tools) bars.add(STYLE.tool.color, x0, y + ROW.tool.top, w, ROW.tool.height);
        if (num(e.record.errors) || num(e.record.toolErrors)) failures.push([x0, top, w, h]);
        drawn.band += 1;
        drawn.bandRequests += e.requests;
        if (marked(e)) outlines.push([e, x0, top, w, h]);
    });

    forEachVisible(l.requests, l.maxDur.request, t0, t1, (e) => {
        const x0 = xOf(e.ts);
        const x1 = xOf(e.ts + e.dur);
        const w = Math.max(1, x1 - x0);
        const top = y + ROW.request.top;
        const h = ROW.request.height;
        const firstToken = e.ts + Math.min(e.ttft === null ? 0 : e.ttft, e.dur);
        const split = e.ttft === null ? x0 : Math.min(x1, xOf(firstToken));
        // The wait before the first token, in two shades where the server reported its prompt
        // processing (drawn last, just before the first token); then the generating part,
        // coloured by how much of the prompt was cached. A bar under two pixels cannot show its
        // parts: their times count in its pixel column instead.
        if (x1 - x0 < 2) {
            const wait = e.ttft === null ? 0 : Math.min(e.ttft, e.dur);
            const prompt = e.promptDur === null ? 0 : Math.min(e.promptDur, wait);
            columns.add(x0, e.promptDur === null ? STYLE.waitWhole : STYLE.waitRest, wait - prompt);
            if (prompt > 0) columns.add(x0, STYLE.waitPrompt, prompt);
            columns.add(x0, cacheStyle(e.ratio), e.dur - wait);
        } else {
            if (split > x0) {
                bars.add(e.promptDur === null ? STYLE.waitWhole.color : STYLE.waitRest.color,
                    x0, top, Math.max(1, split - x0), h);
                if (e.promptDur !== null) {
                    const prompt = Math.max(x0, xOf(firstToken - e.promptDur));
                    bars.add(STYLE.waitPrompt.color, prompt, top,
                        Math.max(e.promptDur > 0 ? 1 : 0, split - prompt), h);
                    drawn.splitWait += 1;
                }
            }
            if (x1 - split >= 0.5 || split <= x0) {
                bars.add(cacheStyle(e.ratio).color, split, top + 2, Math.max(1, x1 - split), h - 4);
            }
        }
        if (failed(e)) failures.push([x0, top, w, h]);
        if (w > 60 && e.modelChanged) {
            labels.push([COLORS.text, str(e.record.model), x0, top + h / 2, w]);
            drawn.modelLabel += 1;
        }
        drawn.request += 1;
        mark(e, x0, top, w, h);
    });
    columns.flush();

    forEachVisible(l.tools, l.maxDur.tool, t0, t1, (e) => {
        const x0 = xOf(e.ts);
        const exact = xOf(e.ts + e.dur) - x0;
        const w = exact < 1 ? THIN_TOOL_WIDTH : exact;
        const top = y + ROW.tool.top;
        bars.add(STYLE.tool.color, x0, top, w, ROW.tool.height);
        // Shorter than a pixel: drawn wider than it lasted, and its dark cap says so.
        if (exact < 1) {
            bars.add(STYLE.thinTool.color, x0, top, w, 3);
            drawn.thinTool += 1;
        }
        if (failed(e)) failures.push([x0, top, w, ROW.tool.height]);
        // A thin stem ties the call to the request that asked for it.
        if (e.parent) {
            bars.add('rgba(0,0,0,0.25)', Math.round(x0), y + ROW.request.top + ROW.request.height, 1,
                ROW.tool.top - ROW.request.top - ROW.request.height);
        }
        if (w > 50) labels.push([COLORS.text, str(e.record.name), x0, top + ROW.tool.height / 2, w]);
        drawn.tool += 1;
        mark(e, x0, top, w, ROW.tool.height);
    });

    // The instructions row: a stretch per profile, model, instructions and tool set, its shade that
    // of its instructions-and-tools pair, a handoff-blue edge where one changed, labelled with what
    // changed (the first: with what it holds).
    forEachVisible(l.contexts, l.maxDur.instructions, t0, t1, (e) => {
        const x0 = xOf(e.ts);
        const w = Math.max(1, xOf(e.ts + e.dur) - x0);
        const top = y + ROW.instructions.top;
        const h = ROW.instructions.height;
        bars.add(CONTEXT_COLORS[e.shade], x0, top, w, h);
        if (e.changed.length) {
            bars.add(STYLE.handoff.color, x0, top, 2, h);
            drawn.instructionChanges += 1;
        }
        // The label starts where the stretch comes into view, so a long one stays readable.
        const shown = Math.max(x0, LABEL_WIDTH);
        if (x0 + w - shown > 60) labels.push([COLORS.text, contextLabel(e), shown + 2, top + h / 2, x0 + w - shown - 2]);
        drawn.instructions += 1;
        if (marked(e)) outlines.push([e, x0, top, w, h]);
    });

    bars.draw(ctx);
    for (const [x, top, w, h] of failures) drawFailure(ctx, x, top, w, h, drawn);
    badges.draw();
    for (const [color, text, x, cy, w] of labels) {
        ctx.fillStyle = color;
        ctx.fillText(fitText(ctx, text, w - 6), x + 3, cy);
    }
    drawTurns(ctx, xOf, l, y, t0, t1, drawn);

    // Handoff labels take the tool row, then the one above when a label would overlap.
    const labelEnds = [-Infinity, -Infinity];
    forEachVisible(l.handoffs, 0, t0, t1, (e) => {
        const x = Math.round(xOf(e.ts));
        ctx.fillStyle = STYLE.handoff.color;
        ctx.fillRect(x, y + 2, 2, l.height - 4);
        ctx.beginPath();
        ctx.moveTo(x - 5, y + 1);
        ctx.lineTo(x + 7, y + 1);
        ctx.lineTo(x + 1, y + 8);
        ctx.closePath();
        ctx.fill();
        const label = str(e.record.kind) + ': ' + str(e.record.from) + ' → ' + str(e.record.to);
        const room = width - x - 12;
        const slot = labelEnds[0] < x + 6 ? 0 : labelEnds[1] < x + 6 ? 1 : -1;
        if (room > 40 && slot >= 0) {
            const textY = slot === 0 ? y + ROW.tool.top + 5 : y + ROW.interval.top + 4;
            ctx.fillStyle = 'rgba(255,255,255,0.85)';
            const text = fitText(ctx, label, Math.min(room, 260));
            const tw = ctx.measureText(text).width;
            ctx.fillRect(x + 6, textY - 6, tw + 4, 13);
            ctx.fillStyle = STYLE.handoff.color;
            ctx.fillText(text, x + 8, textY);
            labelEnds[slot] = x + 10 + tw;
        }
        drawn.handoff += 1;
        if (e.findings.length) markers.push([x + 1, y + ROW.request.top + ROW.request.height / 2, e.realFinding === true]);
        if (marked(e)) outlines.push([e, x - 4, y + 1, 10, l.height - 2]);
    });

    // A diamond on the left end of every event a finding is about, all of a lane in one path per
    // colour: grey where every finding about the event is within noise, so a break that cost next
    // to nothing does not mark a bar that is green for its cache; a diamond within two pixels of
    // one already drawn would look the same as that one alone, and a real finding's is drawn last.
    if (markers.length) {
        for (const real of [false, true]) {
            const placed = new Set();
            ctx.beginPath();
            for (const [x, cy, isReal] of markers) {
                if (isReal !== real) continue;
                const key = Math.round(x / 2) * 1024 + cy;
                if (placed.has(key)) continue;
                placed.add(key);
                ctx.moveTo(x, cy - 6);
                ctx.lineTo(x + 5, cy);
                ctx.lineTo(x, cy + 6);
                ctx.lineTo(x - 5, cy);
                ctx.closePath();
            }
            ctx.fillStyle = real ? STYLE.finding.color : STYLE.noiseFinding.color;
            ctx.fill();
            ctx.strokeStyle = '#ffffff';
            ctx.lineWidth = 1;
            ctx.stroke();
        }
        drawn.findingMarker += markers.length;
        drawn.noiseMarker += markers.filter((m) => !m[2]).length;
    }

    for (const [e, x, top, w, h] of outlines) {
        ctx.lineWidth = frame.selected === e ? 2 : 3;
        ctx.strokeStyle = frame.selected === e ? STYLE.selected.color : STYLE.finding.color;
        ctx.strokeRect(x - 1.5, top - 1.5, Math.max(w, 2) + 3, h + 3);
    }
    ctx.restore();
}

/** Brackets under the requests and tool calls of each user turn, with the turn's total time. */
function drawTurns(ctx, xOf, l, y, t0, t1, drawn) {
    const top = y + ROW.turn.top;
    // Turns narrower than a few pixels merge into one line; a bracket needs room to be read.
    let thin = null;
    const flushThin = () => {
        if (!thin) return;
        ctx.fillStyle = STYLE.turn.color;
        ctx.fillRect(thin[0], top + 4, Math.max(1, thin[1] - thin[0]), 1);
        thin = null;
    };
    const bracket = (ts, dur, label) => {
        const x0 = xOf(ts);
        const x1 = Math.max(x0 + 1, xOf(ts + dur));
        if (x1 - x0 < 4) {
            if (thin && x0 <= thin[1] + 1) thin[1] = Math.max(thin[1], x1);
            else { flushThin(); thin = [x0, x1]; }
            return;
        }
        flushThin();
        ctx.fillStyle = STYLE.turn.color;
        ctx.fillRect(x0, top, 1, 5);
        ctx.fillRect(x1 - 1, top, 1, 5);
        ctx.fillRect(x0, top + 4, x1 - x0, 1);
        if (x1 - x0 > 40) turnLabel(ctx, label(), x0, x1, top);
    };
    forEachVisible(l.turns, l.maxDur.turn, t0, t1, (turn) => {
        drawn.turn += 1;
        bracket(turn.ts, turn.dur, () => 'turn ' + turn.number + ' · ' + formatDuration(turn.dur));
    });
    // A lane drawn as bands has no single turns: a band's bracket stands for the turns that start
    // in it, labelled with their count and the longest one's time.
    forEachVisible(l.bands, l.maxDur.band, t0, t1, (band) => {
        if (!band.turns) return;
        drawn.bandTurns += band.turns;
        bracket(band.ts, band.dur, () => band.turns + (band.turns === 1 ? ' turn' : ' turns')
            + ' · longest ' + formatDuration(num(band.record.longestTurn)));
    });
    flushThin();
}

/** A turn's label on a white ground, inside its bracket. */
function turnLabel(ctx, label, x0, x1, top) {
    ctx.font = '10px system-ui, sans-serif';
    const text = fitText(ctx, label, x1 - x0 - 8);
    const tw = ctx.measureText(text).width;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(x0 + 3, top + 1, tw + 4, 9);
    ctx.fillStyle = STYLE.turn.color;
    ctx.fillText(text, x0 + 5, top + 6);
    ctx.font = '11px system-ui, sans-serif';
}

function drawAxis(ctx, xOf, width, t0, t1, step) {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, AXIS_HEIGHT);
    ctx.fillStyle = COLORS.line;
    ctx.fillRect(0, AXIS_HEIGHT - 1, width, 1);
    ctx.fillStyle = COLORS.muted;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.fillText('time since run start', 8, AXIS_HEIGHT / 2);
    for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
        const x = Math.round(xOf(t));
        if (x < LABEL_WIDTH) continue;
        ctx.fillRect(x, AXIS_HEIGHT - 6, 1, 5);
        ctx.fillText(formatTick(Math.abs(t) < step / 1000 ? 0 : t, step), x + 3, AXIS_HEIGHT / 2 - 2);
    }
}
