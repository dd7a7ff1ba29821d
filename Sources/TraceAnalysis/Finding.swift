import Foundation
import Reproducible

/// One problem in a recorded run, in the shape every analysis reports to `trace-report check`:
/// what kind, where (run, session, turn, requests, tool calls), the evidence, and the cost.
///
/// Each analysis keeps its own detailed report (`tools`, `cache`, `capped`, `growth`); a
/// `Finding` is its summary, so findings of every kind can be ranked together. New kinds add a
/// case to ``Kind``; new evidence adds keys to ``evidence``; a new measure of cost (a price)
/// adds a field to ``Cost``.
public struct Finding: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case loop
        case polling
        case identicalArguments = "identical_arguments"
        case nearIdenticalArguments = "near_identical_arguments"
        case cacheBreak = "cache_break"
        case chronicCacheBreak = "chronic_cache_break"
        case cappedAnswer = "capped_answer"
        case oversizedToolOutput = "oversized_tool_output"
        case promptGrowth = "prompt_growth"
        case unexplainedTTFT = "unexplained_ttft"
    }

    /// What a finding cost, in the units it can be measured in; 0 where it has none.
    public struct Cost: Sendable, Hashable {
        /// Time spent on, or added by, the problem, in nanoseconds.
        public var time: Int64
        /// Tokens spent on, or lost to, the problem.
        public var tokens: Int64
        /// Those tokens in dollars, by the price table given; nil without one or without a price.
        public var dollars: Double?

        public init(time: Int64 = 0, tokens: Int64 = 0, dollars: Double? = nil) {
            self.time = time
            self.tokens = tokens
            self.dollars = dollars
        }

        /// `{"time_ns", "tokens", "usd"}`, as `check --json` writes a finding's and a group's cost.
        public var json: OrderedJSON {
            .object([("time_ns", .int(time)), ("tokens", .int(tokens)), ("usd", .double(dollars))])
        }

        /// Ranking order: more time first, then more tokens.
        public static func ranksBefore(_ lhs: Cost, _ rhs: Cost) -> Bool {
            (lhs.time, lhs.tokens) > (rhs.time, rhs.tokens)
        }
    }

    /// How much a finding matters, from what it cost (``Severity/of(_:)``); `noise` when it is
    /// within a documented floor (``Diagnosis``), listed apart from the real ones.
    public enum Severity: String, Sendable, CaseIterable, Comparable {
        case noise, low, medium, high

        /// `high` from 1 s, 10,000 tokens or $0.10; `medium` from 100 ms, 1,000 tokens or $0.01.
        public static func of(_ cost: Cost) -> Severity {
            let dollars = cost.dollars ?? 0
            if cost.time >= 1_000_000_000 || cost.tokens >= 10_000 || dollars >= 0.10 { return .high }
            if cost.time >= 100_000_000 || cost.tokens >= 1_000 || dollars >= 0.01 { return .medium }
            return .low
        }

        public static func < (a: Severity, b: Severity) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    public var kind: Kind
    /// What it is about within its kind: the tools of a tool finding (`search+fetch`), the causes
    /// of a cache break; empty where the kind says it all. Findings of one kind, session and
    /// subject are one ``FindingGroup``.
    public var subject: String
    public var severity: Severity
    /// The store the finding is in, as given.
    public var store: String
    public var runID: Int64
    public var sessionID: Int64?
    public var sessionLabel: String
    /// The turn's position in its session (from 0), when the finding is within one turn.
    public var turnIndex: Int?
    /// That turn's recorded `turn_id`; nil in stores that record none.
    public var turnID: Int64?
    /// The requests the finding is about, by start time.
    public var requestIDs: [Int64]
    /// The tool calls the finding is about, by start time.
    public var toolCallIDs: [Int64]
    /// `ts` of the first event the finding is about.
    public var ts: Int64
    /// One line for people, unsanitized.
    public var summary: String
    /// The analysis's own record of the finding (its `--json` object).
    public var evidence: OrderedJSON
    public var cost: Cost
    /// The command that shows the finding in detail, as arguments after `trace-report`.
    public var detail: [String]

    /// ``detail`` as one shell command line.
    public var detailCommand: String {
        (["trace-report"] + detail).map(Self.shellQuoted).joined(separator: " ")
    }

    /// `word` as a shell reads it back: unchanged when it is plain, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                    || "-_./=:@%+,".unicodeScalars.contains($0)
            }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    public var json: OrderedJSON {
        .object([
            ("kind", .string(kind.rawValue)),
            ("subject", .string(subject)),
            ("severity", .string(severity.rawValue)),
            ("store", .string(store)),
            ("run_id", .id(runID)),
            ("session_id", .id(sessionID)),
            ("session", .string(sessionLabel)),
            ("turn_index", .int(turnIndex.map(Int64.init))),
            ("turn_id", .id(turnID)),
            ("request_ids", .array(requestIDs.map { .id($0) })),
            ("tool_call_ids", .array(toolCallIDs.map { .id($0) })),
            ("ts", .int(ts)),
            ("summary", .string(summary)),
            ("cost", cost.json),
            ("detail_command", .string(detailCommand)),
            ("evidence", evidence),
        ])
    }
}

extension OrderedJSON {
    /// The member `key` of an object, as evidence is read; nil for anything else.
    public subscript(key: String) -> OrderedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }
}
