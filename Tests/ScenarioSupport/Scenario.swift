import Foundation

/// The scenario stores of `tracefiles/scenarios`: short recorded runs, each built to show one
/// class of problem, or one a naive analyzer would wrongly flag, and nothing else, so the tests
/// can require exactly their findings.
///
/// Every store is recorded through the real `LanguageModelSession`, `TracingMiddleware` and
/// `StoreSink`, with a ``ScriptedServer`` that imitates a model server's prompt cache. Nothing in
/// them is written by hand: reuse counts, cached tokens, turns and fingerprints are what the
/// middleware records. All text is made up.
public enum Scenario: String, Sendable, CaseIterable {
    // Repeated tool calls
    case roundLoop = "round-loop"
    case identicalRetry = "identical-retry"
    case alternation
    case toolLoop = "tool-loop"
    case repeatAcrossTurns = "repeat-across-turns"
    case recurringLoop = "recurring-loop"
    case loopWithoutPayloads = "loop-without-payloads"
    case fanOut = "fan-out"
    case fanOutOverRounds = "fan-out-over-rounds"
    case pagination
    case distinctTopics = "distinct-topics"
    case rephrasedLoopWithoutPayloads = "rephrased-loop-without-payloads"
    case addedFilter = "added-filter"
    // Repeats judged by their results
    case stuckLoop = "stuck-loop"
    case refinedSearches = "refined-searches"
    case polling
    case retriesAfterErrors = "retries-after-errors"
    case pollingWithRepeats = "polling-with-repeats"
    case stuckWithEchoedIDs = "stuck-with-echoed-ids"
    // Cache breaks
    case modelSwitch = "model-switch"
    case profileSwitch = "profile-switch"
    case toolsChanged = "tools-changed"
    case toolDescriptionChanged = "tool-description-changed"
    case instructionsChanged = "instructions-changed"
    case rollingWindow = "rolling-window"
    case appendOnlyChat = "append-only-chat"
    case newSessions = "new-sessions"
    case profileOptionsSwitch = "profile-options-switch"
    case anthropicCache = "anthropic-cache"
    case timestampInInstructions = "timestamp-in-instructions"
    case reorderedToolSchema = "reordered-tool-schema"
    case noCacheFigures = "no-cache-figures"
    // Answers and prompts
    case cappedAnswers = "capped-answers"
    case oversizedOutput = "oversized-output"
    case smallShares = "small-shares"
    case smallFileRead = "small-file-read"
    case promptBloat = "prompt-bloat"
    case queuedRequest = "queued-request"

    public var fileName: String { rawValue + ".sqlite" }

    /// Whether the store records argument and prompt text (redacted, and all made up).
    public var capturesPayloads: Bool {
        ![.loopWithoutPayloads, .rephrasedLoopWithoutPayloads, .promptBloat].contains(self)
    }

    /// What the store shows, one line.
    public var summary: String {
        switch self {
        case .roundLoop: "one search per round over three rounds: launch, launch prep, launch tasks"
        case .identicalRetry: "the same order lookup again in the next round"
        case .alternation: "search, open, search, open: the same two calls alternating over four rounds"
        case .toolLoop: "three near-identical searches in one request"
        case .repeatAcrossTurns: "the same weather lookup in the first and the third turn"
        case .recurringLoop: "the same status check three times a turn, in two turns"
        case .loopWithoutPayloads:
            "an identical polling loop, found by fingerprint alone; a fan-out beside it"
        case .fanOut: "not a finding: one request asks about three cities, with shared boilerplate"
        case .fanOutOverRounds: "not a finding: one city per round, and news about three cities"
        case .pagination: "not a finding: pages 1, 2, 3 of one query; cursors; three order ids"
        case .distinctTopics: "not a finding: notes about the launch, the lunch and the offsite"
        case .rephrasedLoopWithoutPayloads:
            "three rephrased searches, the same notes each time, without payload capture; a fan-out and pages"
        case .addedFilter: "the same report search, then with a region filter added; a fan-out over regions"
        case .stuckLoop: "three near-identical searches over three rounds, the same notes each time"
        case .refinedSearches: "not a finding: three near-identical searches, each finding other notes"
        case .polling: "a job's state checked four times in one turn, a new state each time: polling"
        case .retriesAfterErrors: "not a finding: the same order lookup after each of two timeouts"
        case .pollingWithRepeats: "a job polled four times: unchanged once, then 40%, then done: polling"
        case .stuckWithEchoedIDs: "a stuck deploy checked three times; only an echoed request id and time change"
        case .modelSwitch: "the model changes mid-conversation; the transcript is kept whole"
        case .profileSwitch: "a switch to a profile with another model"
        case .toolsChanged: "a tool added for one turn, then removed"
        case .toolDescriptionChanged: "a tool's description changes, its name does not"
        case .instructionsChanged: "the instructions change their date line"
        case .rollingWindow: "a rolling window of two prompts drops history from the front"
        case .appendOnlyChat: "not a finding: an append-only chat with a tool round"
        case .newSessions: "not a finding: three new sessions, each with its own model and instructions"
        case .profileOptionsSwitch: "not a finding: a profile switch that only changes the temperature"
        case .timestampInInstructions: "the instructions carry the time, so change on every request"
        case .reorderedToolSchema: "a tool's parameters come in another order on every request"
        case .anthropicCache: "not a finding: an Anthropic-style chat that writes its prompt to the cache, then reads it"
        case .noCacheFigures: "not a finding: a chat with a server that reports no cache figures"
        case .cappedAnswers: "answers cut at a 12-token cap; the same answers under a roomy cap"
        case .oversizedOutput: "a fetched page of 12 KB is most of the next prompt"
        case .smallShares: "not a finding: a large output in a larger prompt; four small outputs"
        case .smallFileRead: "not a finding: a 2.5 KB file read that is most of a short prompt"
        case .promptBloat: "ten fetched pages pile up until the prompt nears the context window"
        case .queuedRequest: "a request waits 1.2 s in the server's queue; a long memo's prefill does not count"
        }
    }

