import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel

/// A finding a scenario store must yield, located as a reader would: the session's label, and
/// its requests and tool calls by their position in the session (from 0, by start time).
struct ExpectedFinding: Hashable, Comparable, Sendable, CustomStringConvertible {
    var kind: Finding.Kind
    var session: String
    var requests: [Int]
    var calls: [Int]
    /// What else must match: a loop's cycle or a repeat's tool (`a → b`), a cache break's causes
    /// (`model_switch+profile_switch`), a capped answer's cap (`cap 12`, `cap ?`), an oversized
    /// output's tool; empty for prompt growth.
    var detail: String

    var description: String {
        "\(kind.rawValue) \(session) requests \(requests) calls \(calls) \(detail)"
    }

    init(kind: Finding.Kind, session: String, requests: [Int], calls: [Int], detail: String) {
        self.kind = kind
        self.session = session
        self.requests = requests
        self.calls = calls
        self.detail = detail
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }

    static func loop(_ session: String, requests: [Int], calls: [Int], _ pattern: String) -> Self {
        Self(kind: .loop, session: session, requests: requests, calls: calls, detail: pattern)
    }

    static func polling(_ session: String, requests: [Int], calls: [Int], _ tool: String) -> Self {
        Self(kind: .polling, session: session, requests: requests, calls: calls, detail: tool)
    }

    static func identical(_ session: String, requests: [Int], calls: [Int], _ tool: String) -> Self {
        Self(kind: .identicalArguments, session: session, requests: requests, calls: calls, detail: tool)
    }

    static func nearIdentical(_ session: String, requests: [Int], calls: [Int], _ tool: String) -> Self
    {
        Self(kind: .nearIdenticalArguments, session: session, requests: requests, calls: calls, detail: tool)
    }

    static func cacheBreak(_ session: String, request: Int, _ causes: String) -> Self {
        Self(kind: .cacheBreak, session: session, requests: [request], calls: [], detail: causes)
    }

    /// `detail`: the segment's cause and the shapes of its changes, `instructions_changed timestamp`.
    static func chronic(_ session: String, requests: [Int], _ detail: String) -> Self {
        Self(kind: .chronicCacheBreak, session: session, requests: requests, calls: [], detail: detail)
    }

    static func capped(_ session: String, requests: [Int], cap: Int?) -> Self {
        Self(
            kind: .cappedAnswer, session: session, requests: requests, calls: [],
            detail: "cap " + (cap.map(String.init) ?? "?"))
    }

    /// `requests`: the one that asked for the call, then the one whose prompt it inflated.
    static func oversized(_ session: String, requests: [Int], call: Int, _ tool: String) -> Self {
        Self(kind: .oversizedToolOutput, session: session, requests: requests, calls: [call], detail: tool)
    }

    static func growth(_ session: String, requests: [Int]) -> Self {
        Self(kind: .promptGrowth, session: session, requests: requests, calls: [], detail: "")
    }

    static func unexplainedTTFT(_ session: String, requests: [Int]) -> Self {
        Self(kind: .unexplainedTTFT, session: session, requests: requests, calls: [], detail: "")
    }

    /// `finding` located the same way, against the trace it came from.
    init(_ finding: Finding, in trace: RecordedTrace) {
        let run = trace.runs.first { $0.run.runID == finding.runID }
        let requests = (run?.requests ?? []).filter { $0.sessionID == finding.sessionID }
            .sorted { ($0.ts, $0.requestID) < ($1.ts, $1.requestID) }.map(\.requestID)
        let calls = (run?.toolCalls ?? []).filter { $0.sessionID == finding.sessionID }
            .sorted { ($0.ts, $0.toolCallID) < ($1.ts, $1.toolCallID) }.map(\.toolCallID)
        kind = finding.kind
        session = finding.sessionLabel
        self.requests = finding.requestIDs.map { requests.firstIndex(of: $0) ?? -1 }
        self.calls = finding.toolCallIDs.map { calls.firstIndex(of: $0) ?? -1 }
        switch finding.kind {
        case .loop, .polling: detail = Self.strings(finding.evidence["pattern"]).joined(separator: " → ")
        case .identicalArguments, .nearIdenticalArguments, .oversizedToolOutput:
            detail = Self.strings(finding.evidence["tool"]).joined()
        case .cacheBreak: detail = Self.strings(finding.evidence["causes"]).joined(separator: "+")
        case .chronicCacheBreak:
            detail = (Self.strings(finding.evidence["cause"]) + Self.strings(finding.evidence["shapes"]))
                .joined(separator: " ")
        case .cappedAnswer:
            if case .int(let cap)? = finding.evidence["cap"] {
                detail = "cap \(cap)"
            } else {
                detail = "cap ?"
            }
        case .promptGrowth, .unexplainedTTFT: detail = ""
        }
    }

    private static func strings(_ value: OrderedJSON?) -> [String] {
        switch value {
        case .string(let text)?: [text]
        case .array(let values)?: values.flatMap { strings($0) }
        default: []
        }
    }
}
