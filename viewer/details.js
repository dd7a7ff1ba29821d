// The details panel: every figure of the chosen entry, links to its tool calls or its request,
// the findings that touch it and its captured (redacted) text, as text only.

import { formatBytes, formatCount, formatDollars, formatDuration, formatPercent, formatRate, num, str } from './format.js';
import { requestRate } from './model.js';
import { $, clear, el } from './dom.js';

function row(dl, label, value) {
    dl.appendChild(el('dt', null, label));
    const dd = el('dd', null, value === null || value === undefined || value === '' ? '–' : value);
    dl.appendChild(dd);
    return dd;
}

/// The wait before the first token as one stacked bar of its parts, each part a row below it;
/// a part the client or the server did not report reads "not reported" and takes no room.
function waitParts(dl, parts, ttft) {
    const bar = el('div', 'wait-bar', null);
    parts.forEach((part, index) => {
        const ns = num(part.ns);
        if (ns !== null && ns > 0 && ttft > 0) {
            const piece = el('span', 'wait-part wait-part-' + index, null);
            piece.style.width = (100 * ns / ttft).toFixed(2) + '%';
            piece.title = str(part.label) + ' ' + formatDuration(ns);
            bar.appendChild(piece);
        }
    });
    row(dl, 'TTFT split', ' ').appendChild(bar);
    parts.forEach((part, index) => {
        const ns = num(part.ns);
        const dd = row(dl, str(part.label), ns === null ? 'not reported' : formatDuration(ns));
        dd.classList.add('wait-key', 'wait-key-' + index);
    });
}

function linkTo(entry, text, actions) {
    const button = el('button', 'link-button', text);
    button.type = 'button';
    button.addEventListener('click', () => actions.select(entry, true));
    return button;
}

function showPayloads(body, run, id, kinds) {
    const payloads = (run.payloads.get(id) || []).filter((p) => !kinds || kinds.includes(str(p.kind)));
    if (!payloads.length) return;
    body.appendChild(el('h3', null, 'Captured text (redacted)'));
    for (const payload of payloads) {
        body.appendChild(el('div', 'hint', str(payload.kind)));
        body.appendChild(el('pre', 'payload', str(payload.text)));
    }
}

/**
 * Shows `entry` (null: a hint) in the details panel; its links call `actions.select(entry, true)`
 * and `actions.focusFinding(index)`.
 */
export function showDetails(state, entry, actions) {
    const body = $('details-body');
    clear(body);
    if (!entry) {
        body.appendChild(el('p', 'hint', 'Click a request, tool call, handoff or interval.'));
        return;
    }
    const r = entry.record;
    const run = entry.run;
    const heading = { request: 'Request', tool: 'Tool call', handoff: 'Handoff', interval: 'Interval',
        session: 'Session', band: 'Aggregate band', instructions: 'Instructions and tools' }[entry.kind];
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
        if (Array.isArray(r.ttftParts) && entry.ttft !== null) {
            waitParts(dl, r.ttftParts, entry.ttft);
        } else if (entry.ttft !== null) {
            row(dl, 'TTFT split', 'no server timings or client phases');
        }
        row(dl, 'generating', entry.ttft === null ? '–' : formatDuration(entry.dur - entry.ttft));
        row(dl, 'rate', formatRate(requestRate(r)));
        if (num(r.cost) !== null) row(dl, 'cost', formatDollars(num(r.cost)));
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
                li.appendChild(linkTo(t, str(t.record.name) + ' · ' + formatDuration(t.dur), actions));
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
            dd.appendChild(linkTo(entry.parent, entry.parent.id, actions));
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
    } else if (entry.kind === 'instructions') {
        showContext(dl, entry, actions);
    } else if (entry.kind === 'interval') {
        row(dl, 'name', str(r.name));
        row(dl, 'start', formatDuration(entry.ts));
        row(dl, 'duration', formatDuration(entry.dur));
        if (r.metadata && typeof r.metadata === 'object') {
            for (const key of Object.keys(r.metadata)) row(dl, key, str(r.metadata[key]));
        }
        if (r.error) row(dl, 'error', str(r.error));
    }
    showFindingsOf(body, entry, state.data.findings, actions);
    // A stretch shows the instructions and tool definitions its first request was sent with.
    showPayloads(body, run, entry.kind === 'instructions' ? entry.first.id : entry.id,
        entry.kind === 'instructions' ? ['instructions', 'tool_definitions'] : null);
}

/** What the model was told over a stretch: profile, model, the two fingerprints, what changed from
 *  the stretch before, and the tools its requests called. */
function showContext(dl, entry, actions) {
    const r = entry.record;
    const previous = entry.previous;
    row(dl, 'changed', entry.changed.length
        ? entry.changed.map((f) => f + ' ' + (previous[f] || 'none') + ' → ' + (r[f] || 'none')).join('; ')
        : 'first in its session');
    row(dl, 'profile', r.profile);
    row(dl, 'model', r.model);
    row(dl, 'instructions', r.instructions || 'not recorded');
    row(dl, 'tools', r.tools || 'not recorded');
    row(dl, 'from', formatDuration(entry.ts));
    row(dl, 'for', formatDuration(entry.dur));
    row(dl, 'requests', formatCount(entry.requests.length));
    const called = [...new Set(entry.requests.flatMap((q) => q.toolCalls.map((t) => str(t.record.name))))];
    row(dl, 'tools called', called.length ? called.join(', ') : 'none');
    const first = row(dl, 'first request', null);
    first.textContent = '';
    first.appendChild(linkTo(entry.first, entry.first.id, actions));
}

function showFindingsOf(body, entry, findings, actions) {
    if (!entry.findings || !entry.findings.length) return;
    body.appendChild(el('h3', null, 'Findings (' + entry.findings.length + ')'));
    const list = el('ul', 'entry-findings');
    for (const index of entry.findings) {
        const li = el('li');
        const button = el('button', 'link-button', findings[index].title);
        button.type = 'button';
        button.dataset.finding = String(index);
        button.addEventListener('click', () => actions.focusFinding(index));
        li.appendChild(button);
        list.appendChild(li);
    }
    body.appendChild(list);
}

