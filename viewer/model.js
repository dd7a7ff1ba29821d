// The trace data (docs/viewer-data.md) prepared for drawing: each run's lanes, one per session,
// with its requests, tool calls, handoffs, intervals, bands and turns as entries sorted by time,
// the run's figures, and each finding's entries. Pure: takes the parsed data, returns the runs.

import { num, str } from './format.js';
import { SIGNPOST_DEPTHS } from './geometry.js';
import { MIN_SPAN } from './view.js';
import { prepareContexts } from './instructions.js';
import { prepareMoney } from './money.js';

/** Cached over input tokens, or null when the server did not report both. */
export function cacheRatio(record) {
    const input = num(record.inputTokens);
    const cached = num(record.cachedInputTokens);
    if (input === null || cached === null || input <= 0) return null;
    return Math.max(0, Math.min(1, cached / input));
}

/** A request or interval with an error, or a tool call whose outcome is not 'ok'. */
export function failed(entry) {
    const r = entry.record;
    return Boolean(r.error) || (entry.kind === 'tool' && r.outcome !== null && r.outcome !== undefined
        && r.outcome !== 'ok');
}

/** Output tokens after the first, per second after the first token: the export's `rate` when given. */
export function requestRate(record) {
    const given = num(record.rate);
    if (given !== null) return given;
    const ttft = num(record.ttft);
    const dur = num(record.dur);
    const out = num(record.outputTokens);
    if (ttft === null || dur === null || out === null || out <= 1 || dur <= ttft) return null;
    return (out - 1) / ((dur - ttft) / 1e9);
}

/** The nearest-rank p-th percentile of sorted numbers, or null when there are none. */
export function percentile(sorted, p) {
    if (sorted.length === 0) return null;
    const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
    return sorted[Math.min(sorted.length, rank) - 1];
}

/**
 * Two runs or more are compared: each gets a letter (A, B, ...) named with its store file and run,
 * and each finding the letter of its run and whether the first run (A) has one of the same kind
 * on the same subject: "new in B" where it has not, "also in A" where it has; a finding of A that
 * no later run repeats reads "not in B".
 */
function compareRuns(runs, findings) {
    if (runs.length < 2) return;
    runs.forEach((run, index) => {
        run.letter = index < 26 ? String.fromCharCode(65 + index) : String(index + 1);
        const store = str(run.raw.store);
        const id = str(run.raw.runID);
        run.label = run.letter + ' · ' + (store ? store + ' · ' : '') + run.label
            + ' (run ' + id.slice(-8) + ')';
    });
    const key = (f) => str(f.kind) + '\u0000' + str(f.subject);
    const byRun = runs.map(() => new Set());
    for (const f of findings) {
        const r = num(f.run);
        if (r !== null && byRun[r]) byRun[r].add(key(f));
    }
    for (const f of findings) {
        const r = num(f.run);
        if (r === null || !runs[r]) continue;
        f.runLetter = runs[r].letter;
        if (r === 0) {
            const also = runs.filter((run, i) => i > 0 && byRun[i].has(key(f))).map((run) => run.letter);
            f.compared = also.length ? 'also in ' + also.join(', ')
                : 'not in ' + runs.slice(1).map((run) => run.letter).join(', ');
        } else {
            f.compared = byRun[0].has(key(f)) ? 'also in A' : 'new in ' + runs[r].letter;
        }
    }
}

