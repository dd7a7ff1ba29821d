import Reproducible

/// Findings of one kind, in one session of one run, about one subject (the same tools, the same
/// causes of a cache break): a thousand repeats of one problem read as one line, with a count,
/// the total cost and the first and last time it happened. Every instance is kept.
public struct FindingGroup: Sendable {
    /// The findings, in the order they happened.
    public var instances: [Finding]

    /// Groups `findings`, most costly group first (total time, then tokens), then by first time.
    public static func grouping(_ findings: [Finding]) -> [FindingGroup] {
        struct Key: Hashable {
            var store: String
            var kind: Finding.Kind
            var runID: Int64
            var sessionID: Int64?
            var subject: String
        }
        var order: [Key] = []
        var members: [Key: [Finding]] = [:]
        for finding in findings {
            let key = Key(
                store: finding.store, kind: finding.kind, runID: finding.runID, sessionID: finding.sessionID,
                subject: finding.subject)
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(finding)
        }
        let groups = order.map { FindingGroup(instances: members[$0]!.sorted { $0.ts < $1.ts }) }
        return groups.sorted {
            if $0.cost != $1.cost { return Finding.Cost.ranksBefore($0.cost, $1.cost) }
            return ($0.first.store, $0.first.ts) < ($1.first.store, $1.first.ts)
        }
    }

    public var first: Finding { instances[0] }
    public var last: Finding { instances[instances.count - 1] }
    public var count: Int { instances.count }
    public var kind: Finding.Kind { first.kind }

    /// The instances' costs summed; dollars when any instance has them.
    public var cost: Finding.Cost {
        let known = instances.compactMap(\.cost.dollars)
        return Finding.Cost(
            time: instances.reduce(0) { $0 &+ $1.cost.time }, tokens: instances.reduce(0) { $0 &+ $1.cost.tokens },
            dollars: known.isEmpty ? nil : known.reduce(0, +))
    }

    /// The most severe instance's severity: a group is noise only when every instance is.
    public var severity: Finding.Severity { instances.map(\.severity).max()! }

    public var json: OrderedJSON {
        .object([
            ("kind", .string(kind.rawValue)),
            ("subject", .string(first.subject)),
            ("severity", .string(severity.rawValue)),
            ("store", .string(first.store)),
            ("run_id", .id(first.runID)),
            ("session_id", .id(first.sessionID)),
            ("session", .string(first.sessionLabel)),
            ("count", .int(Int64(count))),
            ("first_ts", .int(first.ts)),
            ("last_ts", .int(last.ts)),
            ("summary", .string(first.summary)),
            ("cost", cost.json),
            ("detail_command", .string(first.detailCommand)),
            ("instances", .array(instances.map(\.json))),
        ])
    }
}
