/// Redacted text and how many values of each kind were replaced.
public struct RedactionResult: Sendable, Equatable {
    /// The text with each finding replaced by `[REDACTED:<kind>]`.
    public var text: String
    /// Replacements by kind (`email`, `openai_key`...). Never holds the values themselves.
    public var counts: [RedactionKind: Int]

    public init(text: String, counts: [RedactionKind: Int] = [:]) {
        self.text = text
        self.counts = counts
    }

    /// The number of values replaced.
    public var total: Int { counts.values.reduce(0, +) }

    /// Whether anything was replaced.
    public var didRedact: Bool { total > 0 }
}

/// Counts of redacted values, merged across many texts (a whole export), and a one-line summary.
///
/// ```swift
/// var report = RedactionReport()
/// report.add(redactor.redact(prompt))
/// report.add(redactor.redactJSON(toolArguments))
/// print(report.summary)  // redacted 3 values: 2 email, 1 openai_key
/// ```
public struct RedactionReport: Sendable, Equatable, CustomStringConvertible {
    /// Replacements by kind.
    public private(set) var counts: [RedactionKind: Int]

    public init(counts: [RedactionKind: Int] = [:]) {
        self.counts = counts.filter { $0.value > 0 }
    }

    /// Adds the counts of one redaction.
    public mutating func add(_ result: RedactionResult) {
        merge(result.counts)
    }

    /// Adds counts by kind.
    public mutating func merge(_ other: [RedactionKind: Int]) {
        for (kind, count) in other where count > 0 { counts[kind, default: 0] += count }
    }

    /// Adds another report's counts.
    public mutating func merge(_ other: RedactionReport) {
        merge(other.counts)
    }

    /// The number of values replaced.
    public var total: Int { counts.values.reduce(0, +) }

    /// Kinds by descending count, then by name, so the summary reads the same every time.
    public var sortedCounts: [(kind: RedactionKind, count: Int)] {
        counts.map { (kind: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.kind < $1.kind }
    }

    /// `redacted 3 values: 2 email, 1 openai_key`, or `redacted 0 values`. Counts only: a summary
    /// goes to terminals and CI logs, so it never includes a value.
    public var summary: String {
        let total = total
        let noun = total == 1 ? "value" : "values"
        guard total > 0 else { return "redacted 0 values" }
        let parts = sortedCounts.map { "\($0.count) \($0.kind)" }.joined(separator: ", ")
        return "redacted \(total) \(noun): \(parts)"
    }

    public var description: String { summary }
}