/** One run of the data as lanes and entries; `given` is the export's summary of it, if any. */
export function prepareRun(raw, index, given) {
    const run = {
        index: index,
        raw: raw,
        id: str(raw.runID),
        label: str(raw.label) || str(raw.host) || 'run ' + str(raw.runID),
        lanes: [],
        byID: new Map(),
        requests: [],
        tools: [],
        handoffs: [],
        intervals: [],
        bands: [],
        bandRequests: 0,
        bandTools: 0,
        /** The fastest and slowest p95 time to first token of the run's bands. */
        bandP95: [Infinity, -Infinity],
        payloads: new Map(),
        end: 0,
        top: 0,
        height: 0,
    };
    const laneByKey = new Map();
    function lane(sessionID, label) {
        const key = sessionID === null || sessionID === undefined ? '' : String(sessionID);
        let found = laneByKey.get(key);
        if (!found) {
            found = {
                key: key,
                run: run,
                label: label || (key === '' ? '' : 'session ' + key),
                session: null,
                requests: [], tools: [], handoffs: [], intervals: [], turns: [], bands: [],
                maxDur: { request: 0, tool: 0, interval: 0, turn: 0, band: 0 },
                bandRequests: 0, bandTools: 0, bandPeak: 1,
                top: 0,
            };
            laneByKey.set(key, found);
            run.lanes.push(found);
        }
        return found;
    }
    function item(kind, record, laneRef, id) {
        const ts = num(record.ts) || 0;
        const dur = Math.max(0, num(record.dur) || 0);
        const entry = { kind: kind, id: id === undefined ? str(record.id) : id, ts: ts, dur: dur,
            record: record, lane: laneRef, run: run, findings: [] };
        run.byID.set(entry.id, entry);
        run.end = Math.max(run.end, ts + dur);
        return entry;
    }
    for (const session of raw.sessions || []) {
        const l = lane(session.id, str(session.label) || undefined);
        l.session = session;
        run.byID.set(str(session.id), { kind: 'session', id: str(session.id), ts: num(session.ts) || 0,
            dur: num(session.dur) || 0, record: session, lane: l, run: run });
        run.end = Math.max(run.end, (num(session.ts) || 0) + (num(session.dur) || 0));
    }
    for (const record of raw.requests || []) {
        const l = lane(record.sessionID);
        const entry = item('request', record, l);
        entry.ttft = num(record.ttft);
        entry.ratio = cacheRatio(record);
        entry.toolCalls = [];
        entry.findings = [];
        entry.turn = null;
        // The server's own prompt processing, part of the wait; null when it reported none.
        const promptDur = record.server ? num(record.server.promptDur) : null;
        entry.promptDur = promptDur === null || entry.ttft === null ? null : Math.min(promptDur, entry.ttft);
        l.requests.push(entry);
        run.requests.push(entry);
        l.maxDur.request = Math.max(l.maxDur.request, entry.dur);
    }
    for (const record of raw.toolCalls || []) {
        let sessionID = record.sessionID;
        const parent = record.requestID !== null && record.requestID !== undefined
            ? run.byID.get(str(record.requestID)) : undefined;
        if ((sessionID === null || sessionID === undefined) && parent) sessionID = parent.record.sessionID;
        const l = lane(sessionID);
        const entry = item('tool', record, l);
        entry.parent = parent && parent.kind === 'request' ? parent : null;
        if (entry.parent) entry.parent.toolCalls.push(entry);
        l.tools.push(entry);
        run.tools.push(entry);
        l.maxDur.tool = Math.max(l.maxDur.tool, entry.dur);
    }
    for (const record of raw.handoffs || []) {
        const l = lane(record.sessionID);
        const entry = item('handoff', record, l);
        entry.dur = 0;
        l.handoffs.push(entry);
        run.handoffs.push(entry);
    }
    for (const record of raw.intervals || []) {
        const l = lane(record.sessionID);
        const entry = item('interval', record, l);
        l.intervals.push(entry);
        run.intervals.push(entry);
        l.maxDur.interval = Math.max(l.maxDur.interval, entry.dur);
    }
    // Dense sessions of a large run come as aggregate bands (docs/viewer-data.md): each holds
    // the requests, tool calls and turns that start in it, and the ids of those a finding names:
    // a finding about any of them marks the band.
    for (const record of raw.bands || []) {
        const l = lane(record.sessionID);
        // Its id names its position; ids hold no space, so a list of them can be space-separated.
        const entry = item('band', record, l, 'band-' + run.bands.length);
        entry.requests = num(record.requests) || 0;
        entry.tools = num(record.toolCalls) || 0;
        entry.turns = num(record.turns) || 0;
        for (const id of record.findingEventIDs || []) run.byID.set(str(id), entry);
        l.bands.push(entry);
        run.bands.push(entry);
        l.bandRequests += entry.requests;
        l.bandTools += entry.tools;
        l.bandPeak = Math.max(l.bandPeak, entry.requests);
        const p95 = num(record.ttftP95);
        if (p95 !== null) {
            run.bandP95[0] = Math.min(run.bandP95[0], p95);
            run.bandP95[1] = Math.max(run.bandP95[1], p95);
        }
        l.maxDur.band = Math.max(l.maxDur.band, entry.dur);
        run.bandRequests += entry.requests;
        run.bandTools += entry.tools;
    }
    for (const payload of raw.payloads || []) {
        const key = str(payload.parentID);
        if (!run.payloads.has(key)) run.payloads.set(key, []);
        run.payloads.get(key).push(payload);
    }
    const byTime = (a, b) => a.ts - b.ts || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    for (const l of run.lanes) {
        l.requests.sort(byTime);
        l.tools.sort(byTime);
        l.handoffs.sort(byTime);
        l.intervals.sort(byTime);
        l.bands.sort(byTime);
    }
    run.requests.sort(byTime);
    run.tools.sort(byTime);
    run.handoffs.sort(byTime);
    run.intervals.sort(byTime);
    for (const l of run.lanes) {
        // A bar names its model only where the lane's model changes; hover names every one.
        let model = null;
        for (const r of l.requests) {
            r.modelChanged = str(r.record.model) !== model;
            model = str(r.record.model);
        }
        nestIntervals(l);
        nameLane(l);
    }
    prepareTurns(run, raw.turns || []);
    prepareContexts(run);
    // Sessions by start, the requests outside any session last.
    const laneStart = (l) => (l.session ? num(l.session.ts) || 0
        : l.requests.length ? l.requests[0].ts : Number.MAX_SAFE_INTEGER);
    run.lanes.sort((a, b) => (a.key === '') - (b.key === '') || laneStart(a) - laneStart(b));
    run.summary = summarize(run, given);
    return run;
}

