// Money, when the export was given a price file: per run and per session, what the requests cost,
// what the cache saved and what writing it cost above the input price (figures of the export), and
// the tax of the cache breaks (the dollars of the cache_break and chronic_cache_break findings).
// Pure: sets `money` on prepared runs and lanes (null without prices).

import { formatDollars, num, str } from './format.js';

const BREAKS = ['cache_break', 'chronic_cache_break'];

function moneyOf(figures) {
    if (!figures || (num(figures.cost) === null && num(figures.cacheSaved) === null)) return null;
    return { cost: num(figures.cost), saved: num(figures.cacheSaved) || 0,
        premium: num(figures.cacheWritePremium) || 0, tax: 0 };
}

/** Sets `money` on each run (from its summary) and each session's lane (from its session), and
 *  adds each priced cache break's dollars to the tax of its run and session. */
export function prepareMoney(runs, findings) {
    for (const run of runs) {
        run.money = moneyOf(run.summary);
        for (const l of run.lanes) l.money = moneyOf(l.session);
    }
    for (const finding of findings) {
        const dollars = num(finding.dollars);
        const run = runs[num(finding.run)];
        if (!BREAKS.includes(str(finding.kind)) || dollars === null || !run || !run.money) continue;
        run.money.tax += dollars;
        const lane = run.lanes.find((l) => l.key !== '' && l.key === str(finding.sessionID));
        if (lane && lane.money) lane.money.tax += dollars;
    }
}

/** The cache's dollars in a line: saved, the write premium where there was one, the breaks' tax. */
export function cacheMoneyText(money) {
    return 'saved ' + formatDollars(money.saved)
        + (money.premium > 0 ? ' · write premium ' + formatDollars(money.premium) : '')
        + ' · break tax ' + formatDollars(money.tax);
}
