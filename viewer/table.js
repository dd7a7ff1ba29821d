// The request table: every request drawn as a bar, one row each, sortable by time to first token,
// latency, tokens, cache hit and cost, filtered by session, tool, profile/model, finding kind,
// failure and (when text was captured) words in the request's captured text and its tool calls'. A
// click on a row selects its request on the timeline; a selection on the timeline marks its row.
// Built just after the first frame, with the event list; shown by the toolbar's Table button.

import { formatCount, formatDollars, formatDuration, formatPercent, num, str } from './format.js';
import { $, clear, el } from './dom.js';

const COLUMNS = [
    { key: 'session', title: 'session', value: (e) => e.lane.label, text: (v) => v },
    { key: 'model', title: 'profile / model', value: (e) => modelOf(e), text: (v) => v },
    { key: 'ttft', title: 'TTFT', value: (e) => e.ttft, text: formatDuration },
    { key: 'latency', title: 'latency', value: (e) => e.dur, text: formatDuration },
    { key: 'input', title: 'input tokens', value: (e) => num(e.record.inputTokens), text: formatCount },
    { key: 'output', title: 'output tokens', value: (e) => num(e.record.outputTokens), text: formatCount },
    { key: 'cache', title: 'cache hit', value: (e) => e.ratio, text: formatPercent },
    { key: 'cost', title: 'cost', value: (e) => num(e.record.cost), text: formatDollars },
    { key: 'error', title: 'error', value: (e) => str(e.record.error), text: (v) => v },
];

/** Rows laid out at once; a button lays out the next page. Laying out 10,000 rows costs about
 *  150 ms, which a sort would pay each time. */
const TABLE_PAGE = 500;

const table = { built: false, rows: [], sort: { key: 'ts', descending: false }, filters: {}, select: null };

function modelOf(entry) {
    return str(entry.record.profile) + ' / ' + str(entry.record.model);
}

function toolNames(entry) {
    return (entry.toolCalls || []).map((call) => str(call.record.name));
}

/** The kinds of the findings about a request, or about one of its tool calls. */
function findingKinds(entry, findings) {
    const indices = (entry.findings || []).concat(...(entry.toolCalls || []).map((call) => call.findings || []));
    return indices.map((index) => str(findings[index].kind));
}

/** The captured text of a request and of its tool calls, lower-cased, for the text filter. */
function capturedText(entry) {
    const ids = [entry.id].concat((entry.toolCalls || []).map((call) => call.id));
    return ids.flatMap((id) => (entry.run.payloads.get(id) || []).map((p) => str(p.text))).join('\n').toLowerCase();
}

/** Shows or hides the table; builds it the first time. */
export function toggleRequestTable(state, select) {
    const section = $('requests');
    section.hidden = !section.hidden;
    $('toggle-table').setAttribute('aria-expanded', String(!section.hidden));
    if (!section.hidden && !table.built) buildRequestTable(state, select);
}

/** The table of `state`'s requests, its sort buttons and its filters. */
export function buildRequestTable(state, select) {
    table.built = true;
    table.select = select;
    table.rows = state.runs.flatMap((run) => run.requests.map((entry) => ({ entry: entry, tr: null })));
    const filters = $('requests-filters');
    clear(filters);
    const severalRuns = state.runs.length > 1;
    const label = (entry) => (severalRuns ? entry.run.letter + ' · ' : '') + entry.lane.label;
    filters.appendChild(choice('session', 'session', table.rows.map((r) => label(r.entry)),
        (entry) => label(entry)));
    filters.appendChild(choice('tool', 'tool', table.rows.flatMap((r) => toolNames(r.entry)),
        (entry) => toolNames(entry)));
    filters.appendChild(choice('model', 'profile / model', table.rows.map((r) => modelOf(r.entry)),
        (entry) => modelOf(entry)));
    const findings = state.data.findings || [];
    filters.appendChild(choice('finding', 'finding kind', table.rows.flatMap((r) => findingKinds(r.entry, findings)),
        (entry) => findingKinds(entry, findings)));
    // Words in captured text: offered only where some text was captured.
    if (state.runs.some((run) => run.payloads.size)) {
        const search = el('input');
        search.type = 'search';
        search.id = 'filter-text';
        search.placeholder = 'words in captured text';
        const apply = () => {
            const words = search.value.trim().toLowerCase();
            table.filters.text = words === '' ? null : (entry) => capturedText(entry).includes(words);
            show();
        };
        search.addEventListener('input', apply);
        search.addEventListener('change', apply);
        const searchLabel = el('label', null, 'text ');
        searchLabel.appendChild(search);
        filters.appendChild(searchLabel);
    }
    const failed = el('input');
    failed.type = 'checkbox';
    failed.id = 'filter-failed';
    failed.addEventListener('change', () => {
        table.filters.failed = failed.checked ? (entry) => str(entry.record.error) !== '' : null;
        show();
    });
    const failedLabel = el('label', null, 'failed only ');
    failedLabel.appendChild(failed);
    filters.appendChild(failedLabel);

    const head = $('requests-head');
    clear(head);
    const tr = el('tr');
    for (const column of COLUMNS) {
        const th = el('th');
        const button = el('button', 'sort', column.title);
        button.type = 'button';
        button.dataset.sort = column.key;
        button.addEventListener('click', () => sortBy(column.key));
        th.appendChild(button);
        tr.appendChild(th);
    }
    head.appendChild(tr);
    show();
    markSelected(state.selected);
}

