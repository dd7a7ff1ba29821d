// One line of text about an entry: for the hover tooltip, and for a turn or an instructions
// stretch in the event list.
// Pure: takes a prepared entry (model.js), returns a string.

import { formatDuration, str } from './format.js';
import { contextLabel, shortPrint } from './instructions.js';

/** One line about an event, for the hover tooltip: a bar's model shows here when not on the bar. */
export function hoverText(entry) {
    if (!entry) return '';
    const r = entry.record;
    if (entry.kind === 'request') {
        return str(r.model) + ' · ' + formatDuration(entry.dur) + ' · TTFT ' + formatDuration(entry.ttft);
    }
    if (entry.kind === 'tool') return str(r.name) + ' · ' + formatDuration(entry.dur) + ' · ' + str(r.outcome);
    if (entry.kind === 'handoff') return str(r.kind) + ': ' + str(r.from) + ' → ' + str(r.to);
    if (entry.kind === 'instructions') return contextText(entry);
    if (entry.kind === 'band') {
        return entry.requests + ' requests, ' + entry.tools + ' tool calls, ' + entry.turns
            + ' turns starting (aggregate band)';
    }
    return str(r.name) + ' · ' + formatDuration(entry.dur);
}

/** A user turn: its number, lane, requests, tool calls and total time. */
export function turnText(turn) {
    return 'turn ' + turn.number + ' of ' + turn.lane.label + ': ' + turn.requests.length + ' requests, '
        + turn.tools + ' tool calls, total ' + formatDuration(turn.dur) + (turn.inferred ? ' (inferred)' : '');
}

/** An instructions stretch: what changed at its start, what it holds, its requests and span. */
export function contextText(context) {
    const r = context.record;
    return 'instructions ' + shortPrint(r.instructions) + ', tools ' + shortPrint(r.tools) + ', '
        + (r.model || 'no model') + (r.profile ? ' (' + r.profile + ')' : '') + ' in ' + context.lane.label
        + ' from ' + formatDuration(context.ts) + ' for ' + formatDuration(context.dur) + ', '
        + context.requests.length + ' requests'
        + (context.changed.length ? '; ' + contextLabel(context) : '; first in its session');
}
