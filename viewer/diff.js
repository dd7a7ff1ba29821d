// The comparison panel of a two-store export: `trace-report diff A B`'s table as the export
// carries it (docs/viewer-data.md, `diff`), per scenario A, B, the change B − A and its 95%
// interval, the changes beyond noise marked; and how the timeline lines the two runs up.

import { formatDollars, formatDuration, formatPercent, formatRate, num, str } from './format.js';
import { $, clear, el } from './dom.js';

/** A value of `metric` (`ttft.p50`, `cache_hit_rate.overall`, ...) as text; `change`: a signed
 *  difference (percentage points for a rate of hits). */
export function formatMetric(metric, value, change) {
    const n = num(value);
    if (n === null) return '–';
    const base = str(metric).split('.')[0];
    const sign = change && n > 0 ? '+' : '';
    if (base === 'ttft' || base === 'latency') return sign + formatDuration(n);
    if (base === 'tokens_per_second') return sign + formatRate(n);
    if (base === 'cache_hit_rate') return change ? sign + (n * 100).toFixed(1) + ' pt' : formatPercent(n);
    if (base === 'cost') return sign + formatDollars(n);
    return sign + (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2));
}

/** Fills the comparison panel from `state.data.diff`, or hides it when there is none. */
export function buildDiffPanel(state) {
    const section = $('compare');
    const body = $('compare-body');
    clear(body);
    const diff = state.data && state.data.diff;
    section.hidden = !diff || !Array.isArray(diff.scenarios);
    if (section.hidden) return;
    const confidence = Math.round((num(diff.confidence) || 0.95) * 100);
    body.appendChild(el('p', 'hint', 'B − A per scenario, as trace-report diff gives it: the ' + confidence
        + '% interval of the change from a seeded bootstrap; bold where it excludes zero (beyond noise). '
        + 'The timeline draws both runs on one time base, each from its own start, one above the other: '
        + 'sessions line up where the runs did the same work in the same order, and are compared here by scenario.'));
    let beyond = 0;
    for (const scenario of diff.scenarios) {
        const table = el('table', 'diff-table');
        table.dataset.scenario = str(scenario.scenario);
        table.appendChild(el('caption', null, str(scenario.scenario) + ' · ' + str(scenario.profile) + ' · '
            + str(scenario.model) + ' (A ' + num(scenario.a_samples) + ', B ' + num(scenario.b_samples) + ' samples)'));
        const head = el('tr');
        for (const title of ['metric', 'A', 'B', 'B − A', confidence + '% interval']) head.appendChild(el('th', null, title));
        table.appendChild(head);
        for (const row of scenario.metrics || []) {
            const tr = el('tr');
            const metric = str(row.metric);
            tr.dataset.metric = metric;
            // The figures as exported, for readers that compare them with `diff --json`.
            for (const key of ['a', 'b', 'delta', 'ci_lower', 'ci_upper']) {
                if (num(row[key]) !== null) tr.dataset[key.replace('ci_', '')] = String(num(row[key]));
            }
            if (row.beyond_noise === true) {
                tr.classList.add('beyond-noise');
                beyond += 1;
            }
            tr.appendChild(el('td', null, metric));
            tr.appendChild(el('td', null, formatMetric(metric, row.a, false)));
            tr.appendChild(el('td', null, formatMetric(metric, row.b, false)));
            tr.appendChild(el('td', null, formatMetric(metric, row.delta, true)));
            tr.appendChild(el('td', null, num(row.ci_lower) === null ? '–'
                : formatMetric(metric, row.ci_lower, true) + ' … ' + formatMetric(metric, row.ci_upper, true)));
            table.appendChild(tr);
        }
        body.appendChild(table);
    }
    for (const [key, letter] of [['only_in_a', 'A'], ['only_in_b', 'B']]) {
        const only = diff[key] || [];
        if (only.length) {
            body.appendChild(el('p', 'hint', 'only in ' + letter + ': '
                + only.map((s) => str(s.scenario) + ' · ' + str(s.profile) + ' · ' + str(s.model)).join('; ')));
        }
    }
    $('compare-count').textContent = '(' + beyond + ' beyond noise)';
}