/** A select of the distinct `values`, filtering on `matches` (a value or a list of them). */
function choice(name, title, values, matches) {
    const select = el('select');
    select.id = 'filter-' + name;
    select.appendChild(option('', 'every ' + title));
    for (const value of Array.from(new Set(values)).sort()) select.appendChild(option(value, value));
    select.addEventListener('change', () => {
        const wanted = select.value;
        table.filters[name] = wanted === '' ? null : (entry) => [].concat(matches(entry)).includes(wanted);
        show();
    });
    const wrapper = el('label', null, title + ' ');
    wrapper.appendChild(select);
    return wrapper;
}

function option(value, text) {
    const node = el('option', null, text);
    node.value = value;
    return node;
}

/** Sorts by `key`, descending first; a second click on the same column turns the order. */
function sortBy(key) {
    const began = performance.now();
    table.sort = { key: key, descending: table.sort.key === key ? !table.sort.descending : true };
    show();
    document.body.dataset.tableSortMs = (performance.now() - began).toFixed(1);
}

const unknown = (v) => v === null || v === undefined || v === '';

/** `rows` in the current order: each key read once, unknown values last whatever the order, ties
 *  in time order. */
function sorted(rows) {
    const column = COLUMNS.find((c) => c.key === table.sort.key);
    const value = column ? column.value : (e) => e.ts;
    const sign = table.sort.descending ? -1 : 1;
    const keyed = rows.map((row) => ({ row: row, key: value(row.entry) }));
    keyed.sort((a, b) => {
        if (unknown(a.key)) return unknown(b.key) ? a.row.entry.ts - b.row.entry.ts : 1;
        if (unknown(b.key)) return -1;
        return (a.key < b.key ? -sign : a.key > b.key ? sign : 0) || a.row.entry.ts - b.row.entry.ts;
    });
    return keyed.map((k) => k.row);
}

/** Writes the rows that pass every filter, in the current order: the first page of them, and a
 *  button for the next. */
function show() {
    const body = $('requests-body');
    clear(body);
    const active = Object.values(table.filters).filter((f) => f);
    const shown = sorted(table.rows.filter((row) => active.every((f) => f(row.entry))));
    showPage(body, shown, 0);
    $('requests').dataset.shown = String(shown.length);
    $('requests').dataset.sort = table.sort.key + (table.sort.descending ? ':desc' : ':asc');
}

function showPage(body, shown, first) {
    const end = Math.min(shown.length, first + TABLE_PAGE);
    const fragment = document.createDocumentFragment();
    for (let index = first; index < end; index++) {
        const row = shown[index];
        if (!row.tr) row.tr = rowOf(row.entry);
        fragment.appendChild(row.tr);
    }
    if (end < shown.length) {
        const tr = el('tr', 'more-rows');
        const td = el('td');
        td.colSpan = COLUMNS.length;
        const more = el('button', 'more-findings', 'Show ' + formatCount(Math.min(TABLE_PAGE, shown.length - end))
            + ' more of ' + formatCount(shown.length - end) + ' further requests');
        more.type = 'button';
        more.addEventListener('click', () => {
            tr.remove();
            showPage(body, shown, end);
        });
        td.appendChild(more);
        tr.appendChild(td);
        fragment.appendChild(tr);
    }
    body.appendChild(fragment);
}

function rowOf(entry) {
    const tr = el('tr');
    tr.dataset.id = entry.id;
    tr.dataset.run = String(entry.run.index);
    for (const column of COLUMNS) {
        const value = column.value(entry);
        tr.appendChild(el('td', null, value === null || value === undefined || value === '' ? '–'
            : column.text(value)));
    }
    tr.addEventListener('click', () => table.select(entry, true));
    return tr;
}

/** Forgets the table of the data before (a file opened in the page): it is built again when shown. */
export function resetRequestTable() {
    table.built = false;
    table.rows = [];
    table.filters = {};
    table.sort = { key: 'ts', descending: false };
    $('requests').hidden = true;
    $('toggle-table').setAttribute('aria-expanded', 'false');
}

/** Marks the row of `entry` as selected (and no other); called on every selection. */
export function markSelected(entry) {
    if (!table.built) return;
    for (const row of table.rows) {
        if (row.tr) row.tr.classList.toggle('selected', row.entry === entry);
    }
}