    /// Records the scenario into a new store at `path`, replacing a file there.
    public func write(to path: String) async throws {
        let recording = try ScenarioRecording(path: path, label: rawValue, capturePayloads: capturesPayloads)
        try await record(recording)
        try recording.finish()
    }

    private func record(_ r: ScenarioRecording) async throws {
        switch self {
        case .roundLoop: try await Self.roundLoop(r)
        case .identicalRetry: try await Self.identicalRetry(r)
        case .alternation: try await Self.alternation(r)
        case .toolLoop: try await Self.toolLoop(r)
        case .repeatAcrossTurns: try await Self.repeatAcrossTurns(r)
        case .recurringLoop: try await Self.recurringLoop(r)
        case .loopWithoutPayloads: try await Self.loopWithoutPayloads(r)
        case .fanOut: try await Self.fanOut(r)
        case .fanOutOverRounds: try await Self.fanOutOverRounds(r)
        case .pagination: try await Self.pagination(r)
        case .distinctTopics: try await Self.distinctTopics(r)
        case .rephrasedLoopWithoutPayloads: try await Self.rephrasedLoopWithoutPayloads(r)
        case .addedFilter: try await Self.addedFilter(r)
        case .stuckLoop: try await Self.stuckLoop(r)
        case .refinedSearches: try await Self.refinedSearches(r)
        case .polling: try await Self.polling(r)
        case .retriesAfterErrors: try await Self.retriesAfterErrors(r)
        case .pollingWithRepeats: try await Self.pollingWithRepeats(r)
        case .stuckWithEchoedIDs: try await Self.stuckWithEchoedIDs(r)
        case .modelSwitch: try await Self.modelSwitch(r)
        case .profileSwitch: try await Self.profileSwitch(r)
        case .toolsChanged: try await Self.toolsChanged(r)
        case .toolDescriptionChanged: try await Self.toolDescriptionChanged(r)
        case .instructionsChanged: try await Self.instructionsChanged(r)
        case .rollingWindow: try await Self.rollingWindow(r)
        case .appendOnlyChat: try await Self.appendOnlyChat(r)
        case .newSessions: try await Self.newSessions(r)
        case .profileOptionsSwitch: try await Self.profileOptionsSwitch(r)
        case .anthropicCache: try await Self.anthropicCache(r)
        case .timestampInInstructions: try await Self.timestampInInstructions(r)
        case .reorderedToolSchema: try await Self.reorderedToolSchema(r)
        case .noCacheFigures: try await Self.noCacheFigures(r)
        case .cappedAnswers: try await Self.cappedAnswers(r)
        case .oversizedOutput: try await Self.oversizedOutput(r)
        case .smallShares: try await Self.smallShares(r)
        case .smallFileRead: try await Self.smallFileRead(r)
        case .promptBloat: try await Self.promptBloat(r)
        case .queuedRequest: try await Self.queuedRequest(r)
        }
    }
}
