import SessionTrace
import Similarity
import TraceModel

/// Repeated tool calls: the same ask again in a session, and loops within a user turn.
///
/// Two calls of one tool **ask the same thing** when their `arguments_fingerprint`s are equal
/// (identical), or when their arguments are near-duplicates by ``ArgumentComparison`` (field by
/// field: no entity differs and the rest is similar): read from the captured argument texts when
/// both calls have one, else from their recorded argument sketches (`ArgumentSketch`), which
/// apply the same rule without the text.
///
/// - **Identical arguments**: one session called a tool two or more times with the same
///   fingerprint, in one request, across the rounds of a turn or across turns. Works on every
///   store: the fingerprint is always recorded.
/// - **Near-identical arguments**: calls of one tool in one session with different fingerprints
///   that ask the same thing, linked into groups (so `launch`, `launch prep` and `launch tasks` are
///   one). Needs the calls' argument sketches (schema 3) or their `tool_arguments` payloads; a store
///   with neither is not checked, and the report says so.
/// - **Loop**: within one user turn (see ``Turn``), the same ask of one tool made `loopThreshold`
///   (3) or more times, in one request or one per round over several rounds; or a cycle of two to
///   four asks made again in the same order right after (`A → B → A → B`), over the turn's rounds.
///
/// A finding's repeats are its calls after the first of each ask. Its cost: the repeats' tool
/// time, the **extra rounds** (requests whose every tool call was a repeat: rounds the model spent
/// asking again) with their time and the input and output tokens they consumed.
///
/// **Judged by results.** Each repeat's result is compared with the result of the call before it
/// of the same ask (``ResultChange``): the same result (the same `output_fingerprint`, or, for the
/// same arguments, equal output sketches: the outputs differ only in volatile tokens such as an
/// echoed request id or a check time, which a sketch sets aside), an overlap of the outputs'
/// sketches (``SketchSimilarity``) of at least `resultOverlapThreshold`, or new results. A call
/// made after a failed call of the same ask is a **retry** and is not a repeat at all.
///
/// - Calls with the **same arguments** whose results changed at least once are **polling**, judged
///   over the series, not pair by pair: `running`, `running`, `running 40%`, `done` is one job
///   polled (a loop becomes polling; the identical-arguments finding is not reported). A series
///   whose every result was the same is stuck: a loop.
/// - Calls with **near-identical arguments** whose every repeat brought new results are
///   pagination or refinement (not reported).
///
/// Stores without output fingerprints are judged by arguments alone.
public struct ToolFindings: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case identicalArguments = "identical_arguments"
        case nearIdenticalArguments = "near_identical_arguments"
        case loop
        /// The same call again and again in one turn, with new results every time.
        case polling
    }

    /// How a repeat's result compares with the result of the call before it of the same ask.
    public enum ResultChange: String, Sendable, Hashable {
        /// The same output fingerprint: the call learned nothing new.
        case same
        /// Near-identical arguments, outputs whose sketches overlap at least
        /// ``Options/resultOverlapThreshold``.
        case overlapping
        /// A new result: another fingerprint for the same arguments, or little overlap.
        case new
        /// Not recorded: a failed call, or a store without output fingerprints.
        case unknown
    }

    /// The result changes of a finding's repeats.
    public struct Results: Sendable, Hashable {
        public var same = 0
        public var overlapping = 0
        public var new = 0
        public var unknown = 0
        /// The least sketch similarity between a repeat's output and its predecessor's; nil when
        /// no two outputs had sketches.
        public var leastSimilarity: Double?

        /// Every repeat brought a new result: the calls were not stuck.
        public var allNew: Bool { new > 0 && same == 0 && overlapping == 0 && unknown == 0 }
    }

    /// One call of a finding, with its argument text where captured.
    public struct Call: Sendable, Hashable {
        public var record: ToolCallRecord
        public var arguments: String?
    }

    public struct Finding: Sendable, Hashable {
        public var kind: Kind
        public var runID: Int64
        public var sessionID: Int64?
        public var sessionLabel: String
        /// The tool's name; for a loop over several tools, their cycle, `A → B`.
        public var tool: String
        /// The tools of a loop's cycle, in order; one name for every other finding.
        public var pattern: [String]
        /// The turn a loop is in, as its position in the session (from 0); nil for the
        /// session-wide identical and near-identical findings.
        public var turnIndex: Int?
        /// The recorded `turn_id` of that turn, when the store has one.
        public var turnID: Int64?
        /// Distinct turns the calls were made in.
        public var turnCount: Int
        /// The requests that asked for the calls, in order, without repeats.
        public var requestIDs: [Int64]
        /// The calls, by start time.
        public var calls: [Call]
        /// The calls after the first of each ask.
        public var repeatIDs: [Int64]
        /// Requests whose every tool call was a repeat of this finding: rounds spent asking again.
        public var extraRounds: [RequestRecord]
        /// Time of the repeated calls, in nanoseconds.
        public var toolTime: Int64
        /// Least similarity between two linked calls (near-identical findings, and loops made of
        /// near-identical calls).
        public var similarity: Double?
        /// How the repeats' results compare with the results before them.
        public var results: Results
        /// `ts` of the run's start, for times relative to it.
        public var runStart: Int64

        /// Time of the extra rounds, in nanoseconds.
        public var extraRoundTime: Int64 { extraRounds.reduce(0) { $0 &+ $1.dur } }
        /// Input and output tokens of the extra rounds; nil when none reported them.
        public var extraRoundTokens: Int64? {
            let known = extraRounds.filter { $0.inputTokens != nil || $0.outputTokens != nil }
            guard !known.isEmpty else { return nil }
            return known.reduce(0) { $0 &+ ($1.inputTokens ?? 0) &+ ($1.outputTokens ?? 0) }
        }
        /// What the repeats cost in time: their tool time and the extra rounds' time.
        public var cost: Int64 { toolTime &+ extraRoundTime }
    }

    public struct Options: Sendable, Hashable {
        /// Calls of one ask in one turn that make a loop.
        public var loopThreshold: Int = 3
        /// Word share at which two argument texts count as the same ask (``ArgumentComparison``).
        public var similarityThreshold: Double = 0.8
        /// Sketch similarity at which the outputs of near-identical asks count as the same results.
        public var resultOverlapThreshold: Double = 0.5
        public init(
            loopThreshold: Int = 3, similarityThreshold: Double = 0.8, resultOverlapThreshold: Double = 0.5
        ) {
            self.loopThreshold = loopThreshold
            self.similarityThreshold = similarityThreshold
            self.resultOverlapThreshold = resultOverlapThreshold
        }
    }

    /// The longest cycle of asks a loop may repeat.
    public static let longestCycle = 4

    public var path: String
    public var options: Options
    public var findings: [Finding]
    public var toolCallCount: Int
    /// Tool calls whose arguments were captured, so near-identical detection could look at them.
    public var callsWithArguments: Int
    /// Tool calls with captured arguments or an argument sketch: those near-identical detection
    /// could compare.
    public var callsComparable: Int
    /// Turns inferred from finish reasons because the store records none (schema 1).
    public var inferredTurns: Bool

    /// What every repeat cost together: each repeated call and each extra round counted once,
    /// however many findings (a loop, and the identical arguments within it) name it.
    public var cost: Int64 {
        var calls: [Int64: Int64] = [:]
        var rounds: [Int64: Int64] = [:]
        for finding in findings {
            let repeats = Set(finding.repeatIDs)
            for call in finding.calls where repeats.contains(call.record.toolCallID) {
                calls[call.record.toolCallID] = call.record.dur
            }
            for round in finding.extraRounds { rounds[round.requestID] = round.dur }
        }
        return (Array(calls.values) + Array(rounds.values)).reduce(0, &+)
    }

    /// Finds repeated calls in every session of `trace`.
    public static func analyze(_ trace: RecordedTrace, options: Options = Options()) -> ToolFindings {
        analyze(trace, options: options, turns: trace.runs.map(RunTurns.init))
    }

    /// Finds repeated calls with the turns of each run of `trace` already grouped, in its order.
    static func analyze(_ trace: RecordedTrace, options: Options, turns: [RunTurns]) -> ToolFindings {
        var report = ToolFindings(
            path: trace.path, options: options, findings: [], toolCallCount: 0, callsWithArguments: 0,
            callsComparable: 0, inferredTurns: false)
        for (run, turns) in zip(trace.runs, turns) {
            let analysis = RunAnalysis(run: run, options: options, turns: turns)
            report.findings += analysis.sessionFindings() + analysis.loopFindings()
            report.toolCallCount += run.toolCalls.count
            report.callsWithArguments += analysis.calls.count { $0.arguments != nil }
            report.callsComparable += analysis.calls.count { $0.arguments != nil || $0.record.argumentsSketch != nil }
            report.inferredTurns = report.inferredTurns || analysis.turns.turns.contains { $0.isInferred }
        }
        report.findings.sort {
            ($0.calls[0].record.ts, $0.kind.rawValue, $0.tool) < (
                $1.calls[0].record.ts, $1.kind.rawValue, $1.tool
            )
        }
        return report
    }
}

