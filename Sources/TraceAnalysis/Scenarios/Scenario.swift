import SessionTrace
import Synchronization
import TraceStore

#if canImport(Glibc)
import Glibc
#endif

/// The scenario stores checked in under `tracefiles/scenarios`: small recorded runs, each built to
/// show one problem and nothing else, so the tests can require exactly their findings.
///
/// They are written through the real `Tracer` and `StoreSink` with a scripted clock: the same rows
/// a traced program would write, at times chosen to read well in a timeline. All text in them is
/// made up; none came from a model or a person.
public enum Scenario: String, Sendable, CaseIterable {
    /// One request calls `searchNotes` three times with `launch`, `launch prep`, `launch tasks`.
    case toolLoop = "tool-loop"
    /// A session whose prompt grows with every tool result until it nears the context window.
    case promptBloat = "prompt-bloat"
    /// A chat whose history is trimmed to a rolling window, breaking the cached prefix every turn.
    case rollingWindow = "rolling-window"
    /// A session switches model and profile mid-way, breaking the cached prefix once.
    case modelSwitch = "model-switch"

    public var fileName: String { rawValue + ".sqlite" }

    public var summary: String {
        switch self {
        case .toolLoop: "a tool-call loop with near-identical queries (launch, launch prep, launch tasks)"
        case .promptBloat: "tool results pile up until the prompt takes 88% of an 8,192-token window"
        case .rollingWindow: "a rolling window drops history from the front: six cold prefixes"
        case .modelSwitch: "a model and profile handoff breaks the prefix once"
        }
    }

    /// What `trace-report` must find, as short strings: tools `kind tool×calls`, cache causes per
    /// finding, growth sessions.
    public var expectedToolFindings: [String] {
        switch self {
        case .toolLoop: ["loop searchNotes×3", "near_identical_arguments searchNotes×3"]
        default: []
        }
    }

    public var expectedCacheCauses: [[CacheFindings.Cause]] {
        switch self {
        case .rollingWindow: Array(repeating: [.historyTransform], count: 6)
        case .modelSwitch: [[.modelSwitch, .profileSwitch]]
        default: []
        }
    }

    public var expectedGrowthSessions: [String] {
        switch self {
        case .promptBloat: ["researcher"]
        default: []
        }
    }

