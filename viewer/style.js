// What each colour means: one meaning per colour, from the Okabe–Ito palette (safe for the common
// colour-vision deficiencies), and the greys. The bars are drawn and the legend is built from this
// one table. Failure is a shape, hatching and a cross, in a colour nothing else uses.

export const STYLE = {
    waitRest: { color: '#b9e0f5', label: 'waiting: queueing, network, client' },
    waitPrompt: { color: '#56b4e9', label: 'waiting: server prompt processing' },
    waitWhole: { color: '#d9d9d9', label: 'waiting, not split: no server timings' },
    cached: { color: '#009e73', label: 'generating, prompt ≥ 90% cached' },
    partCached: { color: '#f0e442', label: 'generating, prompt partly cached' },
    uncached: { color: '#cc79a7', label: 'generating, prompt < 10% cached' },
    noCache: { color: '#999999', label: 'generating, no cache figures' },
    tool: { color: '#e69f00', label: 'tool call' },
    thinTool: { color: '#4d4d4d', label: 'dark cap: a tool call shorter than a pixel, drawn 2 px wide' },
    interval: { color: '#d55e00', label: 'signpost interval' },
    handoff: { color: '#0072b2', label: 'handoff (profile, model, instructions, tools)', shape: 'line' },
    failed: { color: '#000000', label: 'failed request, tool call or interval', shape: 'hatch' },
    finding: { color: '#882255', label: 'touched by a finding (outlined when chosen)', shape: 'diamond' },
    noiseFinding: { color: '#bbbbbb', shape: 'diamond',
        label: 'touched only by findings within noise (they cost next to nothing), whatever the bar says' },
    selected: { color: '#332288', label: 'selected', shape: 'outline' },
    turn: { color: '#555555', shape: 'bracket',
        label: 'a user turn with its total time; under a band, the turns starting in it' },
    band: { color: '#44aa99', label: 'cap of an aggregate band of requests (taller: more; its body coloured by its cache hit, '
        + 'as a generating part; its findings as a count)' },
    bandP95: { color: '#999933', label: 'p95 time to first token of a band: light for the run\'s fastest band, dark for its slowest' },
    instructions: { color: '#dfe6f3', shape: 'bar',
        label: 'instructions and tools: a stretch per profile, model, instructions and tool set, one shade per '
            + 'instructions-and-tools pair, a blue edge where one changed' },
};

/** The shades of the instructions row, one per instructions-and-tools pair of a run, in the order
 *  the pairs first appear (instructions.js CONTEXT_SHADES of them); light, so labels read on them. */
export const CONTEXT_COLORS = ['#dfe6f3', '#f6e3c8', '#d5eee4', '#f1dcea', '#eeecc9', '#d9e9f2'];

export const COLORS = {
    grid: '#eceef1',
    text: '#1d1f23',
    muted: '#6b7078',
    line: '#d9dbe0',
};

/** The style of a generating bar with this cached share of its prompt (null: no cache figures). */
export function cacheStyle(ratio) {
    if (ratio === null) return STYLE.noCache;
    if (ratio >= 0.9) return STYLE.cached;
    return ratio < 0.1 ? STYLE.uncached : STYLE.partCached;
}
