import Foundation
import SessionTrace

/// Repeated tool calls: the same arguments again, nearly the same arguments, and one tool called
/// over and over in one request.
///
/// - **Identical arguments**: two or more calls in one session of the same tool with the same
///   `arguments_fingerprint` (a hash of the normalized arguments). Works on every store: the
///   fingerprint is always recorded.
/// - **Near-identical arguments**: calls in one session of the same tool whose fingerprints differ
///   but whose argument texts are similar. A hash cannot be compared for similarity, so this needs
///   the `tool_arguments` payloads that payload capture records; without them it is skipped and
///   the report says so. Similarity is word containment: the words (maximal runs of letters and
///   digits, lowercased) of the argument *values* (JSON keys are left out, as every call of a
///   tool shares them) are compared as sets, `|A ∩ B| / min(|A|, |B|)`. Calls at or above the
///   threshold (0.8 by default) are linked, and linked calls form one finding, so `launch`,
///   `launch prep` and `launch tasks` are one group: a model refining the same query.
/// - **Loop**: one tool called `loopThreshold` (3) or more times by one request.
///
/// A finding's cost is the time of its calls after the first: what the repeats spent.
public struct ToolFindings: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case identicalArguments = "identical_arguments"
        case nearIdenticalArguments = "near_identical_arguments"
        case loop
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
        /// The tool's name.
        public var tool: String
        /// The requests that asked for the calls, in order, without repeats.
        public var requestIDs: [Int64]
        /// The calls, by start time.
        public var calls: [Call]
        /// Time of the calls after the first, in nanoseconds.
        public var cost: Int64
        /// Least similarity between two linked calls (near-identical findings only).
        public var similarity: Double?
        /// `ts` of the run's start, for times relative to it.
        public var runStart: Int64
    }

    public struct Options: Sendable, Hashable {
        /// Calls of one tool in one request that make a loop.
        public var loopThreshold: Int = 3
        /// Word-containment similarity at which two argument texts count as near-identical.
        public var similarityThreshold: Double = 0.8
        public init(loopThreshold: Int = 3, similarityThreshold: Double = 0.8) {
            self.loopThreshold = loopThreshold
            self.similarityThreshold = similarityThreshold
        }
    }

    public var path: String
    public var options: Options
    public var findings: [Finding]
    public var toolCallCount: Int
    /// Tool calls whose arguments were captured, so near-identical detection could look at them.
    public var callsWithArguments: Int

    /// Finds repeated calls in every session of `trace`.
    public static func analyze(_ trace: RecordedTrace, options: Options = Options()) -> ToolFindings {
        var findings: [Finding] = []
        var total = 0
        var withArguments = 0
        for run in trace.runs {
            let start = run.startTime
            total += run.toolCalls.count
            let calls = run.toolCalls.map { Call(record: $0, arguments: run.payload(.toolArguments, of: $0.toolCallID)) }
            withArguments += calls.filter { $0.arguments != nil }.count
            func finding(_ kind: Kind, _ group: [Call], similarity: Double? = nil) -> Finding {
                let sorted = group.sorted { ($0.record.ts, $0.record.toolCallID) < ($1.record.ts, $1.record.toolCallID) }
                var requests: [Int64] = []
                for call in sorted { if let id = call.record.requestID, !requests.contains(id) { requests.append(id) } }
                let session = sorted[0].record.sessionID
                return Finding(
                    kind: kind, runID: run.run.runID, sessionID: session, sessionLabel: run.sessionLabel(session),
                    tool: sorted[0].record.name, requestIDs: requests, calls: sorted,
                    cost: sorted.dropFirst().reduce(0) { $0 + $1.record.dur }, similarity: similarity, runStart: start)
            }

            // Loops: per request and tool.
            let byRequest = Dictionary(grouping: calls.filter { $0.record.requestID != nil }) {
                RequestTool(requestID: $0.record.requestID!, tool: $0.record.name)
            }
            for group in byRequest.values where group.count >= options.loopThreshold {
                findings.append(finding(.loop, group))
            }

            let bySessionTool = Dictionary(grouping: calls) { SessionTool(sessionID: $0.record.sessionID, tool: $0.record.name) }
            for group in bySessionTool.values {
                // Identical: same fingerprint.
                let byFingerprint = Dictionary(grouping: group, by: \.record.argumentsFingerprint)
                for same in byFingerprint.values where same.count >= 2 {
                    findings.append(finding(.identicalArguments, same))
                }
                // Near-identical: distinct fingerprints with similar text, linked into components.
                var representatives: [(fingerprint: String, words: Set<String>)] = []
                for (fingerprint, same) in byFingerprint {
                    guard let text = same.first(where: { $0.arguments != nil })?.arguments else { continue }
                    let words = argumentWords(text)
                    if !words.isEmpty { representatives.append((fingerprint, words)) }
                }
                representatives.sort { $0.fingerprint < $1.fingerprint }
                guard representatives.count >= 2 else { continue }
                var components = UnionFind(count: representatives.count)
                var least: [Int: Double] = [:]
                var linkedSimilarities: [(Int, Int, Double)] = []
                for i in representatives.indices {
                    for j in representatives.indices where j > i {
                        let score = similarity(representatives[i].words, representatives[j].words)
                        if score >= options.similarityThreshold {
                            components.union(i, j)
                            linkedSimilarities.append((i, j, score))
                        }
                    }
                }
                for (i, _, score) in linkedSimilarities {
                    let root = components.find(i)
                    least[root] = min(least[root] ?? 1, score)
                }
                let members = Dictionary(grouping: representatives.indices, by: { components.find($0) })
                for (root, indices) in members where indices.count >= 2 {
                    let prints = Set(indices.map { representatives[$0].fingerprint })
                    let group = group.filter { prints.contains($0.record.argumentsFingerprint) }
                    findings.append(finding(.nearIdenticalArguments, group, similarity: least[root]))
                }
            }
        }
        findings.sort {
            ($0.calls[0].record.ts, $0.kind.rawValue, $0.tool) < ($1.calls[0].record.ts, $1.kind.rawValue, $1.tool)
        }
        return ToolFindings(
            path: trace.path, options: options, findings: findings, toolCallCount: total,
            callsWithArguments: withArguments)
    }

    /// The words of an argument text: of its values when it is a JSON object or array, else of
    /// the whole text.
    public static func argumentWords(_ text: String) -> Set<String> {
        var values: [String] = []
        if let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        {
            collectValues(object, into: &values)
        } else {
            values = [text]
        }
        var words: Set<String> = []
        for value in values {
            var word = ""
            for character in value.lowercased() {
                if character.isLetter || character.isNumber {
                    word.append(character)
                } else if !word.isEmpty {
                    words.insert(word)
                    word = ""
                }
            }
            if !word.isEmpty { words.insert(word) }
        }
        return words
    }

    private static func collectValues(_ object: Any, into values: inout [String]) {
        if let dictionary = object as? [String: Any] {
            for key in dictionary.keys.sorted() { collectValues(dictionary[key]!, into: &values) }
        } else if let array = object as? [Any] {
            for element in array { collectValues(element, into: &values) }
        } else if let string = object as? String {
            values.append(string)
        } else if let number = object as? NSNumber {
            values.append(number.stringValue)
        }
    }

    /// Word containment, `|A ∩ B| / min(|A|, |B|)`: 1 when one text's words all occur in the other.
    public static func similarity(_ first: Set<String>, _ second: Set<String>) -> Double {
        guard !first.isEmpty, !second.isEmpty else { return 0 }
        return Double(first.intersection(second).count) / Double(min(first.count, second.count))
    }

    private struct RequestTool: Hashable {
        var requestID: Int64
        var tool: String
    }

    private struct SessionTool: Hashable {
        var sessionID: Int64?
        var tool: String
    }
}

