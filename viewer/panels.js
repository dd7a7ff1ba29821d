// The panels around the timeline, built from the prepared runs as text only: the header's
// figures per run, the findings list (a page at a time), the legend and the hidden event list.

import { formatCount, formatDollars, formatDuration, formatPercent, formatRate, num, shortID, str } from './format.js';
import { STYLE } from './style.js';
import { contextText, turnText } from './labels.js';
import { cacheMoneyText } from './money.js';
import { $, clear, el } from './dom.js';

/** Findings listed at once; a button shows the next page. */
const FINDINGS_PAGE = 200;
/** The events a finding's item links to at most; the rest are counted. */
const FINDING_LINKS = 12;

function figure(label, value, title) {
    const span = el('span', 'figure');
    span.appendChild(el('span', 'label', label));
    span.appendChild(el('span', 'value', value));
    if (title) span.title = title;
    return span;
}

/** The header: the runs' names and, per run, its figures; bands and redactions noted. */
export function buildHeader(state) {
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
        if (num(s.cost) !== null) row.appendChild(figure('cost', formatDollars(num(s.cost)),
            'dollars of the priced requests, from the price file given to the export'));
        if (run.money) row.appendChild(figure('cache', cacheMoneyText(run.money),
            'what cached input tokens saved against the input price, what writing the cache cost above it, '
            + 'and the dollars the cache breaks lost (their findings)'));
        if (num(s.errors)) row.appendChild(figure('errors', formatCount(s.errors)));
        if (num(s.droppedEvents)) row.appendChild(figure('dropped', formatCount(s.droppedEvents)));
        summary.appendChild(row);
        // A run that crashed or was killed: what it recorded last may be missing.
        if (s.unclosed) summary.appendChild(el('div', 'summary-run notice unclosed', s.unclosed));
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

/** The findings list, by group (as `trace-report check` groups them: kind, session, subject), the
 *  groups within noise apart after the others. A group of one is its finding's button; a larger
 *  group's button steps through its findings, one per click, and can list them all.
 *  `focusFinding(index)` is called with the finding to show. */
export function buildFindings(state, focusFinding, select) {
    const list = $('findings-list');
    clear(list);
    const findings = Array.isArray(state.data.findings) ? state.data.findings : [];
    const groups = Array.isArray(state.data.findingGroups) ? state.data.findingGroups : [];
    $('findings-count').textContent = '(' + formatCount(findings.length)
        + (groups.length < findings.length ? ' in ' + formatCount(groups.length) + ' groups' : '') + ')';
    if (!findings.length) {
        list.appendChild(el('li', 'hint', 'No findings.'));
        return;
    }
    showPage(list, groups.length, 0, 'groups', (index) => groupItem(state, groups, index, focusFinding, select));
}

/** Adds items `first` to a page further, made by `item(index)`, and a button for the rest: a run can
 *  have tens of thousands, and laying out every one would delay the first frame by seconds. */
function showPage(list, count, first, noun, item) {
    const end = Math.min(count, first + FINDINGS_PAGE);
    const fragment = document.createDocumentFragment();
    for (let index = first; index < end; index++) fragment.appendChild(item(index));
    if (end < count) {
        const li = el('li');
        const rest = count - end;
        const more = el('button', 'more-findings', 'Show ' + formatCount(Math.min(FINDINGS_PAGE, rest))
            + ' more of ' + formatCount(rest) + ' further ' + noun);
        more.type = 'button';
        more.addEventListener('click', () => {
            li.remove();
            showPage(list, count, end, noun, item);
        });
        li.appendChild(more);
        fragment.appendChild(li);
    }
    list.appendChild(fragment);
}

/** The events a finding names, each a link that selects it (a dozen at most, then a count). */
function findingLinks(state, index, select) {
    const entries = state.findingEntries[index] || [];
    const links = el('div', 'finding-ids');
    links.dataset.finding = String(index);
    if (!entries.length) return links;
    links.appendChild(document.createTextNode('events: '));
    for (const entry of entries.slice(0, FINDING_LINKS)) {
        const link = el('button', 'link-button', entry.kind === 'band' ? 'band at ' + formatDuration(entry.ts)
            : entry.kind + ' ' + shortID(entry.id));
        link.type = 'button';
        link.dataset.id = entry.id;
        link.addEventListener('click', () => select(entry, true));
        links.appendChild(link);
    }
    if (entries.length > FINDING_LINKS) {
        links.appendChild(document.createTextNode(' and ' + formatCount(entries.length - FINDING_LINKS) + ' more'));
    }
    return links;
}

/** One finding's button. */
function findingButton(state, finding, index, focusFinding) {
    const button = el('button', 'finding');
    button.type = 'button';
    button.dataset.index = String(index);
    button.dataset.severity = str(finding.severity);
    button.classList.toggle('active', index === state.activeFinding);
    if (finding.runLetter) {
        const tag = el('span', 'finding-run', finding.runLetter + ' · ' + finding.compared);
        button.dataset.run = finding.runLetter;
        button.dataset.compared = finding.compared;
        button.appendChild(tag);
    }
    button.appendChild(el('span', 'finding-kind', finding.kind));
    button.appendChild(el('span', 'finding-title', finding.title));
    if (finding.detail) button.appendChild(el('span', 'finding-detail', finding.detail));
    button.addEventListener('click', () => focusFinding(index));
    return button;
}

/** The list item of group `index`: its finding's button, or the group's with a count. */
function groupItem(state, groups, index, focusFinding, select) {
    const group = groups[index];
    const members = Array.isArray(group.findings) ? group.findings.map(num) : [];
    const li = el('li');
    if (group.severity === 'noise' && (index === 0 || groups[index - 1].severity !== 'noise')) {
        li.appendChild(el('div', 'findings-apart',
            'Within noise, listed apart: findings that cost next to nothing (docs/trace-report.md#noise)'));
    }
    if (members.length === 1) {
        li.appendChild(findingButton(state, state.data.findings[members[0]], members[0], focusFinding));
        li.appendChild(findingLinks(state, members[0], select));
        return li;
    }
    const button = el('button', 'finding-group');
    button.type = 'button';
    button.dataset.group = String(index);
    button.dataset.count = String(members.length);
    button.dataset.severity = str(group.severity);
    const run = state.runs[num(group.run)];
    if (state.runs.length > 1 && run) {
        button.dataset.run = run.letter;
        button.appendChild(el('span', 'finding-run', run.letter));
    }
    button.appendChild(el('span', 'finding-kind', group.kind));
    button.appendChild(el('span', 'finding-count', '×' + formatCount(members.length)));
    button.appendChild(el('span', 'finding-title', group.title));
    if (group.detail) button.appendChild(el('span', 'finding-detail', group.detail));
    const step = el('span', 'finding-step', 'click to step through them');
    button.appendChild(step);
    let next = 0;
    button.addEventListener('click', () => {
        const position = next;
        next = (next + 1) % members.length;
        step.textContent = formatCount(position + 1) + ' of ' + formatCount(members.length);
        focusFinding(members[position]);
    });
    li.appendChild(button);
    const expand = el('button', 'expand-group', 'list all ' + formatCount(members.length));
    expand.type = 'button';
    expand.addEventListener('click', () => {
        expand.remove();
        const inner = el('ol', 'finding-instances');
        li.appendChild(inner);
        showPage(inner, members.length, 0, 'findings', (position) => {
            const item = el('li');
            const finding = members[position];
            item.appendChild(findingButton(state, state.data.findings[finding], finding, focusFinding));
            item.appendChild(findingLinks(state, finding, select));
            return item;
        });
    });
    li.appendChild(expand);
    return li;
}

/** The legend: every entry of STYLE, its swatch drawn as the bars are. */
export function buildLegend() {
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
export function buildEventList(runs) {
    const list = $('event-list');
    clear(list);
    const fragment = document.createDocumentFragment();
    for (const run of runs) {
        for (const l of run.lanes) {
            const session = el('li', null, 'session ' + l.label + (l.money && l.money.cost !== null
                ? ', cost ' + formatDollars(l.money.cost) + ', cache ' + cacheMoneyText(l.money) : ''));
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
        for (const c of run.contexts) add(c, contextText(c));
    }
    list.appendChild(fragment);
}