/// The repeated-call analysis of one run.
private struct RunAnalysis {
    let run: RecordedRun
    let options: ToolFindings.Options
    let turns: RunTurns
    let calls: [ToolFindings.Call]
    /// The calls of each session and tool.
    private let groups: [SessionTool: [ToolFindings.Call]]
    /// The ask each fingerprint of a session's tool belongs to; the same number, the same ask.
    private var askOf: [SessionToolPrint: Int] = [:]
    /// The least similarity of a link within each ask made of near-identical calls.
    private var leastSimilarity: [Int: Double] = [:]
    /// How each call's result compares with the call before it of the same ask; nil for the first.
    private var change: [Int64: ToolFindings.ResultChange] = [:]
    /// The sketch similarity of each call's output to the output of the call before it of the same ask.
    private var outputSimilarity: [Int64: Double] = [:]
    /// Calls made after a failed call of the same ask.
    private var retries: Set<Int64> = []

    init(run: RecordedRun, options: ToolFindings.Options, turns: RunTurns) {
        self.run = run
        self.options = options
        self.turns = turns
        calls = run.toolCalls
            .map { ToolFindings.Call(record: $0, arguments: run.payload(.toolArguments, of: $0.toolCallID)) }
            .sorted { ($0.record.ts, $0.record.toolCallID) < ($1.record.ts, $1.record.toolCallID) }
        groups = Dictionary(grouping: calls) {
            SessionTool(sessionID: $0.record.sessionID, tool: $0.record.name)
        }
        for key in groups.keys.sorted() { linkAsks(key) }
        judgeResults()
    }

