// A small viewer export (docs/viewer-data.md) for the node tests: one run, a session "planner"
// with two requests (the second with another model and tool set), two tool calls (one failed), a
// handoff, a nested pair of intervals and one turn; a request outside any session; and a finding about the first request.
export function smallExport() {
    return {
        version: 1,
        runs: [{
            runID: '7', label: 'small', host: 'box',
            sessions: [{ id: '1', label: 'planner', ts: 0, dur: 4_000_000_000 }],
            requests: [
                { id: '11', sessionID: '1', ts: 1_400_000_000, dur: 1_100_000_000, ttft: 380_000_000,
                    model: 'smollm2-360m', inputTokens: 900, cachedInputTokens: 0, outputTokens: 41,
                    instructions: 'a1b2c3d4e5f60718', tools: '99aa88bb77cc66dd' },
                { id: '10', sessionID: '1', ts: 10_000_000, dur: 900_000_000, ttft: 123_000_000,
                    model: 'smollm2-135m', inputTokens: 1234, cachedInputTokens: 1000, outputTokens: 41,
                    server: { promptDur: 100_000_000 }, instructions: 'a1b2c3d4e5f60718', tools: '0f1e2d3c4b5a6978' },
                { id: '20', ts: 3_000_000_000, dur: 500_000_000, ttft: 70_000_000, model: 'smollm2-135m',
                    inputTokens: 400, cachedInputTokens: 300, outputTokens: 41, error: 'timeout' },
            ],
            toolCalls: [
                { id: '12', requestID: '10', ts: 930_000_000, dur: 140_000_000, name: 'searchNotes', outcome: 'ok' },
                { id: '13', requestID: '10', ts: 1_080_000_000, dur: 150_000_000, name: 'getCalendar',
                    outcome: 'error' },
            ],
            handoffs: [{ id: '14', sessionID: '1', ts: 1_300_000_000, kind: 'model', from: 'smollm2-135m',
                to: 'smollm2-360m' }],
            intervals: [
                { id: '15', sessionID: '1', ts: 5_000_000, dur: 2_595_000_000, name: 'PlanDay' },
                { id: '16', sessionID: '1', ts: 20_000_000, dur: 100_000_000, name: 'Inner' },
            ],
            turns: [{ turnID: 't1', requestIDs: ['10', '11'] }],
        }],
        findings: [{ kind: 'repeated_tool_call', title: 'one', run: 0, eventIDs: ['10', '10', 'missing'] }],
    };
}
