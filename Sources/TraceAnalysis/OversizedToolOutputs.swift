import Reproducible
import SessionTrace
import TraceModel

/// Tool results that take a large share of the next prompt.
///
/// A tool's output goes into the prompt of the next request of its session (the next round of
/// its turn), and stays in every prompt after it until the history drops it. A call is a finding
/// when its output is at least `minimumBytes` (8,192: about 2,000 tokens; a smaller result, such as
/// a config file read into a short prompt, is what the user asked for and costs little prefill) and
/// at least `share` (0.5) of that next request's `prompt_bytes`. Outputs larger than the next prompt were not sent whole (a history
/// transform cut them) and are not judged. The cost is the output's share of the inflated
/// request's input tokens, in tokens.
public struct OversizedToolOutputs: Sendable {
    public struct Options: Sendable, Hashable {
        /// The least output, in bytes, that can be a finding.
        public var minimumBytes: Int64 = 8_192
        /// The least share of the next prompt's bytes that makes a finding.
        public var share: Double = 0.5
        public init(minimumBytes: Int64 = 8_192, share: Double = 0.5) {
            self.minimumBytes = minimumBytes
            self.share = share
        }
    }

    public struct Finding: Sendable, Hashable {
        public var runID: Int64
        public var sessionID: Int64?
        public var sessionLabel: String
        public var call: ToolCallRecord
        /// The request whose prompt carried the output first.
        public var inflated: RequestRecord
        /// `output_bytes / prompt_bytes` of the inflated request.
        public var share: Double
        public var runStart: Int64

        /// The output's part of the inflated request's input tokens, estimated by its share of bytes.
        public var estimatedTokens: Int64? {
            inflated.inputTokens.flatMap { Int64(exactly: (Double($0) * share).rounded()) }
        }
    }

    public var path: String
    public var options: Options
    public var findings: [Finding]

    public static func analyze(_ trace: RecordedTrace, options: Options = Options()) -> OversizedToolOutputs {
        var findings: [Finding] = []
        for run in trace.runs {
            let requestsBySession = run.requestsBySession()
            for call in run.toolCalls where call.outputBytes >= options.minimumBytes {
                let end = call.ts &+ call.dur
                guard let requests = requestsBySession[call.sessionID],
                    let next = firstRequest(startingAtOrAfter: end, in: requests),
                    next.promptBytes > 0, call.outputBytes <= next.promptBytes
                else { continue }
                let share = Double(call.outputBytes) / Double(next.promptBytes)
                guard share >= options.share else { continue }
                findings.append(
                    Finding(
                        runID: run.run.runID, sessionID: call.sessionID,
                        sessionLabel: run.sessionLabel(call.sessionID),
                        call: call, inflated: next, share: share, runStart: run.startTime))
            }
        }
        findings.sort { ($0.call.ts, $0.call.toolCallID) < ($1.call.ts, $1.call.toolCallID) }
        return OversizedToolOutputs(path: trace.path, options: options, findings: findings)
    }

    /// The first of `requests` (by start time) that starts at or after `time`, by binary search:
    /// a session may hold many thousands of requests and tool calls.
    private static func firstRequest(
        startingAtOrAfter time: Int64, in requests: [RequestRecord]
    ) -> RequestRecord? {
        var low = 0
        var high = requests.count
        while low < high {
            let middle = low + (high - low) / 2
            if requests[middle].ts < time { low = middle + 1 } else { high = middle }
        }
        return low < requests.count ? requests[low] : nil
    }
}

// MARK: - Output

extension OversizedToolOutputs {

    public var json: OrderedJSON {
        .object([
            ("minimum_bytes", .int(options.minimumBytes)),
            ("share_threshold", .double(options.share)),
            ("findings", .array(findings.map(\.json))),
        ])
    }
}

extension OversizedToolOutputs.Finding {
    public var headline: String {
        "oversized tool output: \(TerminalText.fitted(call.name, width: 40)) returned "
            + "\(Format.count(call.outputBytes)) bytes, \(Format.percent(share)) of the next prompt"
    }

    public var json: OrderedJSON {
        .object([
            ("run_id", .id(runID)),
            ("session_id", .id(sessionID)),
            ("session", .string(sessionLabel)),
            ("tool", .string(call.name)),
            ("tool_call_id", .id(call.toolCallID)),
            ("request_id", .id(call.requestID)),
            ("output_bytes", .int(call.outputBytes)),
            ("inflated_request_id", .id(inflated.requestID)),
            ("inflated_prompt_bytes", .int(inflated.promptBytes)),
            ("share", .double(share)),
            ("estimated_tokens", .int(estimatedTokens)),
        ])
    }
}