/** Depth of each interval among those of its lane that enclose it (signposts nest). */
function nestIntervals(l) {
    const open = [];
    for (const e of l.intervals) {
        while (open.length && open[open.length - 1].ts + open[open.length - 1].dur <= e.ts) open.pop();
        e.depth = Math.min(open.length, SIGNPOST_DEPTHS - 1);
        open.push(e);
    }
}

/** The lane of records outside any session says what it holds; counts only what is there. */
function nameLane(l) {
    const signposts = l.requests.length === 0 && l.tools.length === 0 && l.handoffs.length === 0
        && l.bands.length === 0;
    l.signpostsOnly = signposts && l.intervals.length > 0;
    if (l.key === '') {
        l.label = l.signpostsOnly ? 'signposts' : l.intervals.length ? 'outside sessions, signposts'
            : 'outside any session';
    }
    const parts = [];
    const requests = l.requests.length + l.bandRequests;
    const tools = l.tools.length + l.bandTools;
    if (requests) parts.push(requests + ' req' + (l.bands.length ? ' in bands' : ''));
    if (tools) parts.push(tools + ' tools');
    if (l.intervals.length) parts.push(l.intervals.length + ' intervals');
    l.counts = parts.join(' · ');
}

/** User turns (format: runs[].turns): the requests of one turn and the tool calls they made. */
function prepareTurns(run, turns) {
    for (const raw of turns) {
        const requests = (raw.requestIDs || []).map((id) => run.byID.get(str(id)))
            .filter((e) => e && e.kind === 'request');
        if (!requests.length) continue;
        const l = requests[0].lane;
        let start = Infinity;
        let end = -Infinity;
        let tools = 0;
        for (const r of requests) {
            start = Math.min(start, r.ts);
            end = Math.max(end, r.ts + r.dur);
            for (const t of r.toolCalls) { end = Math.max(end, t.ts + t.dur); tools += 1; }
        }
        const turn = { kind: 'turn', id: str(raw.turnID), ts: start, dur: end - start, lane: l, run: run,
            requests: requests, tools: tools, inferred: Boolean(raw.inferred), number: 0 };
        for (const [round, r] of requests.entries()) { r.turn = turn; r.round = round; }
        l.turns.push(turn);
    }
    for (const l of run.lanes) {
        l.turns.sort((a, b) => a.ts - b.ts);
        l.turns.forEach((turn, index) => {
            turn.number = index + 1;
            l.maxDur.turn = Math.max(l.maxDur.turn, turn.dur);
        });
    }
}