/// Disjoint sets over `0..<count`, for linking similar calls into groups.
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

// MARK: - Output

extension ToolFindings {
    public var text: String {
        let store = TerminalText.sanitized(path)
        guard toolCallCount > 0 else { return "\(store): no tool calls recorded\n" }
        var out = "\(store): \(findings.count) finding" + (findings.count == 1 ? "" : "s") + " in "
            + "\(Format.count(Int64(toolCallCount))) tool calls"
        if !findings.isEmpty { out += ", repeats cost \(Format.duration(findings.reduce(0) { $0 + $1.cost }))" }
        out += "\n"
        if callsWithArguments == 0 {
            out += """
                note: near-identical arguments were not checked: no tool_arguments payloads were captured \
                (turn on payload capture); identical arguments are found by fingerprint all the same.

                """
        } else if callsWithArguments < toolCallCount {
            out += "note: arguments captured for \(callsWithArguments) of \(toolCallCount) calls; "
                + "near-identical arguments checked among those only.\n"
        }
        for finding in findings {
            out += "\n" + finding.headline(loopThreshold: options.loopThreshold) + "\n"
            out += "  session \(TerminalText.fitted(finding.sessionLabel, width: 40)), request"
                + (finding.requestIDs.count == 1 ? " " : "s ")
                + finding.requestIDs.map(Self.shortID).joined(separator: ", ")
                + "; cost \(Format.duration(finding.cost)) (the calls after the first)\n"
            for (index, call) in finding.calls.enumerated() {
                let at = "at " + Format.duration(call.record.ts - finding.runStart)
                var line = "    \(index + 1). \(at), \(Format.duration(call.record.dur)), \(call.record.outcome)"
                if let arguments = call.arguments {
                    line += "  " + TerminalText.fitted(arguments, width: 60)
                } else {
                    line += "  fingerprint " + TerminalText.fitted(call.record.argumentsFingerprint, width: 16)
                }
                out += line + "\n"
            }
        }
        return out
    }

