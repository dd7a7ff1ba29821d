import Reproducible
import SessionTrace
import TraceModel

/// Answers cut off by the response-token cap: requests that finished with `length` (OpenAI,
/// llama.cpp), `max_tokens` (Anthropic) or `max_output_tokens`.
///
/// One finding per session and cap: how many of the session's requests under that cap hit it.
/// The cap is the request's recorded `max_tokens` (schema 2); older stores do not record it,
/// and the finding then gives the output tokens at the cut. A cut answer is either too long for
/// what the app needs or capped too tightly to finish; either way its tokens were generated for
/// an answer that did not end. Cost: the generation time (from the first token to the end) and
/// the output tokens of the cut answers.
public struct CappedAnswers: Sendable {
    /// Finish reasons that mean the token cap ended the answer, lowercased.
    public static let capFinishReasons: Set<String> = ["length", "max_tokens", "max_output_tokens"]

    public struct Finding: Sendable, Hashable {
        public var runID: Int64
        public var sessionID: Int64?
        public var sessionLabel: String
        /// The cap the requests asked for, in tokens; nil when the store does not record it.
        public var cap: Int64?
        /// The requests that hit the cap, by start time.
        public var capped: [RequestRecord]
        /// Requests of the session sent under the same cap (recorded or not).
        public var requestsUnderCap: Int
        public var runStart: Int64

        /// Output tokens of the cut answers; nil when none reported them.
        public var outputTokens: Int64? {
            let known = capped.compactMap(\.outputTokens)
            return known.isEmpty ? nil : known.reduce(0, &+)
        }

        /// Time the cut answers spent generating: from the first token to the end.
        public var generationTime: Int64 {
            capped.reduce(0) { $0 &+ max(0, $1.dur &- ($1.timeToFirstToken ?? 0)) }
        }
    }

    public var path: String
    public var findings: [Finding]
    public var requestCount: Int

    /// Whether `request` ended at its token cap.
    static func hitCap(_ request: RequestRecord) -> Bool {
        request.finishReason.map { capFinishReasons.contains($0.lowercased()) } ?? false
    }

    public static func analyze(_ trace: RecordedTrace) -> CappedAnswers {
        var findings: [Finding] = []
        for run in trace.runs {
            // Requests are counted by session and cap; only those that hit the cap are kept.
            var counts: [SessionCap: Int] = [:]
            var cappedByKey: [SessionCap: [RequestRecord]] = [:]
            for request in run.requests {
                let key = SessionCap(sessionID: request.sessionID, cap: request.maxTokens)
                counts[key, default: 0] += 1
                if hitCap(request) { cappedByKey[key, default: []].append(request) }
            }
            for (key, unsorted) in cappedByKey {
                let capped = unsorted.sorted { ($0.ts, $0.requestID) < ($1.ts, $1.requestID) }
                findings.append(
                    Finding(
                        runID: run.run.runID, sessionID: key.sessionID,
                        sessionLabel: run.sessionLabel(key.sessionID),
                        cap: key.cap, capped: capped, requestsUnderCap: counts[key]!,
                        runStart: run.startTime))
            }
        }
        findings.sort {
            ($0.capped[0].ts, $0.capped[0].requestID) < ($1.capped[0].ts, $1.capped[0].requestID)
        }
        return CappedAnswers(path: trace.path, findings: findings, requestCount: trace.requestCount)
    }

    private struct SessionCap: Hashable {
        var sessionID: Int64?
        var cap: Int64?
    }
}

// MARK: - Output

extension CappedAnswers {

    public var json: OrderedJSON {
        .object([
            ("store", .string(path)),
            ("requests", .int(Int64(requestCount))),
            ("findings", .array(findings.map(\.json))),
        ])
    }
}

extension CappedAnswers.Finding {
    /// One line on the cap and how often it was hit.
    public var headline: String {
        let limit = cap.map { "the \(Format.count($0))-token cap" } ?? "the token cap (not recorded)"
        var line =
            "capped answers: \(capped.count) of \(requestsUnderCap) requests of session "
            + "\(TerminalText.fitted(sessionLabel, width: 40)) hit \(limit)"
        if cap == nil, let most = capped.compactMap(\.outputTokens).max() {
            line += ", cut at up to \(Format.count(most)) output tokens"
        }
        return line
    }

    public var json: OrderedJSON {
        .object([
            ("run_id", .id(runID)),
            ("session_id", .id(sessionID)),
            ("session", .string(sessionLabel)),
            ("cap", .int(cap)),
            ("hits", .int(Int64(capped.count))),
            ("requests_under_cap", .int(Int64(requestsUnderCap))),
            ("request_ids", .array(capped.map { .id($0.requestID) })),
            ("finish_reasons", .array(capped.map { .string($0.finishReason) })),
            ("output_tokens", .array(capped.map { .int($0.outputTokens) })),
            ("generation_time_ns", .int(generationTime)),
            ("cut_output_tokens", .int(outputTokens)),
        ])
    }
}
