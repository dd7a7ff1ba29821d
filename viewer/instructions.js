// What the model was told, per session: the stretches of a lane over which its requests ran with
// the same profile, model, instructions and tool set, and what changed at each boundary. The
// instructions and tools are the request's fingerprints (their text only when it was captured).
// Pure: takes prepared lanes, sets fields on them.

import { str } from './format.js';

/** What a stretch holds constant, in the order a change is named. */
export const CONTEXT_FIELDS = ['profile', 'model', 'instructions', 'tools'];

/** The number of shades stretches are drawn in; a run's distinct instructions-and-tools pairs take
 *  them in the order they first appear, so the same pair has the same shade in every lane. */
export const CONTEXT_SHADES = 6;

/**
 * Sets `l.contexts` (sorted by time) on every lane of `run`, and `run.contexts`: one entry per
 * stretch of a lane's requests that share profile, model, instructions and tools. A stretch runs
 * from its first request to the next stretch's first request (the last: to its last request's
 * end); `changed` names the fields that differ from the stretch before ([] for the first).
 */
export function prepareContexts(run) {
    const shades = new Map();
    run.contexts = [];
    for (const l of run.lanes) {
        l.contexts = [];
        l.maxDur.instructions = 0;
        let current = null;
        for (const request of l.requests) {
            const state = {};
            for (const field of CONTEXT_FIELDS) state[field] = str(request.record[field]);
            const changed = current ? CONTEXT_FIELDS.filter((f) => state[f] !== current.record[f]) : [];
            if (!current || changed.length) {
                if (current) current.dur = Math.max(0, request.ts - current.ts);
                const pair = state.instructions + '|' + state.tools;
                if (!shades.has(pair)) shades.set(pair, shades.size % CONTEXT_SHADES);
                current = {
                    kind: 'instructions', id: 'instructions-' + run.index + '-' + (l.key || 'none') + '-'
                        + l.contexts.length,
                    ts: request.ts, dur: request.dur, record: state, changed: changed,
                    previous: current ? current.record : null, first: request, requests: [],
                    shade: shades.get(pair), lane: l, run: run, findings: [],
                };
                l.contexts.push(current);
                run.contexts.push(current);
            }
            current.requests.push(request);
            current.dur = Math.max(current.dur, request.ts + request.dur - current.ts);
        }
        for (const c of l.contexts) l.maxDur.instructions = Math.max(l.maxDur.instructions, c.dur);
    }
    run.contexts.sort((a, b) => a.ts - b.ts);
}

/** A short fingerprint for a label: its first 8 characters, or "none" when not recorded. */
export function shortPrint(fingerprint) {
    const text = str(fingerprint);
    return text ? text.slice(0, 8) : 'none';
}

/** What a stretch's label says: what changed at its start, else what it holds. */
export function contextLabel(context) {
    const r = context.record;
    if (context.changed.length) {
        return context.changed.map((field) => field === 'model' || field === 'profile'
            ? field + ' ' + (context.previous[field] || 'none') + ' → ' + (r[field] || 'none')
            : field + ' changed').join(', ');
    }
    return 'Instructions ' + shortPrint(r.instructions) + ' · tools ' + shortPrint(r.tools)
        + (r.model ? ' · ' + r.model : '');
}