    /// An id as people read it: the sequence number `Tracer` puts in the lower 32 bits.
    static func shortID(_ id: Int64) -> String { "#" + String(id & 0xFFFF_FFFF) }

    public var json: JSONValue {
        .object([
            ("store", .string(path)),
            ("tool_calls", .int(Int64(toolCallCount))),
            ("tool_calls_with_arguments", .int(Int64(callsWithArguments))),
            ("near_identical_checked", .bool(callsWithArguments > 0)),
            ("loop_threshold", .int(Int64(options.loopThreshold))),
            ("similarity_threshold", .double(options.similarityThreshold)),
            ("cost_ns", .int(findings.reduce(0) { $0 + $1.cost })),
            ("findings", .array(findings.map(\.json))),
        ])
    }
}

extension ToolFindings.Finding {
    func headline(loopThreshold: Int) -> String {
        let tool = TerminalText.fitted(tool, width: 40)
        switch kind {
        case .identicalArguments:
            return "identical arguments: \(tool) called \(calls.count) times with the same arguments"
        case .nearIdenticalArguments:
            let score = similarity.map { " (similarity ≥ \(Format.fixed($0, 2)))" } ?? ""
            return "near-identical arguments: \(tool) called \(calls.count) times with similar arguments\(score)"
        case .loop:
            return "loop: \(tool) called \(calls.count) times by one request (threshold \(loopThreshold))"
        }
    }

    public var json: JSONValue {
        .object([
            ("kind", .string(kind.rawValue)),
            ("run_id", .int(runID)),
            ("session_id", .int(sessionID)),
            ("session", .string(sessionLabel)),
            ("tool", .string(tool)),
            ("request_ids", .array(requestIDs.map { .int($0) })),
            ("cost_ns", .int(cost)),
            ("similarity", .double(similarity)),
            ("calls", .array(calls.map { call in
                .object([
                    ("tool_call_id", .int(call.record.toolCallID)),
                    ("request_id", .int(call.record.requestID)),
                    ("ts", .int(call.record.ts)),
                    ("dur_ns", .int(call.record.dur)),
                    ("outcome", .string(call.record.outcome)),
                    ("arguments_fingerprint", .string(call.record.argumentsFingerprint)),
                    ("arguments", .string(call.arguments)),
                ])
            })),
        ])
    }
}
