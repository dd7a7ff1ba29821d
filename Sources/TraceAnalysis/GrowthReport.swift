import Reproducible
import SessionTrace
import TraceModel

/// How prompts grow across each session: transcript entries, prompt bytes and input tokens per
/// request, the largest prompts, and each prompt's share of the context window.
///
/// A session is a finding when one of its prompts reaches `warnShare` (75%) of the context
/// window: the next turns will soon be truncated or fail. Shares need `input_tokens`; requests
/// that did not report them have no share.
public struct GrowthReport: Sendable {
    public struct Options: Sendable, Hashable {
        /// The model's context window, in tokens.
        public var contextWindow: Int64 = 8192
        /// Share of the window at which a session is flagged.
        public var warnShare: Double = 0.75
        /// Largest prompts listed.
        public var top: Int = 5
        public init(contextWindow: Int64 = 8192, warnShare: Double = 0.75, top: Int = 5) {
            self.contextWindow = contextWindow
            self.warnShare = warnShare
            self.top = top
        }
    }

    public struct SessionGrowth: Sendable, Hashable {
        public var runID: Int64
        public var sessionID: Int64?
        public var label: String
        /// The session's requests, by start time.
        public var requests: [RequestRecord]
        /// The largest share of the context window any prompt of the session took.
        public var peakShare: Double?
        /// The first request at or above the warning share, when the session is a finding.
        public var firstOverWarning: RequestRecord?

        /// The request with the largest prompt, by input tokens (the first of equals).
        public var largest: RequestRecord? { requests.max { ($0.inputTokens ?? 0) < ($1.inputTokens ?? 0) } }
    }

    public struct Prompt: Sendable, Hashable {
        public var runID: Int64
        public var sessionLabel: String
        public var request: RequestRecord
        public var share: Double?
    }

    public var path: String
    public var options: Options
    public var sessions: [SessionGrowth]
    /// The largest prompts, by input tokens (prompt bytes where tokens are unknown).
    public var largest: [Prompt]
    /// Sessions that reached the warning share.
    public var findings: [SessionGrowth] { sessions.filter { $0.firstOverWarning != nil } }

    public func share(_ request: RequestRecord) -> Double? {
        guard let tokens = request.inputTokens, options.contextWindow > 0 else { return nil }
        return Double(tokens) / Double(options.contextWindow)
    }

    public static func analyze(_ trace: RecordedTrace, options: Options = Options()) -> GrowthReport {
        var report = GrowthReport(path: trace.path, options: options, sessions: [], largest: [])
        // Every request is a candidate for the largest prompts: its session's place in
        // `report.sessions` and its position there, sorted instead of the records themselves.
        var candidates: [(session: Int, position: Int)] = []
        for run in trace.runs {
            for (sessionID, requests) in run.requestsBySession() {
                let shares = requests.map { report.share($0) }
                let first = zip(requests, shares).first { ($0.1 ?? 0) >= options.warnShare }?.0
                report.sessions.append(
                    SessionGrowth(
                        runID: run.run.runID, sessionID: sessionID, label: run.sessionLabel(sessionID),
                        requests: requests, peakShare: shares.compactMap { $0 }.max(), firstOverWarning: first))
                candidates += requests.indices.map { (report.sessions.count - 1, $0) }
            }
        }
        let sessions = report.sessions
        func request(_ candidate: (session: Int, position: Int)) -> RequestRecord {
            sessions[candidate.session].requests[candidate.position]
        }
        candidates.sort {
            let (left, right) = (request($0), request($1))
            return (left.inputTokens ?? -1, left.promptBytes, right.requestID)
                > (right.inputTokens ?? -1, right.promptBytes, left.requestID)
        }
        report.largest = candidates.prefix(options.top).map { candidate in
            let session = sessions[candidate.session]
            let request = request(candidate)
            return Prompt(
                runID: session.runID, sessionLabel: session.label, request: request,
                share: report.share(request))
        }
        report.sessions.sort {
            ($0.requests[0].ts, $0.sessionID ?? -1) < ($1.requests[0].ts, $1.sessionID ?? -1)
        }
        return report
    }
}

// MARK: - Output

extension GrowthReport {

    public var json: OrderedJSON {
        func promptJSON(_ request: RequestRecord) -> OrderedJSON {
            .object([
                ("request_id", .id(request.requestID)),
                ("ts", .int(request.ts)),
                ("transcript_entries", .int(request.transcriptEntries)),
                ("prompt_bytes", .int(request.promptBytes)),
                ("input_tokens", .int(request.inputTokens)),
                ("share", .double(share(request))),
            ])
        }
        return .object([
            ("store", .string(path)),
            ("context_window", .int(options.contextWindow)),
            ("warn_share", .double(options.warnShare)),
            ("sessions", .array(sessions.map { session in
                guard case .object(let members) = sessionJSON(session) else { return .null }
                return .object(members + [("requests", .array(session.requests.map(promptJSON)))])
            })),
            ("largest", .array(largest.map { prompt in
                .object([("run_id", .id(prompt.runID)), ("session", .string(prompt.sessionLabel)),
                         ("prompt", promptJSON(prompt.request))])
            })),
            ("findings", .array(findings.map(sessionJSON))),
        ])
    }

    /// A session's growth without its requests, as `--json` lists a finding.
    func sessionJSON(_ session: SessionGrowth) -> OrderedJSON {
        .object([
            ("run_id", .id(session.runID)),
            ("session_id", .id(session.sessionID)),
            ("session", .string(session.label)),
            ("peak_share", .double(session.peakShare)),
            ("first_over_warning_request_id", .id(session.firstOverWarning?.requestID)),
            ("largest_request_id", .id(session.largest?.requestID)),
        ])
    }
}