/** The run's figures: the export's summary of it (`given`) when present, else computed here. */
export function summarize(run, given) {
    if (given) return given;
    const ttfts = run.requests.map((r) => r.ttft).filter((v) => v !== null).sort((a, b) => a - b);
    const rates = run.requests.map((r) => requestRate(r.record)).filter((v) => v !== null)
        .sort((a, b) => a - b);
    let input = 0;
    let cached = 0;
    let modelTime = 0;
    let toolTime = 0;
    for (const r of run.requests) {
        modelTime += r.dur;
        if (num(r.record.inputTokens) !== null && num(r.record.cachedInputTokens) !== null) {
            input += num(r.record.inputTokens);
            cached += num(r.record.cachedInputTokens);
        }
    }
    for (const t of run.tools) toolTime += t.dur;
    return {
        requests: run.requests.length,
        ttftP50: percentile(ttfts, 50),
        ttftP95: percentile(ttfts, 95),
        tokensPerSecondP50: percentile(rates, 50),
        cacheHitRate: input > 0 ? cached / input : null,
        modelTime: modelTime,
        toolTime: toolTime,
        toolCalls: run.tools.length,
        errors: run.requests.filter((r) => r.record.error).length,
    };
}

/**
 * The runs of `data` (a viewer export, docs/viewer-data.md) ready to draw, the time they span
 * (at least MIN_SPAN) and the entries of each finding; throws when `data` is not an export.
 */
export function loadTrace(data) {
    if (!data || typeof data !== 'object' || !Array.isArray(data.runs)) {
        throw new Error('the embedded data is not a SessionTrace viewer export (no "runs" array)');
    }
    const given = data.summary && Array.isArray(data.summary.runs) ? data.summary.runs : [];
    const runs = data.runs.map((raw, index) => prepareRun(raw, index, given[index]));
    const findings = Array.isArray(data.findings) ? data.findings : [];
    compareRuns(runs, findings);
    prepareMoney(runs, findings);
    return {
        runs: runs,
        fullSpan: Math.max(MIN_SPAN, ...runs.map((r) => r.end)),
        findingEntries: linkFindings(findings, runs),
    };
}

/** Each finding's events, and on each event the findings that touch it. */
function linkFindings(findings, allRuns) {
    return findings.map((finding, index) => {
        const runIndex = num(finding.run);
        const runs = runIndex !== null && allRuns[runIndex] ? [allRuns[runIndex]] : allRuns;
        const entries = [];
        for (const id of finding.eventIDs || []) {
            for (const run of runs) {
                const entry = run.byID.get(str(id));
                if (entry && entry.kind !== 'session' && !entries.includes(entry)) {
                    entries.push(entry);
                    entry.findings.push(index);
                    // A marker is drawn as a finding's only when one of its findings is not noise.
                    if (finding.severity !== 'noise') entry.realFinding = true;
                    break;
                }
            }
        }
        return entries;
    });
}
