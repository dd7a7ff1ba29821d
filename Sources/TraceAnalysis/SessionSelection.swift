import SessionTrace
import TraceModel

extension RecordedTrace {
    /// The trace with only the sessions whose label, id or short id (``ShortID``) is `wanted`,
    /// and what they recorded; nil when no session matches.
    public func selectingSession(_ wanted: String) -> RecordedTrace? {
        var selected: [RecordedRun] = []
        for run in runs {
            let ids = Set(
                run.sessions.filter { $0.label == wanted || ShortID.matchesRecord($0.sessionID, wanted) }.map(\.sessionID))
            guard !ids.isEmpty else { continue }
            func kept(_ id: Int64?) -> Bool { id.map(ids.contains) ?? false }
            let requests = run.requests.filter { kept($0.sessionID) }
            let calls = run.toolCalls.filter { kept($0.sessionID) }
            let parents = Set(requests.map(\.requestID)).union(calls.map(\.toolCallID))
            let intervals = run.intervals.filter { kept($0.sessionID) }
            let instantParents = parents.union(ids).union(intervals.map(\.intervalID))
            selected.append(
                RecordedRun(
                    run: run.run, hasRunRecord: run.hasRunRecord,
                    // Only recorded sessions: one made up for ids that requests name is made again.
                    sessions: run.sessions.filter {
                        ids.contains($0.sessionID) && run.recordedSessionIDs.contains($0.sessionID)
                    },
                    requests: requests, toolCalls: calls,
                    handoffs: run.handoffs.filter { kept($0.sessionID) },
                    intervals: intervals,
                    instants: run.instants.filter { $0.parentID.map(instantParents.contains) ?? false },
                    chunks: run.chunks.filter { parents.contains($0.requestID) },
                    payloads: run.payloads.filter { $0.parentID.map(parents.contains) ?? false },
                    dropped: run.dropped))
        }
        return selected.isEmpty ? nil : keeping(selected)
    }

    /// The trace with only the runs whose label, id or short id (``ShortID``) is `wanted`, as
    /// ``selectingSession(_:)`` takes a session's; nil when none matches.
    public func selectingRun(_ wanted: String) -> RecordedTrace? {
        let selected = runs.filter { $0.run.label == wanted || ShortID.matchesRun($0.run.runID, wanted) }
        return selected.isEmpty ? nil : keeping(selected)
    }

    /// The trace with `runs` in place of its own, and the notes on those runs alone.
    private func keeping(_ runs: [RecordedRun]) -> RecordedTrace {
        let kept = Set(runs.map(\.run.runID))
        var trace = self
        trace.runs = runs
        trace.unclosedRuns = unclosedRuns.filter { kept.contains($0.runID) }
        return trace
    }
}