    /// Compares each call's result with the result of the call before it of the same ask.
    private mutating func judgeResults() {
        var previous: [Int: ToolFindings.Call] = [:]
        for call in calls {
            let ask = ask(call)
            defer { previous[ask] = call }
            guard let before = previous[ask]?.record else { continue }
            let record = call.record
            if before.outcome == .error {
                retries.insert(record.toolCallID)
                continue
            }
            guard let output = record.outputFingerprint, let earlier = before.outputFingerprint else {
                change[record.toolCallID] = .unknown
                continue
            }
            let similarity = SketchSimilarity.of(record.outputSketch, before.outputSketch)
            outputSimilarity[record.toolCallID] = similarity
            if output == earlier {
                change[record.toolCallID] = .same
            } else if record.argumentsFingerprint == before.argumentsFingerprint {
                // Equal sketches: the outputs differ only in tokens a sketch sets aside (an id, a time).
                change[record.toolCallID] = similarity == 1 ? .same : .new
            } else if let similarity {
                change[record.toolCallID] = similarity >= options.resultOverlapThreshold ? .overlapping : .new
            } else {
                change[record.toolCallID] = .unknown
            }
        }
    }

    /// The result changes of `repeats`, with the least sketch similarity among them.
    private func results(of repeats: [ToolFindings.Call]) -> ToolFindings.Results {
        var results = ToolFindings.Results()
        results.leastSimilarity = repeats.compactMap { outputSimilarity[$0.record.toolCallID] }.min()
        for call in repeats {
            switch change[call.record.toolCallID] ?? .unknown {
            case .same: results.same += 1
            case .overlapping: results.overlapping += 1
            case .new: results.new += 1
            case .unknown: results.unknown += 1
            }
        }
        return results
    }

