import Reproducible
import SessionTrace
import TraceModel

/// Requests whose slow first token the prompt does not explain: the part of the wait beyond the
/// server's own prompt processing (``TTFTSplit/rest``) is far above what the run's fast requests
/// waited besides their prompt. That time went to queueing at a busy server, a slow network or
/// a stalled client, not to a longer or uncached prompt, which the prompt part would show.
///
/// The run's usual rest is the lower quartile (nearest-rank p25) of the rest over its requests
/// with server timings. A request's rest is unexplained when it
/// - is at least ``Options/factor`` times the usual rest,
/// - exceeds it by at least ``Options/minimumExcess``, and
/// - is more than half of its time to first token.
///
/// A session's unexplained waits are one finding, and their cost is their excess over the usual
/// rest. Requests whose server reported no timings are not checked, and counted as such. The
/// rule is relative to the run: in a run where most requests queue, queueing is the usual rest;
/// compare such a run with another through `trace-report diff`.
public struct UnexplainedWaits: Sendable {
    /// When a rest counts as unexplained.
    public struct Options: Sendable, Hashable {
        /// How many times the usual rest a request's rest must be.
        public var factor: Double
        /// How far, in nanoseconds, a request's rest must exceed the usual rest.
        public var minimumExcess: Int64

        /// The thresholds: by default 3 times the usual rest, and at least 250 ms more.
        public init(factor: Double = 3, minimumExcess: Int64 = 250_000_000) {
            self.factor = factor
            self.minimumExcess = minimumExcess
        }
    }

    /// One request whose rest is unexplained.
    public struct Wait: Sendable, Hashable {
        public var request: RequestRecord
        public var split: TTFTSplit
        /// The rest beyond the run's usual rest, in nanoseconds.
        public var excess: Int64
    }

    /// A session's unexplained waits.
    public struct Finding: Sendable, Hashable {
        public var runID: Int64
        public var sessionID: Int64?
        public var sessionLabel: String
        /// The run's usual rest, in nanoseconds (see ``UnexplainedWaits``).
        public var usualRest: Int64
        /// The waits, by start time.
        public var waits: [Wait]

        /// The waits' excess over the usual rest, summed.
        public var excess: Int64 { waits.reduce(0) { $0.saturatingAdd($1.excess) } }
    }

    public var path: String
    public var options: Options
    /// Requests with a time to first token and server timings: the ones checked.
    public var checkedRequests: Int
    /// Requests with a time to first token whose server reported no timings: not checked.
    public var uncheckedRequests: Int
    public var findings: [Finding]

    public static func analyze(_ trace: RecordedTrace, options: Options = Options()) -> UnexplainedWaits {
        var checked = 0
        var unchecked = 0
        var findings: [Finding] = []
        for run in trace.runs {
            let splits = run.requests.compactMap { request in TTFTSplit(request).map { (request, $0) } }
            checked += splits.count
            unchecked += run.requests.count { $0.timeToFirstToken != nil } - splits.count
            guard !splits.isEmpty else { continue }
            var rests = splits.map(\.1.rest)
            let usual = Percentile.select(&rests, rank: Percentile.rank(25, count: rests.count))
            let waits = splits.compactMap { request, split -> Wait? in
                let excess = split.rest - usual
                guard Double(split.rest) >= options.factor * Double(usual), excess >= options.minimumExcess,
                      split.rest > split.ttft / 2
                else { return nil }
                return Wait(request: request, split: split, excess: excess)
            }
            let bySession = Dictionary(grouping: waits) { $0.request.sessionID }
            for (sessionID, waits) in bySession {
                findings.append(
                    Finding(
                        runID: run.run.runID, sessionID: sessionID, sessionLabel: run.sessionLabel(sessionID),
                        usualRest: usual,
                        waits: waits.sorted { ($0.request.ts, $0.request.requestID) < ($1.request.ts, $1.request.requestID) }))
            }
        }
        findings.sort { ($0.waits[0].request.ts, $0.runID) < ($1.waits[0].request.ts, $1.runID) }
        return UnexplainedWaits(
            path: trace.path, options: options, checkedRequests: checked, uncheckedRequests: unchecked,
            findings: findings)
    }
}

// MARK: - Output

extension UnexplainedWaits {

    public var json: OrderedJSON {
        .object([
            ("checked_requests", .int(Int64(checkedRequests))),
            ("unchecked_requests", .int(Int64(uncheckedRequests))),
            ("factor", .double(options.factor)),
            ("minimum_excess_ns", .int(options.minimumExcess)),
            ("findings", .array(findings.map(\.json))),
        ])
    }
}

extension UnexplainedWaits.Finding {
    /// One line: how many requests, and how much longer than usual they waited besides the prompt.
    public var headline: String {
        "first token not explained by the prompt: \(waits.count) request" + (waits.count == 1 ? "" : "s")
            + " of session \(TerminalText.fitted(sessionLabel, width: 40)) waited \(Format.duration(excess))"
            + " more than the usual \(Format.duration(usualRest)) besides the server's prompt processing"
    }

    public var json: OrderedJSON {
        .object([
            ("run_id", .id(runID)),
            ("session_id", .id(sessionID)),
            ("session", .string(sessionLabel)),
            ("usual_rest_ns", .int(usualRest)),
            ("excess_ns", .int(excess)),
            (
                "requests",
                .array(
                    waits.map { wait in
                        .object([
                            ("request_id", .id(wait.request.requestID)),
                            ("ttft_ns", .int(wait.split.ttft)),
                            ("server_prompt_ns", .int(wait.split.prompt)),
                            ("rest_ns", .int(wait.split.rest)),
                            ("excess_ns", .int(wait.excess)),
                        ])
                    })
            ),
        ])
    }
}
