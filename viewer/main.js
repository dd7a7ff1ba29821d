// SessionTrace viewer: draws recorded runs (docs/viewer-data.md) on a canvas timeline. This module
// holds the viewer's one state and its actions (load, select, zoom, pan, focus a finding), and
// starts the page from the data embedded in it.
//
// Trace text is data, never markup: every string from the trace reaches the page through
// textContent, createElement or canvas fillText. Nothing here parses HTML.
//
// The timeline is one canvas, so 10,000 requests stay fast; an accessible, visually hidden list
// (#event-list) holds one <li data-kind=...> per event, built from the same prepared data, and the
// canvas reports what each frame drew in data-drawn-* attributes. Tests read both.

import { AXIS_HEIGHT, RUN_HEADER, layoutRuns } from './geometry.js';
import { MIN_SPAN, clampView, fitView, panView, revealView, zoomView } from './view.js';
import { loadTrace } from './model.js';
import { drawTimeline } from './timeline.js';
import { $, clear, el } from './dom.js';
import { buildEventList, buildFindings, buildHeader, buildLegend } from './panels.js';
import { buildDiffPanel } from './diff.js';
import { showDetails } from './details.js';
import { buildRequestTable, markSelected, resetRequestTable } from './table.js';
import { installInput } from './input.js';

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

const canvases = { lanes: $('lanes'), overview: $('overview'), status: $('status') };
const wrap = $('lanes-wrap');
const actions = { select: select, focusFinding: focusFinding };

function render() {
    drawTimeline(state, canvases);
}

function load(data) {
    const trace = loadTrace(data);
    state.data = data;
    state.runs = trace.runs;
    state.fullSpan = trace.fullSpan;
    state.findingEntries = trace.findingEntries;
    state.overview = null;
    state.selected = null;
    state.highlight = new Set();
    state.activeFinding = -1;
    state.scrollY = 0;
    state.contentHeight = layoutRuns(state.runs);
    resetView();
    buildHeader(state);
    buildFindings(state, focusFinding, select);
    buildDiffPanel(state);
    buildLegend();
    clear($('event-list'));
    resetRequestTable();
    showDetails(state, null, actions);
}

// MARK: - Selection and findings

function select(entry, reveal) {
    state.selected = entry;
    markSelected(entry);
    showDetails(state, entry, actions);
    if (entry && reveal) revealEntry(entry, false);
    render();
}

/** Brings `entry` into view, zoomed to it when `zoom` is true, and scrolls to its lane. */
function revealEntry(entry, zoom) {
    state.view = revealView(state.view, entry.ts, entry.dur, zoom, state.fullSpan);
    scrollToLane(entry.lane);
}

function scrollToLane(laneRef) {
    const height = canvases.lanes.clientHeight - AXIS_HEIGHT;
    if (laneRef.top < state.scrollY || laneRef.top + laneRef.height > state.scrollY + height) {
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
    for (const button of document.querySelectorAll('.finding-group')) {
        button.classList.toggle('active', button.dataset.group === String(finding.group));
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
    markSelected(entries[0]);
    showDetails(state, entries[0], actions);
    scrollToLane(entries[0].lane);
    render();
}

// MARK: - View (zoom and pan)

function setView(start, end) {
    state.view = clampView(start, end, state.fullSpan);
}

function resetView() {
    state.view = fitView(state.fullSpan);
}

function zoom(factor, anchorTime) {
    state.view = zoomView(state.view, factor, anchorTime, state.fullSpan);
    render();
}

function pan(fraction) {
    state.view = panView(state.view, fraction, state.fullSpan);
    render();
}

function clampScroll() {
    const height = canvases.lanes.clientHeight - AXIS_HEIGHT;
    state.scrollY = Math.max(0, Math.min(state.scrollY, Math.max(0, state.contentHeight - height)));
}

function showError(error) {
    const body = $('details-body');
    clear(body);
    const reason = error && error.message ? error.message : String(error);
    body.appendChild(el('p', 'error-box', 'Cannot show this trace: ' + reason));
    document.body.dataset.status = 'error';
}

/** The viewer's state, canvases and actions, for the input handlers and for scripts that drive
 *  the page. */
export const viewer = {
    state: state, canvases: canvases, wrap: wrap,
    render: render, load: load, select: select, revealEntry: revealEntry, focusFinding: focusFinding,
    setView: setView, resetView: resetView, zoom: zoom, pan: pan, clampScroll: clampScroll,
    showError: showError,
};

let markReady = null;
/** Resolved once the page is ready (data-status="ready"): drawn, with its event list built. */
export const ready = new Promise((resolve) => { markReady = resolve; });

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
        buildEventList(state.runs);
        document.body.dataset.eventListMs = (performance.now() - listBegan).toFixed(1);
        // The request table too, hidden until its button shows it.
        const tableBegan = performance.now();
        buildRequestTable(state, select);
        document.body.dataset.requestTableMs = (performance.now() - tableBegan).toFixed(1);
        document.body.dataset.status = 'ready';
        markReady();
    }, 0);
}

installInput(viewer);
start();