    /// Numbers the asks of one session's tool: equal fingerprints are one ask, and fingerprints
    /// whose arguments are near-duplicates join theirs: by ``ArgumentComparison`` when both have
    /// captured text, else by their argument sketches.
    private mutating func linkAsks(_ key: SessionTool) {
        var firstCall: [String: ToolFindings.Call] = [:]
        for call in groups[key]! {
            let print = call.record.argumentsFingerprint
            // The first call with text stands for its fingerprint; all of them hash the same arguments.
            if firstCall[print] == nil || (firstCall[print]!.arguments == nil && call.arguments != nil) {
                firstCall[print] = call
            }
        }
        let prints = firstCall.keys.sorted()
        let calls = prints.map { firstCall[$0]! }
        let fields = calls.map { $0.arguments.map(ArgumentText.Fields.init) }
        var sets = UnionFind(count: prints.count)
        var links: [(Int, Double)] = []
        for i in prints.indices {
            for j in prints.indices where j > i {
                let similarity: Double?
                if let left = fields[i], let right = fields[j] {
                    switch ArgumentComparison.compare(left, right, threshold: options.similarityThreshold) {
                    case .identical: similarity = 1
                    case .nearDuplicate(let share): similarity = share
                    case .distinct: similarity = nil
                    }
                } else if let left = calls[i].record.argumentsSketch, let right = calls[j].record.argumentsSketch {
                    similarity = ArgumentSketch.similarity(left, right, threshold: options.similarityThreshold)
                } else {
                    similarity = nil
                }
                guard let similarity else { continue }
                links.append((i, similarity))
                sets.union(i, j)
            }
        }
        let base = askOf.count
        for (index, print) in prints.enumerated() {
            askOf[SessionToolPrint(key: key, print: print)] = base + sets.find(index)
        }
        for (index, similarity) in links {
            let ask = base + sets.find(index)
            leastSimilarity[ask] = min(leastSimilarity[ask] ?? 1, similarity)
        }
    }

    private func ask(_ call: ToolFindings.Call) -> Int {
        let key = SessionTool(sessionID: call.record.sessionID, tool: call.record.name)
        return askOf[SessionToolPrint(key: key, print: call.record.argumentsFingerprint)]!
    }

    // MARK: Session-wide: identical and near-identical arguments

    func sessionFindings() -> [ToolFindings.Finding] {
        var findings: [ToolFindings.Finding] = []
        for key in groups.keys.sorted() {
            let group = groups[key]!.filter { !retries.contains($0.record.toolCallID) }
            for same in Dictionary(grouping: group, by: \.record.argumentsFingerprint).values
            where same.count >= 2 {
                findings.append(
                    finding(.identicalArguments, same, asks: Array(repeating: 0, count: same.count)))
            }
            for (ask, members) in Dictionary(grouping: group, by: ask).sorted(by: { $0.key < $1.key }) {
                guard Set(members.map(\.record.argumentsFingerprint)).count >= 2 else { continue }
                findings.append(
                    finding(
                        .nearIdenticalArguments, members, asks: Array(repeating: 0, count: members.count),
                        similarity: leastSimilarity[ask]))
            }
        }
        return findings.compactMap(judgedByResults)
    }

    /// `finding` as its results show it. Calls with the same arguments whose results changed at
    /// least once are polling: a loop of them is reported as polling, identical arguments not at
    /// all. Near-identical calls whose every repeat brought new results are not reported.
    private func judgedByResults(_ finding: ToolFindings.Finding) -> ToolFindings.Finding? {
        guard Set(finding.calls.map(\.record.argumentsFingerprint)).count == 1 else {
            return finding.results.allNew ? nil : finding
        }
        guard finding.results.new > 0 else { return finding }
        guard finding.kind == .loop else { return nil }
        var polling = finding
        polling.kind = .polling
        return polling
    }

    // MARK: Per turn: loops

