// SessionTrace viewer: draws recorded runs (docs/viewer-data.md) on a canvas timeline.
//
// Trace text is data, never markup: every string from the trace reaches the page through
// textContent, createElement or canvas fillText. Nothing here parses HTML.
//
// The timeline is one canvas, so 10,000 requests stay fast; an accessible, visually hidden list
// (#event-list) holds one <li data-kind=...> per event, built from the same prepared data, and the
// canvas reports what each frame drew in data-drawn-* attributes. Tests read both.
'use strict';

(function () {
    const LABEL_WIDTH = 150;
    const AXIS_HEIGHT = 24;
    const RUN_HEADER = 22;
    const LANE_HEIGHT = 58;
    const ROW = {
        interval: { top: 4, height: 6 },
        request: { top: 13, height: 15 },
        tool: { top: 31, height: 11 },
        turn: { top: 45, height: 10 },
    };
    // A lane of signposts only draws nested intervals one row per depth.
    const SIGNPOST_ROW = 13;
    const SIGNPOST_DEPTHS = 4;
    const MIN_SPAN = 1000; // 1 µs
    const FINDINGS_PAGE = 200;
    // What each colour means: one meaning per colour, from the Okabe–Ito palette (safe for the
    // common colour-vision deficiencies), and the greys. The bars are drawn and the legend is
    // built from this one table. Failure is a shape, hatching and a cross, in a colour nothing
    // else uses.
    const STYLE = {
        waitRest: { color: '#b9e0f5', label: 'waiting: queueing, network, client' },
        waitPrompt: { color: '#56b4e9', label: 'waiting: server prompt processing' },
        waitWhole: { color: '#d9d9d9', label: 'waiting, not split: no server timings' },
        cached: { color: '#009e73', label: 'generating, prompt ≥ 90% cached' },
        partCached: { color: '#f0e442', label: 'generating, prompt partly cached' },
        uncached: { color: '#cc79a7', label: 'generating, prompt < 10% cached' },
        noCache: { color: '#999999', label: 'generating, no cache figures' },
        tool: { color: '#e69f00', label: 'tool call' },
        interval: { color: '#d55e00', label: 'signpost interval' },
        handoff: { color: '#0072b2', label: 'handoff (profile, model, instructions, tools)', shape: 'line' },
        failed: { color: '#000000', label: 'failed request, tool call or interval', shape: 'hatch' },
        finding: { color: '#882255', label: 'touched by a finding (outlined when chosen)', shape: 'diamond' },
        selected: { color: '#332288', label: 'selected', shape: 'outline' },
        turn: { color: '#555555', shape: 'bracket',
            label: 'a user turn with its total time; under a band, the turns starting in it' },
        band: { color: '#44aa99', label: 'requests drawn as an aggregate band (taller: more)' },
    };
    const COLORS = {
        grid: '#eceef1',
        text: '#1d1f23',
        muted: '#6b7078',
        line: '#d9dbe0',
    };

    const state = {
        data: null,
        runs: [],
        fullSpan: 1,
        view: { start: 0, end: 1 },
        scrollY: 0,
        contentHeight: 0,
        selected: null,
        highlight: new Set(),
        activeFinding: -1,
        findingEntries: [],
        drawn: {},
        frames: 0,
        // The lanes canvas's width in CSS pixels, measured once a frame: reading clientWidth forces
        // a layout check, far too slow to do per bar.
        width: 0,
        // The overview drawn once per size and data (it shows the whole run), copied each frame.
        overview: null,
    };

    const $ = (id) => document.getElementById(id);
    const lanesCanvas = $('lanes');
    const overviewCanvas = $('overview');
    const wrap = $('lanes-wrap');

    // MARK: - Small helpers

    function el(tag, className, text) {
        const node = document.createElement(tag);
        if (className) node.className = className;
        if (text !== undefined && text !== null) node.textContent = String(text);
        return node;
    }

    function clear(node) {
        while (node.firstChild) node.removeChild(node.firstChild);
    }

    function num(value) {
        if (value === null || value === undefined || value === '') return null;
        const n = typeof value === 'number' ? value : Number(value);
        return Number.isFinite(n) ? n : null;
    }

    function str(value) {
        return value === null || value === undefined ? '' : String(value);
    }

    function formatDuration(ns) {
        if (ns === null || ns === undefined || !Number.isFinite(ns)) return '–';
        const abs = Math.abs(ns);
        if (abs >= 60e9) return (ns / 60e9).toFixed(abs >= 600e9 ? 0 : 1) + ' min';
        if (abs >= 1e9) return (ns / 1e9).toFixed(abs >= 10e9 ? 1 : 2) + ' s';
        if (abs >= 1e6) return (ns / 1e6).toFixed(abs >= 100e6 ? 0 : 1) + ' ms';
        if (abs >= 1e3) return (ns / 1e3).toFixed(abs >= 100e3 ? 0 : 1) + ' µs';
        return Math.round(ns) + ' ns';
    }

    // One formatter: toLocaleString builds a new one on every call, about half a millisecond each.
    const countFormat = new Intl.NumberFormat('en-US');

    function formatCount(value) {
        const n = num(value);
        return n === null ? '–' : countFormat.format(n);
    }

    function formatRate(value) {
        const n = num(value);
        return n === null ? '–' : n.toFixed(1) + ' tok/s';
    }

    function formatPercent(value) {
        const n = num(value);
        return n === null ? '–' : (n * 100).toFixed(0) + '%';
    }

    function formatBytes(value) {
        const n = num(value);
        if (n === null) return '–';
        if (n >= 1048576) return (n / 1048576).toFixed(1) + ' MiB';
        if (n >= 1024) return (n / 1024).toFixed(1) + ' KiB';
        return n + ' B';
    }

    /** Cached over input tokens, or null when the server did not report both. */
    function cacheRatio(record) {
        const input = num(record.inputTokens);
        const cached = num(record.cachedInputTokens);
        if (input === null || cached === null || input <= 0) return null;
        return Math.max(0, Math.min(1, cached / input));
    }

    /** The style of a generating bar with this cached share of its prompt. */
    function cacheStyle(ratio) {
        if (ratio === null) return STYLE.noCache;
        if (ratio >= 0.9) return STYLE.cached;
        return ratio < 0.1 ? STYLE.uncached : STYLE.partCached;
    }

    function failed(entry) {
        const r = entry.record;
        return Boolean(r.error) || (entry.kind === 'tool' && r.outcome !== null && r.outcome !== undefined
            && r.outcome !== 'ok');
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
    function drawFailure(ctx, x, top, w, h, drawn) {
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

    function requestRate(record) {
        const given = num(record.rate);
        if (given !== null) return given;
        const ttft = num(record.ttft);
        const dur = num(record.dur);
        const out = num(record.outputTokens);
        if (ttft === null || dur === null || out === null || out <= 1 || dur <= ttft) return null;
        return (out - 1) / ((dur - ttft) / 1e9);
    }

    function percentile(sorted, p) {
        if (sorted.length === 0) return null;
        const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
        return sorted[Math.min(sorted.length, rank) - 1];
    }

    // MARK: - Data

    function prepareRun(raw, index) {
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
            // Its id names its position; ids hold no space, as the self-test lists them space-separated.
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
        // Sessions by start, the requests outside any session last.
        const laneStart = (l) => (l.session ? num(l.session.ts) || 0
            : l.requests.length ? l.requests[0].ts : Number.MAX_SAFE_INTEGER);
        run.lanes.sort((a, b) => (a.key === '') - (b.key === '') || laneStart(a) - laneStart(b));
        run.summary = summarize(run);
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

    /** The rows of an interval: nested rows in a lane of signposts, the thin top row elsewhere. */
    function intervalRow(l, e) {
        if (!l.signpostsOnly) return ROW.interval;
        return { top: 3 + e.depth * SIGNPOST_ROW, height: SIGNPOST_ROW - 3 };
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

    /** The run's figures: from the export's summary when present, else computed here. */
    function summarize(run) {
        const given = state.data && state.data.summary && Array.isArray(state.data.summary.runs)
            ? state.data.summary.runs[run.index] : null;
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

    function load(data) {
        if (!data || typeof data !== 'object' || !Array.isArray(data.runs)) {
            throw new Error('the embedded data is not a SessionTrace viewer export (no "runs" array)');
        }
        state.data = data;
        state.runs = data.runs.map(prepareRun);
        state.fullSpan = Math.max(MIN_SPAN, ...state.runs.map((r) => r.end));
        state.overview = null;
        state.selected = null;
        state.highlight = new Set();
        state.activeFinding = -1;
        state.scrollY = 0;
        linkFindings();
        layout();
        resetView();
        buildHeader();
        buildFindings();
        buildLegend();
        clear($('event-list'));
        showDetails(null);
    }

    /** Each finding's events, and on each event the findings that touch it. */
    function linkFindings() {
        const findings = Array.isArray(state.data.findings) ? state.data.findings : [];
        state.findingEntries = findings.map((finding, index) => {
            const runIndex = num(finding.run);
            const runs = runIndex !== null && state.runs[runIndex] ? [state.runs[runIndex]] : state.runs;
            const entries = [];
            for (const id of finding.eventIDs || []) {
                for (const run of runs) {
                    const entry = run.byID.get(str(id));
                    if (entry && entry.kind !== 'session' && !entries.includes(entry)) {
                        entries.push(entry);
                        entry.findings.push(index);
                        break;
                    }
                }
            }
            return entries;
        });
    }

    function layout() {
        let y = 0;
        for (const run of state.runs) {
            run.top = y;
            y += RUN_HEADER;
            for (const l of run.lanes) {
                l.top = y;
                y += LANE_HEIGHT;
            }
            run.height = y - run.top;
            y += 8;
        }
        state.contentHeight = y;
    }

    // MARK: - Header, findings, legend, event list (DOM, text only)

    function figure(label, value, title) {
        const span = el('span', 'figure');
        span.appendChild(el('span', 'label', label));
        span.appendChild(el('span', 'value', value));
        if (title) span.title = title;
        return span;
    }

    function buildHeader() {
        const summary = $('summary');
        clear(summary);
        $('runs-title').textContent = state.runs.map((r) => r.label).join('  vs  ');
        for (const run of state.runs) {
            const s = run.summary;
            const row = el('div', 'summary-run');
            row.dataset.run = String(run.index);
            row.appendChild(el('span', 'run-name', run.label));
            row.appendChild(figure('requests', formatCount(s.requests)));
            row.appendChild(figure('TTFT p50', formatDuration(num(s.ttftP50))));
            row.appendChild(figure('TTFT p95', formatDuration(num(s.ttftP95))));
            row.appendChild(figure('rate p50', formatRate(s.tokensPerSecondP50)));
            row.appendChild(figure('cache hit', formatPercent(s.cacheHitRate),
                'cached input tokens over input tokens, summed'));
            const model = num(s.modelTime) || 0;
            const tool = num(s.toolTime) || 0;
            row.appendChild(figure('model / tool', formatDuration(model) + ' / ' + formatDuration(tool),
                'time in requests against time in tool calls, summed'));
            if (num(s.errors)) row.appendChild(figure('errors', formatCount(s.errors)));
            if (num(s.droppedEvents)) row.appendChild(figure('dropped', formatCount(s.droppedEvents)));
            summary.appendChild(row);
        }
        // Never silently cut: say how many requests are drawn as bands, and how to see each one.
        const banded = state.runs.reduce((sum, run) => sum + run.bandRequests, 0);
        document.body.dataset.bandedRequests = String(banded);
        document.body.dataset.bandedToolCalls = String(state.runs.reduce((sum, run) => sum + run.bandTools, 0));
        if (banded) {
            const notice = el('div', 'summary-run notice', formatCount(banded) + ' requests drawn as aggregate '
                + 'bands: this run is too large for a bar per request; click a band for its figures, or '
                + 'export one session (--session) to draw each of its requests');
            notice.id = 'band-notice';
            summary.appendChild(notice);
        }
        const counts = state.data.redaction && state.data.redaction.counts;
        if (counts && Object.keys(counts).length) {
            const total = Object.values(counts).reduce((a, b) => a + (num(b) || 0), 0);
            const row = el('div', 'summary-run');
            row.appendChild(figure('redacted', formatCount(total),
                Object.keys(counts).map((k) => k + ': ' + counts[k]).join(', ')));
            summary.appendChild(row);
        }
    }

    function buildFindings() {
        const list = $('findings-list');
        clear(list);
        const findings = Array.isArray(state.data.findings) ? state.data.findings : [];
        $('findings-count').textContent = '(' + findings.length + ')';
        if (!findings.length) {
            list.appendChild(el('li', 'hint', 'No findings.'));
            return;
        }
        showFindings(findings, 0);
    }

    /** Adds the findings from `first` on, a page of them, and a button for the rest: a run can have
     *  tens of thousands, and laying out every one would delay the first frame by seconds. */
    function showFindings(findings, first) {
        const list = $('findings-list');
        const end = Math.min(findings.length, first + FINDINGS_PAGE);
        const fragment = document.createDocumentFragment();
        for (let index = first; index < end; index++) {
            const finding = findings[index];
            const li = el('li');
            const button = el('button', 'finding');
            button.type = 'button';
            button.dataset.index = String(index);
            button.classList.toggle('active', index === state.activeFinding);
            button.appendChild(el('span', 'finding-kind', finding.kind));
            button.appendChild(el('span', 'finding-title', finding.title));
            if (finding.detail) button.appendChild(el('span', 'finding-detail', finding.detail));
            button.addEventListener('click', () => focusFinding(index));
            li.appendChild(button);
            fragment.appendChild(li);
        }
        if (end < findings.length) {
            const li = el('li');
            const rest = findings.length - end;
            const more = el('button', 'more-findings', 'Show ' + formatCount(Math.min(FINDINGS_PAGE, rest))
                + ' more of ' + formatCount(rest) + ' further findings');
            more.type = 'button';
            more.addEventListener('click', () => {
                li.remove();
                showFindings(findings, end);
            });
            li.appendChild(more);
            fragment.appendChild(li);
        }
        list.appendChild(fragment);
    }

    /** The legend: every entry of STYLE, its swatch drawn as the bars are. */
    function buildLegend() {
        const list = $('legend-list');
        clear(list);
        for (const key of Object.keys(STYLE)) {
            const style = STYLE[key];
            const li = el('li');
            li.dataset.style = key;
            li.dataset.color = style.color;
            li.dataset.shape = style.shape || 'bar';
            const swatch = el('span', 'swatch swatch-' + (style.shape || 'bar'));
            swatch.style.color = style.color;
            if (!style.shape || style.shape === 'bar') swatch.style.background = style.color;
            li.appendChild(swatch);
            li.appendChild(document.createTextNode(style.label));
            list.appendChild(li);
        }
    }

    /** One hidden <li> per event: the page's accessible, countable form of the canvas. */
    function buildEventList() {
        const list = $('event-list');
        clear(list);
        const fragment = document.createDocumentFragment();
        for (const run of state.runs) {
            for (const l of run.lanes) {
                const session = el('li', null, 'session ' + l.label);
                session.dataset.kind = 'session';
                session.dataset.run = String(run.index);
                if (l.session) session.dataset.id = str(l.session.id);
                fragment.appendChild(session);
            }
            const add = (entry, text) => {
                const li = el('li', null, text);
                li.dataset.kind = entry.kind;
                li.dataset.id = entry.id;
                li.dataset.run = String(run.index);
                fragment.appendChild(li);
            };
            for (const r of run.requests) {
                add(r, 'request ' + str(r.record.model) + ' at ' + formatDuration(r.ts) + ', TTFT '
                    + formatDuration(r.ttft) + ', ' + formatDuration(r.dur));
            }
            for (const t of run.tools) {
                add(t, 'tool call ' + str(t.record.name) + ' at ' + formatDuration(t.ts) + ', '
                    + formatDuration(t.dur) + ', ' + str(t.record.outcome));
            }
            for (const h of run.handoffs) {
                add(h, 'handoff ' + str(h.record.kind) + ' from ' + str(h.record.from) + ' to '
                    + str(h.record.to) + ' at ' + formatDuration(h.ts));
            }
            for (const i of run.intervals) {
                add(i, 'interval ' + str(i.record.name) + ' at ' + formatDuration(i.ts) + ', '
                    + formatDuration(i.dur));
            }
            for (const l of run.lanes) {
                for (const turn of l.turns) add(turn, turnText(turn));
            }
        }
        list.appendChild(fragment);
    }

    function turnText(turn) {
        return 'turn ' + turn.number + ' of ' + turn.lane.label + ': ' + turn.requests.length + ' requests, '
            + turn.tools + ' tool calls, total ' + formatDuration(turn.dur) + (turn.inferred ? ' (inferred)' : '');
    }

    // MARK: - Details panel

    function row(dl, label, value) {
        dl.appendChild(el('dt', null, label));
        const dd = el('dd', null, value === null || value === undefined || value === '' ? '–' : value);
        dl.appendChild(dd);
        return dd;
    }

    function linkTo(entry, text) {
        const button = el('button', 'link-button', text);
        button.type = 'button';
        button.addEventListener('click', () => select(entry, true));
        return button;
    }

    function showPayloads(body, run, id) {
        const payloads = run.payloads.get(id) || [];
        if (!payloads.length) return;
        body.appendChild(el('h3', null, 'Captured text (redacted)'));
        for (const payload of payloads) {
            body.appendChild(el('div', 'hint', str(payload.kind)));
            body.appendChild(el('pre', 'payload', str(payload.text)));
        }
    }

    function showDetails(entry) {
        const body = $('details-body');
        clear(body);
        if (!entry) {
            body.appendChild(el('p', 'hint', 'Click a request, tool call, handoff or interval.'));
            return;
        }
        const r = entry.record;
        const run = entry.run;
        const heading = { request: 'Request', tool: 'Tool call', handoff: 'Handoff', interval: 'Interval',
            session: 'Session', band: 'Aggregate band' }[entry.kind];
        body.appendChild(el('h3', null, heading + (state.runs.length > 1 ? ' · ' + run.label : '')));
        const dl = el('dl');
        dl.dataset.kind = entry.kind;
        dl.dataset.id = entry.id;
        body.appendChild(dl);
        row(dl, 'id', entry.id);
        row(dl, 'session', entry.lane.label);
        if (entry.kind === 'request') {
            row(dl, 'model', str(r.model));
            row(dl, 'profile', str(r.profile));
            row(dl, 'provider', str(r.provider));
            row(dl, 'start', formatDuration(entry.ts));
            row(dl, 'duration', formatDuration(entry.dur));
            row(dl, 'TTFT', formatDuration(entry.ttft));
            if (entry.promptDur !== null) {
                row(dl, 'server prompt processing', formatDuration(entry.promptDur));
                row(dl, 'queueing, network, client', formatDuration(entry.ttft - entry.promptDur));
            } else if (entry.ttft !== null) {
                row(dl, 'TTFT split', 'no server timings');
            }
            row(dl, 'generating', entry.ttft === null ? '–' : formatDuration(entry.dur - entry.ttft));
            row(dl, 'rate', formatRate(requestRate(r)));
            row(dl, 'input tokens', formatCount(r.inputTokens));
            row(dl, 'cached tokens', formatCount(r.cachedInputTokens));
            row(dl, 'cache hit', formatPercent(entry.ratio));
            row(dl, 'output tokens', formatCount(r.outputTokens));
            row(dl, 'prompt size', formatBytes(r.promptBytes));
            row(dl, 'transcript entries', formatCount(r.transcriptEntries));
            row(dl, 'prefix reuse', formatCount(r.reusedPrefixEntries) + ' of '
                + formatCount(r.transcriptEntries) + ' entries');
            row(dl, 'finish reason', str(r.finishReason));
            if (r.error) row(dl, 'error', str(r.error));
            if (entry.turn) {
                row(dl, 'turn', entry.turn.number + ', round ' + (entry.round + 1) + ' of '
                    + entry.turn.requests.length + ', turn total ' + formatDuration(entry.turn.dur));
            }
            if (entry.toolCalls.length) {
                body.appendChild(el('h3', null, 'Tool calls (' + entry.toolCalls.length + ')'));
                const list = el('ul');
                for (const t of entry.toolCalls) {
                    const li = el('li');
                    li.appendChild(linkTo(t, str(t.record.name) + ' · ' + formatDuration(t.dur)));
                    list.appendChild(li);
                }
                body.appendChild(list);
            }
        } else if (entry.kind === 'tool') {
            row(dl, 'name', str(r.name));
            row(dl, 'fingerprint', str(r.fingerprint));
            row(dl, 'start', formatDuration(entry.ts));
            row(dl, 'duration', formatDuration(entry.dur));
            row(dl, 'arguments size', formatBytes(r.argumentsBytes));
            row(dl, 'output size', formatBytes(r.outputBytes));
            row(dl, 'outcome', str(r.outcome));
            if (r.error) row(dl, 'error', str(r.error));
            if (entry.parent) {
                const dd = row(dl, 'request', '');
                dd.textContent = '';
                dd.appendChild(linkTo(entry.parent, entry.parent.id));
            }
        } else if (entry.kind === 'handoff') {
            row(dl, 'kind', str(r.kind));
            row(dl, 'from', str(r.from));
            row(dl, 'to', str(r.to));
            row(dl, 'at', formatDuration(entry.ts));
        } else if (entry.kind === 'band') {
            row(dl, 'start', formatDuration(entry.ts));
            row(dl, 'width', formatDuration(entry.dur));
            row(dl, 'requests', formatCount(r.requests));
            row(dl, 'requests, ids', str(r.firstRequestID) + ' – ' + str(r.lastRequestID));
            row(dl, 'time in requests', formatDuration(num(r.requestTime)));
            row(dl, 'waiting (TTFT)', formatDuration(num(r.waitTime)));
            row(dl, 'of which server prompt processing', formatDuration(num(r.promptTime)));
            row(dl, 'generating', formatDuration(num(r.generatingTime)));
            row(dl, 'failed requests', formatCount(r.errors));
            row(dl, 'tool calls', formatCount(r.toolCalls));
            row(dl, 'time in tool calls', formatDuration(num(r.toolTime)));
            row(dl, 'failed tool calls', formatCount(r.toolErrors));
            row(dl, 'turns starting here', formatCount(r.turns));
            row(dl, 'their total time', formatDuration(num(r.turnTime)));
            row(dl, 'longest turn', formatDuration(num(r.longestTurn)));
        } else if (entry.kind === 'interval') {
            row(dl, 'name', str(r.name));
            row(dl, 'start', formatDuration(entry.ts));
            row(dl, 'duration', formatDuration(entry.dur));
            if (r.metadata && typeof r.metadata === 'object') {
                for (const key of Object.keys(r.metadata)) row(dl, key, str(r.metadata[key]));
            }
            if (r.error) row(dl, 'error', str(r.error));
        }
        showFindingsOf(body, entry);
        showPayloads(body, run, entry.id);
    }

    function showFindingsOf(body, entry) {
        if (!entry.findings || !entry.findings.length) return;
        body.appendChild(el('h3', null, 'Findings (' + entry.findings.length + ')'));
        const list = el('ul', 'entry-findings');
        for (const index of entry.findings) {
            const li = el('li');
            const button = el('button', 'link-button', state.data.findings[index].title);
            button.type = 'button';
            button.dataset.finding = String(index);
            button.addEventListener('click', () => focusFinding(index));
            li.appendChild(button);
            list.appendChild(li);
        }
        body.appendChild(list);
    }

    /** The details panel as plain lines, for the self-test output. */
    function detailsText() {
        const lines = [];
        const body = $('details-body');
        const dl = body.querySelector('dl');
        if (dl) {
            const terms = dl.querySelectorAll('dt');
            for (const dt of terms) lines.push(dt.textContent + ': ' + dt.nextElementSibling.textContent);
        }
        for (const b of body.querySelectorAll('.entry-findings button')) lines.push('finding: ' + b.textContent);
        for (const pre of body.querySelectorAll('pre')) lines.push('payload: ' + pre.textContent);
        return lines.join('\n');
    }

    // MARK: - Selection and findings

    function select(entry, reveal) {
        state.selected = entry;
        showDetails(entry);
        if (entry && reveal) revealEntry(entry, false);
        render();
    }

    function revealEntry(entry, zoom) {
        const span = state.view.end - state.view.start;
        const end = entry.ts + entry.dur;
        if (zoom) {
            const width = Math.max(MIN_SPAN * 10, entry.dur * 3, span / 50);
            setView(entry.ts + entry.dur / 2 - width / 2, entry.ts + entry.dur / 2 + width / 2);
        } else if (entry.ts < state.view.start || end > state.view.end) {
            setView(entry.ts + entry.dur / 2 - span / 2, entry.ts + entry.dur / 2 + span / 2);
        }
        scrollToLane(entry.lane);
    }

    function scrollToLane(laneRef) {
        const height = lanesCanvas.clientHeight - AXIS_HEIGHT;
        if (laneRef.top < state.scrollY || laneRef.top + LANE_HEIGHT > state.scrollY + height) {
            state.scrollY = Math.max(0, laneRef.top - RUN_HEADER - 4);
            clampScroll();
        }
    }

    function focusFinding(index) {
        const finding = state.data.findings[index];
        if (!finding) return;
        state.activeFinding = index;
        for (const button of document.querySelectorAll('.finding')) {
            button.classList.toggle('active', button.dataset.index === String(index));
        }
        const entries = state.findingEntries[index] || [];
        state.highlight = new Set(entries);
        if (!entries.length) { render(); return; }
        let start = Infinity;
        let end = -Infinity;
        for (const e of entries) {
            start = Math.min(start, e.ts);
            end = Math.max(end, e.ts + e.dur);
        }
        const pad = Math.max((end - start) * 0.15, MIN_SPAN * 10);
        setView(start - pad, end + pad);
        state.selected = entries[0];
        showDetails(entries[0]);
        scrollToLane(entries[0].lane);
        render();
    }

    // MARK: - View (zoom and pan)

    function setView(start, end) {
        const maxSpan = state.fullSpan * 1.2;
        let span = Math.min(Math.max(end - start, MIN_SPAN), maxSpan);
        const center = (start + end) / 2;
        let s = center - span / 2;
        // Nothing happens before the run starts: the view never shows negative time.
        const lo = 0;
        const hi = Math.max(span, state.fullSpan * 1.1);
        if (s < lo) s = lo;
        if (s + span > hi) s = Math.max(lo, hi - span);
        state.view.start = s;
        state.view.end = s + span;
    }

    function resetView() {
        setView(0, state.fullSpan * 1.02);
    }

    function zoom(factor, anchorTime) {
        const { start, end } = state.view;
        const anchor = anchorTime === undefined ? (start + end) / 2 : anchorTime;
        setView(anchor - (anchor - start) * factor, anchor + (end - anchor) * factor);
        render();
    }

    function pan(fraction) {
        const span = state.view.end - state.view.start;
        setView(state.view.start + span * fraction, state.view.end + span * fraction);
        render();
    }

    function clampScroll() {
        const height = lanesCanvas.clientHeight - AXIS_HEIGHT;
        state.scrollY = Math.max(0, Math.min(state.scrollY, Math.max(0, state.contentHeight - height)));
    }

    function plotWidth() {
        return Math.max(10, state.width - LABEL_WIDTH - 8);
    }

    function xOf(t) {
        return LABEL_WIDTH + ((t - state.view.start) / (state.view.end - state.view.start)) * plotWidth();
    }

    function timeAt(x) {
        return state.view.start + ((x - LABEL_WIDTH) / plotWidth()) * (state.view.end - state.view.start);
    }

    // MARK: - Drawing

    /** Fits the canvas's pixels to its CSS size; returns its context, width and height (CSS pixels). */
    function sizeCanvas(canvas) {
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

    /** Index of the first entry with ts >= t in a list sorted by ts. */
    function lowerBound(list, t) {
        let lo = 0;
        let hi = list.length;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (list[mid].ts < t) lo = mid + 1; else hi = mid;
        }
        return lo;
    }

    /** Calls body for each entry overlapping [t0, t1]. */
    function forEachVisible(list, maxDur, t0, t1, body) {
        for (let i = lowerBound(list, t0 - maxDur); i < list.length && list[i].ts <= t1; i++) {
            const e = list[i];
            if (e.ts + e.dur >= t0) body(e);
        }
    }

    function niceStep(span, count) {
        const raw = span / count;
        const power = Math.pow(10, Math.floor(Math.log10(raw)));
        for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
        return 10 * power;
    }

    function fitText(ctx, text, width) {
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

    function render() {
        const began = performance.now();
        const { ctx, width, height } = sizeCanvas(lanesCanvas);
        state.width = width;
        ctx.clearRect(0, 0, width, height);
        ctx.font = '11px system-ui, sans-serif';
        ctx.textBaseline = 'middle';
        const drawn = { request: 0, tool: 0, handoff: 0, interval: 0, failed: 0, splitWait: 0, turn: 0,
            findingMarker: 0, modelLabel: 0, band: 0, bandRequests: 0, bandTurns: 0 };
        const t0 = timeAt(LABEL_WIDTH);
        const t1 = timeAt(LABEL_WIDTH + plotWidth());
        const step = niceStep(state.view.end - state.view.start, Math.max(2, plotWidth() / 110));

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
                if (y > height || y + LANE_HEIGHT < AXIS_HEIGHT) continue;
                drawLane(ctx, l, y, t0, t1, drawn, width);
            }
        }
        ctx.restore();
        drawAxis(ctx, width, t0, t1, step);
        drawOverview();

        state.drawn = drawn;
        state.frames += 1;
        for (const kind of Object.keys(drawn)) {
            lanesCanvas.dataset['drawn' + kind[0].toUpperCase() + kind.slice(1)] = String(drawn[kind]);
        }
        lanesCanvas.dataset.viewStart = String(Math.round(state.view.start));
        lanesCanvas.dataset.viewEnd = String(Math.round(state.view.end));
        lanesCanvas.dataset.frames = String(state.frames);
        lanesCanvas.dataset.lastRenderMs = (performance.now() - began).toFixed(2);
        $('status').textContent = 'showing ' + formatDuration(state.view.start) + ' – '
            + formatDuration(state.view.end) + ' (' + formatDuration(state.view.end - state.view.start)
            + ')   ·   wheel or + − to zoom, drag or arrows to pan, 0 to fit';
    }

    /** Selected or highlighted by a finding: drawn with an outline. */
    function marked(entry) {
        return state.selected === entry || state.highlight.has(entry);
    }

    /**
     * Rectangles of one frame, grouped by colour, drawn in one pass a colour: a rectangle that starts
     * within half a pixel of the last one of its colour, top and height extends it. Dense lanes thus
     * cost a draw per visible run of bars, not a draw per bar, and a colour is set once, not per bar.
     * Colours are drawn in the order they were first used, so a bar added later stays on top.
     */
    function makeBars() {
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
    function makeColumns(bars, top, h) {
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

    function drawLane(ctx, l, y, t0, t1, drawn, width) {
        ctx.fillStyle = COLORS.grid;
        ctx.fillRect(0, y + LANE_HEIGHT - 1, width, 1);
        ctx.fillStyle = COLORS.text;
        ctx.fillText(fitText(ctx, l.label, LABEL_WIDTH - 12), 8, y + ROW.request.top + ROW.request.height / 2);
        ctx.fillStyle = COLORS.muted;
        ctx.fillText(fitText(ctx, l.counts, LABEL_WIDTH - 12), 8, y + ROW.tool.top + 5);

        ctx.save();
        ctx.beginPath();
        ctx.rect(LABEL_WIDTH, y, width - LABEL_WIDTH, LANE_HEIGHT);
        ctx.clip();
        // Bars first, then on top of them: hatching, labels, turns, handoffs, markers, outlines.
        const bars = makeBars();
        const columns = makeColumns(bars, y + ROW.request.top, ROW.request.height);
        const failures = [];
        const labels = [];
        const outlines = [];
        const markers = [];
        const mark = (e, x, top, w, h) => {
            if (e.findings.length) markers.push([x, top + h / 2]);
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

        // A band: as tall as its requests' share of the lane's densest band, its tool calls in the
        // tool row; failures hatched as on single bars.
        forEachVisible(l.bands, l.maxDur.band, t0, t1, (e) => {
            const x0 = xOf(e.ts);
            const w = Math.max(1, xOf(e.ts + e.dur) - x0);
            const top = y + ROW.request.top;
            const h = ROW.request.height;
            if (e.requests) {
                const bar = Math.max(2, Math.round(h * e.requests / l.bandPeak));
                bars.add(STYLE.band.color, x0, top + h - bar, w, bar);
            }
            if (e.tools) bars.add(STYLE.tool.color, x0, y + ROW.tool.top, w, ROW.tool.height);
            if (num(e.record.errors) || num(e.record.toolErrors)) failures.push([x0, top, w, h]);
            drawn.band += 1;
            drawn.bandRequests += e.requests;
            mark(e, x0, top, w, h);
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
            const w = Math.max(1, xOf(e.ts + e.dur) - x0);
            const top = y + ROW.tool.top;
            bars.add(STYLE.tool.color, x0, top, w, ROW.tool.height);
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

        bars.draw(ctx);
        for (const [x, top, w, h] of failures) drawFailure(ctx, x, top, w, h, drawn);
        for (const [color, text, x, cy, w] of labels) {
            ctx.fillStyle = color;
            ctx.fillText(fitText(ctx, text, w - 6), x + 3, cy);
        }
        drawTurns(ctx, l, y, t0, t1, drawn);

        // Handoff labels take the tool row, then the one above when a label would overlap.
        const labelEnds = [-Infinity, -Infinity];
        forEachVisible(l.handoffs, 0, t0, t1, (e) => {
            const x = Math.round(xOf(e.ts));
            ctx.fillStyle = STYLE.handoff.color;
            ctx.fillRect(x, y + 2, 2, LANE_HEIGHT - 4);
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
            if (e.findings.length) markers.push([x + 1, y + ROW.request.top + ROW.request.height / 2]);
            if (marked(e)) outlines.push([e, x - 4, y + 1, 10, LANE_HEIGHT - 2]);
        });

        // A diamond on the left end of every event a finding is about, all of a lane in one path; a
        // diamond within two pixels of one already drawn would look the same as that one alone.
        if (markers.length) {
            const placed = new Set();
            ctx.beginPath();
            for (const [x, cy] of markers) {
                const key = Math.round(x / 2) * 1024 + cy;
                if (placed.has(key)) continue;
                placed.add(key);
                ctx.moveTo(x, cy - 6);
                ctx.lineTo(x + 5, cy);
                ctx.lineTo(x, cy + 6);
                ctx.lineTo(x - 5, cy);
                ctx.closePath();
            }
            ctx.fillStyle = STYLE.finding.color;
            ctx.fill();
            ctx.strokeStyle = '#ffffff';
            ctx.lineWidth = 1;
            ctx.stroke();
            drawn.findingMarker += markers.length;
        }

        for (const [e, x, top, w, h] of outlines) {
            ctx.lineWidth = state.selected === e ? 2 : 3;
            ctx.strokeStyle = state.selected === e ? STYLE.selected.color : STYLE.finding.color;
            ctx.strokeRect(x - 1.5, top - 1.5, Math.max(w, 2) + 3, h + 3);
        }
        ctx.restore();
    }

    /** Brackets under the requests and tool calls of each user turn, with the turn's total time. */
    function drawTurns(ctx, l, y, t0, t1, drawn) {
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

    function drawAxis(ctx, width, t0, t1, step) {
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
            ctx.fillText(formatDuration(Math.abs(t) < step / 1000 ? 0 : t), x + 3, AXIS_HEIGHT / 2 - 2);
        }
    }

    /** The overview: the whole run, drawn once per size and data, and the view's box over it. */
    function drawOverview() {
        const { ctx, width, height } = sizeCanvas(overviewCanvas);
        const ratio = window.devicePixelRatio || 1;
        const key = width + 'x' + height + '@' + ratio;
        if (!state.overview || state.overview.key !== key) {
            state.overview = { key: key, image: overviewImage(width, height, ratio) };
        }
        ctx.clearRect(0, 0, width, height);
        ctx.drawImage(state.overview.image, 0, 0, width, height);
        const span = state.fullSpan * 1.02;
        const x0 = (state.view.start / span) * width;
        const x1 = (state.view.end / span) * width;
        ctx.fillStyle = 'rgba(47,111,219,0.12)';
        ctx.fillRect(x0, 0, Math.max(2, x1 - x0), height);
        ctx.strokeStyle = '#2f6fdb';
        ctx.lineWidth = 1;
        ctx.strokeRect(x0 + 0.5, 0.5, Math.max(2, x1 - x0) - 1, height - 1);
        overviewCanvas.dataset.viewStart = String(Math.round(state.view.start));
    }

    /** Requests per pixel column of each run, as a density strip coloured by the column's cache ratio;
     *  columns of aggregate bands only in the band colour. */
    function overviewImage(width, height, ratio) {
        const image = document.createElement('canvas');
        image.width = Math.max(1, Math.round(width * ratio));
        image.height = Math.max(1, Math.round(height * ratio));
        const ctx = image.getContext('2d');
        ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
        ctx.fillStyle = '#f3f4f6';
        ctx.fillRect(0, 0, width, height);
        const span = state.fullSpan * 1.02;
        const px = (t) => (t / span) * width;
        const bandHeight = (height - 4) / Math.max(1, state.runs.length);
        const columns = Math.max(1, Math.floor(width));
        const column = (t) => Math.max(0, Math.min(columns - 1, Math.floor(px(t))));
        state.runs.forEach((run, index) => {
            const counts = new Float64Array(columns);
            const banded = new Float64Array(columns);
            const cached = new Float64Array(columns);
            const input = new Float64Array(columns);
            for (const r of run.requests) {
                const a = column(r.ts);
                const b = Math.max(a, column(r.ts + r.dur));
                const withCache = r.ratio !== null;
                const cachedTokens = withCache ? num(r.record.cachedInputTokens) : 0;
                const inputTokens = withCache ? num(r.record.inputTokens) : 0;
                for (let c = a; c <= b; c++) {
                    counts[c] += 1;
                    cached[c] += cachedTokens;
                    input[c] += inputTokens;
                }
            }
            for (const band of run.bands) {
                const a = column(band.ts);
                const b = Math.max(a, column(band.ts + band.dur));
                for (let c = a; c <= b; c++) banded[c] += band.requests / (b - a + 1);
            }
            let max = 1;
            for (let c = 0; c < columns; c++) max = Math.max(max, counts[c] + banded[c]);
            const top = 2 + index * bandHeight;
            for (let c = 0; c < columns; c++) {
                const all = counts[c] + banded[c];
                if (!all) continue;
                const h = Math.max(2, ((bandHeight - 4) * all) / max);
                ctx.fillStyle = !counts[c] ? STYLE.band.color
                    : cacheStyle(input[c] > 0 ? cached[c] / input[c] : null).color;
                ctx.fillRect(c, top + bandHeight - 2 - h, 1, h);
            }
            for (const h of run.handoffs) {
                ctx.fillStyle = STYLE.handoff.color;
                ctx.fillRect(Math.round(px(h.ts)), top, 1, bandHeight - 2);
            }
            if (state.runs.length > 1) {
                ctx.fillStyle = COLORS.muted;
                ctx.font = '10px system-ui, sans-serif';
                ctx.textBaseline = 'top';
                ctx.fillText(fitText(ctx, run.label, 200), 4, top + 1);
            }
        });
        return image;
    }

    // MARK: - Hit testing and input

    function hitTest(x, y) {
        if (y < AXIS_HEIGHT || x < LABEL_WIDTH) return null;
        const contentY = y - AXIS_HEIGHT + state.scrollY;
        const slack = (state.view.end - state.view.start) / plotWidth() * 3;
        const t = timeAt(x);
        for (const run of state.runs) {
            for (const l of run.lanes) {
                if (contentY < l.top || contentY >= l.top + LANE_HEIGHT) continue;
                const local = contentY - l.top;
                // Handoff markers win: they are thin and drawn on top.
                let best = null;
                let bestDistance = Infinity;
                forEachVisible(l.handoffs, 0, t - slack * 2, t + slack * 2, (e) => {
                    const d = Math.abs(e.ts - t);
                    if (d < bestDistance) { best = e; bestDistance = d; }
                });
                if (best) return best;
                const pick = (list, maxDur) => {
                    let found = null;
                    let foundDistance = Infinity;
                    forEachVisible(list, maxDur, t - slack, t + slack, (e) => {
                        const inside = t >= e.ts && t <= e.ts + e.dur;
                        const d = inside ? 0 : Math.min(Math.abs(e.ts - t), Math.abs(e.ts + e.dur - t));
                        if (d < foundDistance || (d === foundDistance && found && e.dur < found.dur)) {
                            found = e;
                            foundDistance = d;
                        }
                    });
                    return found;
                };
                const inRow = (rowSpec) => local >= rowSpec.top - 2 && local <= rowSpec.top + rowSpec.height + 2;
                if (l.signpostsOnly) {
                    const depth = Math.max(0, Math.min(SIGNPOST_DEPTHS - 1, Math.floor((local - 3) / SIGNPOST_ROW)));
                    const atDepth = l.intervals.filter((e) => e.depth === depth);
                    return pick(atDepth, l.maxDur.interval);
                }
                if (inRow(ROW.request) && l.bands.length) return pick(l.bands, l.maxDur.band);
                if (inRow(ROW.request)) return pick(l.requests, l.maxDur.request);
                if (inRow(ROW.tool)) return pick(l.tools, l.maxDur.tool);
                if (inRow(ROW.interval)) return pick(l.intervals, l.maxDur.interval);
                return null;
            }
        }
        return null;
    }

    /** Where an entry is drawn now, in canvas coordinates, or null when off screen. */
    function entryPoint(entry) {
        const rowSpec = entry.kind === 'tool' ? ROW.tool
            : entry.kind === 'interval' ? intervalRow(entry.lane, entry) : ROW.request;
        let x;
        if (entry.kind === 'request' && entry.ttft !== null && entry.dur > entry.ttft) {
            x = (xOf(entry.ts + entry.ttft) + xOf(entry.ts + entry.dur)) / 2;
        } else {
            x = (xOf(entry.ts) + xOf(entry.ts + entry.dur)) / 2;
        }
        const y = entry.lane.top + AXIS_HEIGHT - state.scrollY
            + (entry.kind === 'handoff' ? LANE_HEIGHT / 2 : rowSpec.top + rowSpec.height / 2);
        return { x: x, y: y };
    }

    function canvasPoint(event) {
        const rect = lanesCanvas.getBoundingClientRect();
        return { x: event.clientX - rect.left, y: event.clientY - rect.top };
    }

    let drag = null;

    lanesCanvas.addEventListener('mousedown', (event) => {
        if (event.button !== 0) return;
        drag = { x: event.clientX, y: event.clientY, start: state.view.start, end: state.view.end,
            scrollY: state.scrollY, moved: false };
        lanesCanvas.classList.add('dragging');
        wrap.focus({ preventScroll: true });
    });

    window.addEventListener('mousemove', (event) => {
        if (!drag) return;
        const dx = event.clientX - drag.x;
        const dy = event.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        if (!drag.moved) return;
        const perPixel = (drag.end - drag.start) / plotWidth();
        setView(drag.start - dx * perPixel, drag.end - dx * perPixel);
        state.scrollY = drag.scrollY - dy;
        clampScroll();
        render();
    });

    window.addEventListener('mouseup', () => {
        lanesCanvas.classList.remove('dragging');
        if (drag) setTimeout(() => { drag = null; }, 0);
    });

    /** One line about an event, for the hover tooltip: a bar's model shows here when not on the bar. */
    function hoverText(entry) {
        if (!entry) return '';
        const r = entry.record;
        if (entry.kind === 'request') {
            return str(r.model) + ' · ' + formatDuration(entry.dur) + ' · TTFT ' + formatDuration(entry.ttft);
        }
        if (entry.kind === 'tool') return str(r.name) + ' · ' + formatDuration(entry.dur) + ' · ' + str(r.outcome);
        if (entry.kind === 'handoff') return str(r.kind) + ': ' + str(r.from) + ' → ' + str(r.to);
        if (entry.kind === 'band') {
            return entry.requests + ' requests, ' + entry.tools + ' tool calls, ' + entry.turns
                + ' turns starting (aggregate band)';
        }
        return str(r.name) + ' · ' + formatDuration(entry.dur);
    }

    lanesCanvas.addEventListener('mousemove', (event) => {
        if (drag) return;
        const point = canvasPoint(event);
        lanesCanvas.title = hoverText(hitTest(point.x, point.y));
    });

    lanesCanvas.addEventListener('click', (event) => {
        if (drag && drag.moved) return;
        const point = canvasPoint(event);
        select(hitTest(point.x, point.y), false);
    });

    lanesCanvas.addEventListener('wheel', (event) => {
        event.preventDefault();
        const point = canvasPoint(event);
        if (event.shiftKey) {
            state.scrollY += event.deltaY;
            clampScroll();
            render();
            return;
        }
        if (Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
            pan(event.deltaX / plotWidth());
            return;
        }
        const anchor = point.x >= LABEL_WIDTH ? timeAt(point.x) : undefined;
        zoom(Math.pow(1.0015, event.deltaY), anchor);
    }, { passive: false });

    function onKey(event) {
        if (event.target && (event.target.tagName === 'INPUT' || event.target.tagName === 'TEXTAREA')) return;
        if (event.ctrlKey || event.metaKey || event.altKey) return;
        let handled = true;
        switch (event.key) {
        case '+': case '=': zoom(0.5); break;
        case '-': case '_': zoom(2); break;
        case 'ArrowLeft': pan(-0.2); break;
        case 'ArrowRight': pan(0.2); break;
        case 'ArrowUp': state.scrollY -= LANE_HEIGHT; clampScroll(); render(); break;
        case 'ArrowDown': state.scrollY += LANE_HEIGHT; clampScroll(); render(); break;
        case 'PageUp': state.scrollY -= lanesCanvas.clientHeight * 0.8; clampScroll(); render(); break;
        case 'PageDown': state.scrollY += lanesCanvas.clientHeight * 0.8; clampScroll(); render(); break;
        case '0': case 'Home': resetView(); render(); break;
        case 'Escape':
            state.highlight = new Set();
            state.activeFinding = -1;
            for (const b of document.querySelectorAll('.finding.active')) b.classList.remove('active');
            select(null, false);
            break;
        default: handled = false;
        }
        if (handled) event.preventDefault();
    }
    document.addEventListener('keydown', onKey);

    let overviewDrag = false;
    function overviewMove(event) {
        const rect = overviewCanvas.getBoundingClientRect();
        const t = ((event.clientX - rect.left) / rect.width) * state.fullSpan * 1.02;
        const half = (state.view.end - state.view.start) / 2;
        setView(t - half, t + half);
        render();
    }
    overviewCanvas.addEventListener('mousedown', (event) => { overviewDrag = true; overviewMove(event); });
    window.addEventListener('mousemove', (event) => { if (overviewDrag) overviewMove(event); });
    window.addEventListener('mouseup', () => { overviewDrag = false; });

    $('zoom-in').addEventListener('click', () => zoom(0.5));
    $('zoom-out').addEventListener('click', () => zoom(2));
    $('zoom-reset').addEventListener('click', () => { resetView(); render(); });
    $('toggle-events').addEventListener('click', () => {
        const events = $('events');
        events.hidden = !events.hidden;
        $('toggle-events').setAttribute('aria-expanded', String(!events.hidden));
    });

    $('open-file').addEventListener('change', (event) => {
        const file = event.target.files && event.target.files[0];
        if (!file) return;
        const reader = new FileReader();
        reader.onload = () => {
            try {
                load(JSON.parse(String(reader.result)));
                render();
                buildEventList();
            } catch (error) {
                showError(error);
            }
        };
        reader.readAsText(file);
    });

    let resizeFrame = 0;
    window.addEventListener('resize', () => {
        cancelAnimationFrame(resizeFrame);
        resizeFrame = requestAnimationFrame(() => { clampScroll(); render(); });
    });

    function showError(error) {
        const body = $('details-body');
        clear(body);
        const reason = error && error.message ? error.message : String(error);
        body.appendChild(el('p', 'error-box', 'Cannot show this trace: ' + reason));
        document.body.dataset.status = 'error';
    }

    // MARK: - Self-test hook
    //
    // `#selftest=STEP,STEP...` drives the page the way a person would, for headless tests that
    // can only read the DOM afterwards (chromium --dump-dom). Steps:
    //   click:KIND:INDEX[:RUN]  zoom to the INDEX-th request/tool/handoff/interval of run RUN (by
    //                           time) and click the canvas at the point where it is drawn
    //   finding:INDEX           click the INDEX-th finding in the side panel
    //   more                    click the button that shows the next page of findings
    //   key:KEY                 press KEY (+, -, ArrowLeft, 0, ...) on the timeline
    //   wheel:DELTA             turn the wheel over the middle of the timeline
    // The result goes to <output id="selftest">: the details panel's text, and data attributes.
    //
    // A step's time runs from the input to the canvas's pixels: reading one pixel back makes the
    // browser rasterize everything the step drew before the clock stops. Before each step the page's
    // pending style and layout are settled, as the browser does before a person's input reaches it.
    // (Steps run in one task: in headless Chromium's virtual time, a later task's clock stands still.)

    function runSelfTest(spec) {
        const output = $('selftest');
        const log = [];
        const lists = { request: 'requests', tool: 'tools', handoff: 'handoffs', interval: 'intervals',
            band: 'bands' };
        for (const step of spec.split(',')) {
            void document.body.offsetHeight;
            const parts = step.split(':');
            const began = performance.now();
            if (parts[0] === 'click') {
                const run = state.runs[Number(parts[3] || 0)];
                const entry = run && lists[parts[1]] ? run[lists[parts[1]]][Number(parts[2])] : null;
                if (!entry) { log.push('no ' + step); continue; }
                revealEntry(entry, true);
                render();
                const p = entryPoint(entry);
                const rect = lanesCanvas.getBoundingClientRect();
                const init = { bubbles: true, cancelable: true, clientX: rect.left + p.x, clientY: rect.top + p.y,
                    button: 0 };
                lanesCanvas.dispatchEvent(new MouseEvent('mousedown', init));
                window.dispatchEvent(new MouseEvent('mouseup', init));
                drag = null;
                lanesCanvas.dispatchEvent(new MouseEvent('click', init));
                output.dataset.clickedKind = state.selected ? state.selected.kind : '';
                output.dataset.clickedId = state.selected ? state.selected.id : '';
                output.dataset.expectedId = entry.id;
            } else if (parts[0] === 'finding') {
                const button = document.querySelectorAll('.finding')[Number(parts[1])];
                if (!button) { log.push('no ' + step); continue; }
                button.click();
                output.dataset.highlighted = Array.from(state.highlight).map((e) => e.id).join(' ');
            } else if (parts[0] === 'more') {
                const button = document.querySelector('.more-findings');
                if (!button) { log.push('no ' + step); continue; }
                button.click();
            } else if (parts[0] === 'key') {
                const key = decodeURIComponent(parts.slice(1).join(':'));
                wrap.dispatchEvent(new KeyboardEvent('keydown', { key: key, bubbles: true, cancelable: true }));
            } else if (parts[0] === 'wheel') {
                const rect = lanesCanvas.getBoundingClientRect();
                lanesCanvas.dispatchEvent(new WheelEvent('wheel', { deltaY: Number(parts[1]), bubbles: true,
                    cancelable: true, clientX: rect.left + LABEL_WIDTH + plotWidth() / 2,
                    clientY: rect.top + rect.height / 2 }));
            } else {
                log.push('unknown ' + step);
                continue;
            }
            lanesCanvas.getContext('2d').getImageData(0, 0, 1, 1);
            log.push(step + ' ' + (performance.now() - began).toFixed(1) + 'ms');
        }
        output.dataset.steps = log.join('; ');
        output.dataset.selected = state.selected ? state.selected.kind + ':' + state.selected.id : '';
        output.textContent = detailsText();
        output.dataset.status = 'done';
    }

    // MARK: - Start

    function start() {
        const began = performance.now();
        document.body.dataset.scriptStartMs = began.toFixed(1);
        let data = null;
        try {
            const node = $('trace-data');
            const text = node ? node.textContent.trim() : '';
            data = text && text !== 'null' ? JSON.parse(text) : null;
        } catch (error) {
            showError(new Error('the embedded trace data is not valid JSON (' + error.message + ')'));
            return;
        }
        document.body.dataset.parseMs = (performance.now() - began).toFixed(1);
        if (!data) {
            $('runs-title').textContent = 'No trace embedded: open a viewer JSON file, or run '
                + 'trace-report export --format html STORE';
            document.body.dataset.status = 'empty';
            return;
        }
        try {
            const loadBegan = performance.now();
            load(data);
            const renderBegan = performance.now();
            render();
            document.body.dataset.loadMs = (renderBegan - loadBegan).toFixed(1);
            document.body.dataset.renderMs = (performance.now() - renderBegan).toFixed(1);
        } catch (error) {
            showError(error);
            return;
        }
        // Time from navigation start to the first drawn frame, HTML and JSON parsing included.
        document.body.dataset.firstRenderMs = performance.now().toFixed(1);
        // The event list is not needed for the first frame; build it just after.
        setTimeout(() => {
            const listBegan = performance.now();
            buildEventList();
            document.body.dataset.eventListMs = (performance.now() - listBegan).toFixed(1);
            document.body.dataset.status = 'ready';
            const match = /(?:^|&)selftest=([^&]*)/.exec(location.hash.slice(1));
            if (match) runSelfTest(decodeURIComponent(match[1]));
        }, 0);
    }

    start();
})();