    /// Writes the scenario's store at `path`, replacing a file there.
    public func write(to path: String) throws(StoreError) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let recorder = try ScenarioRecorder(path: path, label: rawValue, capturePayloads: self != .promptBloat)
        switch self {
        case .toolLoop: Self.toolLoop(recorder)
        case .promptBloat: Self.promptBloat(recorder)
        case .rollingWindow: Self.rollingWindow(recorder)
        case .modelSwitch: Self.modelSwitch(recorder)
        }
        recorder.close()
    }

    // MARK: - The scenarios (times in milliseconds after the run's start)

    private static func toolLoop(_ r: ScenarioRecorder) {
        let planner = r.beginSession(at: 0)
        let first = r.request(
            session: planner, at: 10, dur: 900, ttft: 120, input: 420, cached: 0, output: 40, entries: 2,
            reused: 0, finish: "tool_calls")
        r.toolCall(request: first, session: planner, at: 930, dur: 140, name: "searchNotes", arguments: #"{"query":"launch"}"#)
        r.toolCall(
            request: first, session: planner, at: 1_080, dur: 150, name: "searchNotes", arguments: #"{"query":"launch prep"}"#)
        r.toolCall(
            request: first, session: planner, at: 1_240, dur: 160, name: "searchNotes",
            arguments: #"{"query":"launch tasks"}"#)
        r.request(
            session: planner, at: 1_420, dur: 1_100, ttft: 90, input: 610, cached: 400, output: 60, entries: 6,
            reused: 2, finish: "stop")
        r.endSession(planner, label: "planner", at: 2_540)

        let writer = r.beginSession(at: 2_600)
        let draft = r.request(
            session: writer, at: 2_610, dur: 700, ttft: 100, input: 300, cached: 0, output: 30, entries: 2,
            reused: 0, finish: "tool_calls")
        r.toolCall(
            request: draft, session: writer, at: 3_320, dur: 80, name: "getCalendar", arguments: #"{"day":"2026-06-02"}"#)
        r.request(
            session: writer, at: 3_410, dur: 800, ttft: 80, input: 380, cached: 290, output: 45, entries: 4,
            reused: 2, finish: "stop")
        r.endSession(writer, label: "writer", at: 4_220)
    }

    private static func promptBloat(_ r: ScenarioRecorder) {
        let session = r.beginSession(at: 0)
        let topics = ["solar panels", "heat pumps", "battery storage", "wind turbines", "district heating",
                      "grid tariffs", "insulation grants", "smart meters"]
        var at: Int64 = 10
        for (turn, topic) in topics.enumerated() {
            let turn = Int64(turn)
            let input = 380 + 970 * turn
            let ttft = 60 + 15 * turn
            let dur = ttft + 700
            let request = r.request(
                session: session, at: at, dur: dur, ttft: ttft, input: input, cached: turn == 0 ? 0 : input - 970,
                output: 36, entries: 2 + 2 * turn, reused: turn == 0 ? 0 : 2 * turn, finish: "tool_calls",
                promptBytes: input * 4)
            r.toolCall(
                request: request, session: session, at: at + dur + 10, dur: 200, name: "fetchPage",
                arguments: #"{"topic":"\#(topic)"}"#, outputBytes: 3_880)
            at += dur + 260
        }
        r.endSession(session, label: "researcher", at: at)
    }

    private static func rollingWindow(_ r: ScenarioRecorder) {
        let session = r.beginSession(at: 0)
        let window: Int64 = 8
        var at: Int64 = 10
        var previousEntries: Int64 = 0
        var previousInput: Int64 = 0
        for turn in Int64(0)..<10 {
            let grown = 2 + 2 * turn
            let entries = min(grown, window)
            let trimmed = grown > window
            let input = 120 + 230 * (entries - 1)
            let cached = turn == 0 ? 0 : trimmed ? 120 : previousInput
            let ttft: Int64 = trimmed ? 410 : 70 + 5 * turn
            r.request(
                session: session, at: at, dur: ttft + 600, ttft: ttft, input: input, cached: cached, output: 48,
                entries: entries, reused: turn == 0 ? 0 : trimmed ? 1 : previousEntries, finish: "stop")
            previousEntries = entries
            previousInput = input
            at += ttft + 600 + 400
        }
        r.endSession(session, label: "chat", at: at)
    }

    private static func modelSwitch(_ r: ScenarioRecorder) {
        let session = r.beginSession(at: 0)
        r.request(session: session, at: 10, dur: 700, ttft: 110, input: 350, cached: 0, output: 40, entries: 2,
                  reused: 0, finish: "stop")
        r.request(session: session, at: 1_000, dur: 720, ttft: 80, input: 560, cached: 350, output: 42, entries: 4,
                  reused: 2, finish: "stop")
        r.handoff(session: session, at: 1_900, kind: "model", from: "smollm2-135m", to: "smollm2-360m")
        r.handoff(session: session, at: 1_900, kind: "profile", from: "economy", to: "quality")
        r.request(session: session, at: 2_000, dur: 1_400, ttft: 380, input: 780, cached: 0, output: 60, entries: 6,
                  reused: 0, finish: "stop", profile: "quality", model: "smollm2-360m")
        r.request(session: session, at: 3_700, dur: 1_300, ttft: 150, input: 990, cached: 780, output: 55, entries: 8,
                  reused: 6, finish: "stop", profile: "quality", model: "smollm2-360m")
        r.endSession(session, label: "planner", at: 5_100)
    }
}

/// A clock the scenario sets by hand, so every `ts` is chosen, not measured.
final class ScriptedClock: TraceClock {
    private let time: Mutex<Int64>
    init(_ start: Int64) { time = Mutex(start) }
    func now() -> Int64 { time.withLock { $0 } }
    func wallClockNow() -> Int64 { 1_780_000_000_000_000_000 }
    func set(_ value: Int64) { time.withLock { $0 = value } }
}

/// Records a scenario's events through a real tracer into a real store.
final class ScenarioRecorder {
    /// Monotonic time of the run's start: an arbitrary, realistic uptime of 1000 s.
    static let origin: Int64 = 1_000_000_000_000
    let clock = ScriptedClock(ScenarioRecorder.origin)
    let sink: StoreSink
    let tracer: Tracer
    private var sessionStarts: [Int64: Int64] = [:]

    init(path: String, label: String, capturePayloads: Bool) throws(StoreError) {
        sink = try StoreSink(path: path)
        // The scenario's text is made up, so redaction has nothing to remove; it is on only so
        // that the tracer captures payloads, which near-identical detection needs.
        var keepText: (@Sendable (String) -> String)?
        if capturePayloads { keepText = { text in text } }
        tracer = Tracer(
            sink: sink, clock: clock, label: label, commandLine: "trace-report make-scenarios",
            payloadRedaction: keepText)
    }

    private func time(_ milliseconds: Int64) -> Int64 { Self.origin + milliseconds * 1_000_000 }

    func beginSession(at start: Int64) -> Int64 {
        let id = tracer.makeID()
        sessionStarts[id] = time(start)
        return id
    }

    func endSession(_ id: Int64, label: String, at end: Int64) {
        let start = sessionStarts[id] ?? time(0)
        tracer.record(.session(SessionRecord(sessionID: id, ts: start, dur: time(end) - start, label: label)),
                      kind: .session)
    }

    @discardableResult
    func request(
        session: Int64, at start: Int64, dur: Int64, ttft: Int64, input: Int64, cached: Int64, output: Int64,
        entries: Int64, reused: Int64, finish: String, promptBytes: Int64? = nil, profile: String = "economy",
        model: String = "smollm2-135m"
    ) -> Int64 {
        let id = tracer.makeID()
        tracer.record(
            .request(
                RequestRecord(
                    requestID: id, sessionID: session, parentID: session, ts: time(start), dur: dur * 1_000_000,
                    timeToFirstToken: ttft * 1_000_000, profile: profile, provider: "llama.cpp", model: model,
                    inputTokens: input, cachedInputTokens: cached, outputTokens: output,
                    promptBytes: promptBytes ?? input * 4, transcriptEntries: entries, reusedPrefixEntries: reused,
                    finishReason: finish)), kind: .request)
        return id
    }

    func toolCall(
        request: Int64, session: Int64, at start: Int64, dur: Int64, name: String, arguments: String,
        outputBytes: Int64 = 512
    ) {
        let id = tracer.makeID()
        tracer.record(
            .toolCall(
                ToolCallRecord(
                    toolCallID: id, requestID: request, sessionID: session, ts: time(start), dur: dur * 1_000_000,
                    name: name, callID: "call_\(id & 0xFFFF_FFFF)", argumentsFingerprint: Self.fingerprint(arguments),
                    argumentsBytes: Int64(arguments.utf8.count), outputBytes: outputBytes)), kind: .toolCall)
        clock.set(time(start))
        tracer.capturePayload(.toolArguments, arguments, parentID: id)
    }

    func handoff(session: Int64, at: Int64, kind: String, from: String, to: String) {
        tracer.record(
            .handoff(HandoffRecord(handoffID: tracer.makeID(), sessionID: session, ts: time(at), kind: kind,
                                   from: from, to: to)), kind: .handoff)
    }

    func close() {
        tracer.flush()
        sink.close()
    }

    /// FNV-1a of the argument text, in hex: equal text, equal fingerprint, as the middleware's is.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