    func loopFindings() -> [ToolFindings.Finding] {
        var findings: [ToolFindings.Finding] = []
        var callsByTurn: [Int: [ToolFindings.Call]] = [:]
        for call in calls where !retries.contains(call.record.toolCallID) {
            guard let position = turns.position(of: call.record.requestID) else { continue }
            callsByTurn[position, default: []].append(call)
        }
        for position in callsByTurn.keys.sorted() {
            let turn = turns.turns[position]
            let sequence = callsByTurn[position]!.sorted {
                (turns.round(of: $0.record.requestID) ?? 0, $0.record.ts, $0.record.toolCallID)
                    < (turns.round(of: $1.record.requestID) ?? 0, $1.record.ts, $1.record.toolCallID)
            }
            let asks = sequence.map(ask)
            var covered = Set<Int>()
            // Cycles of two or more asks, made again in the same order: A → B → A → B.
            for period in 2...ToolFindings.longestCycle {
                var index = period
                while index < sequence.count {
                    guard asks[index] == asks[index - period] else {
                        index += 1
                        continue
                    }
                    let start = index - period
                    var end = index
                    while end < sequence.count, asks[end] == asks[end - period] { end += 1 }
                    let cycle = Array(asks[start..<start + period])
                    let stretch = Array(start..<end)
                    if end - start >= 2 * period, Set(cycle).count >= 2, covered.isDisjoint(with: stretch) {
                        covered.formUnion(stretch)
                        findings.append(
                            finding(
                                .loop, stretch.map { sequence[$0] }, asks: stretch.map { asks[$0] },
                                similarity: Set(cycle).compactMap { leastSimilarity[$0] }.min(), turn: turn,
                                pattern: stretch.prefix(period).map { sequence[$0].record.name }))
                    }
                    index = end
                }
            }
            // One ask made again and again, in one request or one per round.
            for ask in Set(asks).sorted() {
                let members = sequence.indices.filter { asks[$0] == ask && !covered.contains($0) }
                guard members.count >= options.loopThreshold else { continue }
                findings.append(
                    finding(
                        .loop, members.map { sequence[$0] }, asks: members.map { _ in ask },
                        similarity: leastSimilarity[ask], turn: turn))
            }
        }
        return findings.compactMap(judgedByResults)
    }

    // MARK: Building a finding

    /// A finding over `group`, whose calls ask the things `asks` numbers.
    func finding(
        _ kind: ToolFindings.Kind, _ group: [ToolFindings.Call], asks: [Int], similarity: Double? = nil,
        turn: Turn? = nil, pattern: [String]? = nil
    ) -> ToolFindings.Finding {
        let order = group.indices.sorted {
            (group[$0].record.ts, group[$0].record.toolCallID) < (
                group[$1].record.ts, group[$1].record.toolCallID
            )
        }
        var seen = Set<Int>()
        var repeats = Set<Int64>()
        for index in order {
            if !seen.insert(asks[index]).inserted { repeats.insert(group[index].record.toolCallID) }
        }
        let sorted = order.map { group[$0] }
        let repeated = sorted.filter { repeats.contains($0.record.toolCallID) }
        var requests: [Int64] = []
        for call in sorted {
            if let id = call.record.requestID, !requests.contains(id) { requests.append(id) }
        }
        let extra = requests.compactMap { id -> RequestRecord? in
            let asked = run.toolCallsByRequest[id] ?? []
            guard !asked.isEmpty, asked.allSatisfy({ repeats.contains($0.toolCallID) }) else { return nil }
            return turns.request(id)
        }
        let session = sorted[0].record.sessionID
        let tools = pattern ?? [sorted[0].record.name]
        let turnCount = Set(sorted.compactMap { turns.turn(of: $0.record.requestID)?.index }).count
        return ToolFindings.Finding(
            kind: kind, runID: run.run.runID, sessionID: session, sessionLabel: run.sessionLabel(session),
            tool: tools.joined(separator: " → "), pattern: tools, turnIndex: turn?.index,
            turnID: turn?.turnID,
            turnCount: turnCount, requestIDs: requests, calls: sorted,
            repeatIDs: sorted.map(\.record.toolCallID).filter(repeats.contains), extraRounds: extra,
            toolTime: repeated.reduce(0) { $0 &+ $1.record.dur },
            similarity: similarity, results: results(of: repeated), runStart: run.startTime)
    }

    private struct SessionTool: Hashable, Comparable {
        var sessionID: Int64?
        var tool: String
        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.sessionID ?? -1, lhs.tool) < (rhs.sessionID ?? -1, rhs.tool)
        }
    }

    private struct SessionToolPrint: Hashable {
        var key: SessionTool
        var print: String
    }
}

/// Disjoint sets over `0..<count`, for linking calls that ask the same thing.
struct UnionFind {
    private var parent: [Int]
    init(count: Int) { parent = Array(0..<count) }
    mutating func find(_ element: Int) -> Int {
        var root = element
        while parent[root] != root { root = parent[root] }
        var node = element
        while parent[node] != root { (parent[node], node) = (root, parent[node]) }
        return root
    }
    mutating func union(_ first: Int, _ second: Int) {
        let (a, b) = (find(first), find(second))
        if a != b { parent[max(a, b)] = min(a, b) }
    }
}
