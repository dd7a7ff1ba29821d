// money.js: a run's and each session's dollars, and the cache breaks' tax added to both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheMoneyText, prepareMoney } from '../money.js';

function priced() {
    return [{
        summary: { cost: 0.5, cacheSaved: 0.1, cacheWritePremium: 0 },
        lanes: [
            { key: '1', session: { id: '1', cost: 0.3, cacheSaved: 0.05, cacheWritePremium: 0.01 } },
            { key: '2', session: { id: '2', cost: null, cacheSaved: 0, cacheWritePremium: 0 } },
            { key: '', session: null },
        ],
    }];
}

test('the breaks of a session add their dollars to its tax and its run\'s; other findings do not', () => {
    const runs = priced();
    prepareMoney(runs, [
        { kind: 'cache_break', run: 0, sessionID: '1', dollars: 0.02 },
        { kind: 'chronic_cache_break', run: 0, sessionID: '1', dollars: 0.01 },
        { kind: 'loop', run: 0, sessionID: '1', dollars: 9 },
        { kind: 'cache_break', run: 0, sessionID: '2', dollars: null },
    ]);
    assert.deepEqual(runs[0].money, { cost: 0.5, saved: 0.1, premium: 0, tax: 0.03 });
    assert.deepEqual(runs[0].lanes[0].money, { cost: 0.3, saved: 0.05, premium: 0.01, tax: 0.03 });
    assert.deepEqual(runs[0].lanes[1].money, { cost: null, saved: 0, premium: 0, tax: 0 });
    assert.equal(runs[0].lanes[2].money, null);
    assert.equal(cacheMoneyText(runs[0].lanes[0].money), 'saved $0.0500 · write premium $0.0100 · break tax $0.0300');
    assert.equal(cacheMoneyText(runs[0].money), 'saved $0.1000 · break tax $0.0300');
});

test('without prices there is no money anywhere', () => {
    const runs = [{ summary: { cost: null }, lanes: [{ key: '1', session: { id: '1' } }] }];
    prepareMoney(runs, [{ kind: 'cache_break', run: 0, sessionID: '1', dollars: 0.02 }]);
    assert.equal(runs[0].money, null);
    assert.equal(runs[0].lanes[0].money, null);
});
