/// What a scenario's requests are grouped by.
public enum ScenarioGrouping: String, Sendable, CaseIterable {
    /// The run's label (`planner-demo --label`); `(no label)` without one.
    case label
    /// The name of the innermost app interval enclosing the request (`PlanTurn`); `(no interval)`.
    case interval
}

/// A group's identity: scenario (label or interval name), profile and model.
public struct ScenarioKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var scenario: String
    public var profile: String
    public var model: String

    public init(scenario: String, profile: String, model: String) {
        self.scenario = scenario
        self.profile = profile
        self.model = model
    }

    public var description: String { "\(scenario) / \(profile) / \(model)" }

    public static func < (lhs: ScenarioKey, rhs: ScenarioKey) -> Bool {
        (lhs.scenario, lhs.profile, lhs.model) < (rhs.scenario, rhs.profile, rhs.model)
    }
}

/// A repeated-tool-call finding, by what stays the same from run to run: kind, session, tool.
public struct RepeatedCall: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var kind: String
    public var session: String
    public var tool: String

    /// The finding of `kind` (`repeat`, `loop`) for `tool` in the session labelled `session`.
    public init(kind: String, session: String, tool: String) {
        self.kind = kind
        self.session = session
        self.tool = tool
    }

    public var description: String { "\(kind) \(tool) in \(session)" }

    public static func < (lhs: RepeatedCall, rhs: RepeatedCall) -> Bool {
        (lhs.kind, lhs.session, lhs.tool) < (rhs.kind, rhs.session, rhs.tool)
    }
}

/// Per-request samples of one scenario, kept per run so resampling can respect that requests of
/// one run share its machine's load.
public struct ScenarioSamples: Sendable, Hashable {
    public struct Run: Sendable, Hashable {
        /// The run's id, or 0 for a baseline's run whose id was not kept.
        public var runID: Int64
        public var requests: [RequestSample]
        /// The machine's speed during the run: the median over all the run's requests (of every
        /// scenario) of the server's generation time per token (`server_predicted_dur /
        /// server_predicted_tokens`), in ns; nil when the server reported no timings.
        public var serverNanosPerToken: Double? = nil
    }

    public var key: ScenarioKey
    public var runs: [Run]
    /// Repeated-tool-call findings among the group's requests (``ToolFindings``).
    public var repeatedCalls: [RepeatedCall]

    /// Every request of every run.
    public var requests: [RequestSample] { runs.flatMap(\.requests) }
    public var requestCount: Int { runs.reduce(0) { $0 + $1.requests.count } }
}
