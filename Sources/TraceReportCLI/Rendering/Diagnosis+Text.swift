import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel

extension Diagnosis {
    /// How `check` lists the findings: groups up to `limit`, each group's instances with `expand`,
    /// the groups within noise with `all`.
    package struct Listing {
        package var limit: Int
        package var expand: Bool
        package var all: Bool

        package init(limit: Int = 20, expand: Bool = false, all: Bool = false) {
            self.limit = limit
            self.expand = expand
            self.all = all
        }
    }

    /// One line per group of findings, ranked, each with the command that shows it in detail;
    /// the groups within noise listed apart, below, or counted.
    package func text(_ listing: Listing = Listing()) -> String {
        let names = stores.map(TerminalText.sanitized).joined(separator: ", ")
        guard !findings.isEmpty else {
            return "\(names): no findings\n" + notes.map { "note: \($0)\n" }.joined() + costNote
        }
        let real = groups.filter { $0.severity != .noise }
        let noise = groups.filter { $0.severity == .noise }
        var out =
            "\(names): \(Format.count(Int64(findings.count))) finding" + (findings.count == 1 ? "" : "s")
            + " in \(Format.count(Int64(groups.count))) group" + (groups.count == 1 ? "" : "s")
            + ", most costly first (time, then tokens)\n"
        out += section(real, listing)
        if !noise.isEmpty {
            let instances = noise.reduce(0) { $0 + $1.count }
            if listing.all {
                out += "\nWithin noise (docs/trace-report.md#noise):\n"
                out += section(noise, listing)
            } else {
                out += "\nwithin noise, listed apart: \(Format.count(Int64(noise.count))) group"
                    + (noise.count == 1 ? "" : "s") + " of \(Format.count(Int64(instances))) finding"
                    + (instances == 1 ? "" : "s") + " (--all lists them)\n"
            }
        }
        for note in notes { out += "note: \(note)\n" }
        return out + costNote
    }

    /// A table of `groups` up to the listing's limit, and how many more there are.
    private func section(_ groups: [FindingGroup], _ listing: Listing) -> String {
        let limit = listing.limit
        guard !groups.isEmpty else { return "" }
        var columns: [(String, TextTable.Alignment)] = [
            ("time", .right), ("tokens", .right), ("finding", .left), ("detail", .left),
        ]
        if prices != nil { columns.insert(("cost", .right), at: 2) }
        var table = TextTable(columns)
        func add(_ cost: Finding.Cost, _ text: String, _ detail: String) {
            var cells = [
                cost.time > 0 ? Format.duration(cost.time) : "-",
                cost.tokens > 0 ? Format.count(cost.tokens) : "-",
                text, TerminalText.sanitized(detail),
            ]
            if prices != nil { cells.insert(PriceTable.dollars(cost.dollars), at: 2) }
            table.add(cells)
        }
        for group in groups.prefix(limit) {
            add(group.cost, Self.line(group), group.first.detailCommand)
            guard listing.expand, group.count > 1 else { continue }
            for finding in group.instances {
                add(finding.cost, "  " + Self.line(finding), "")
            }
        }
        var out = "\n" + table.rendered()
        if groups.count > limit {
            out += "and \(Format.count(Int64(groups.count - limit))) more group"
                + (groups.count - limit == 1 ? "" : "s") + " (--limit N lists more)\n"
        }
        return out
    }

    /// `cache_break ×3,120 [planner] profile switch over 1 h 2 min: …`, or one finding's line.
    private static func line(_ group: FindingGroup) -> String {
        guard group.count > 1 else { return line(group.first) }
        var text = "\(group.kind.rawValue) ×\(Format.count(Int64(group.count))) ["
            + TerminalText.fitted(group.first.sessionLabel, width: 24) + "]"
        if !group.first.subject.isEmpty { text += " " + TerminalText.sanitized(group.first.subject) }
        text += " over \(Format.duration(group.last.ts &- group.first.ts)); first: "
            + TerminalText.sanitized(group.first.summary)
        return TerminalText.fitted(text, width: 160)
    }

    /// `kind [session turn requests] summary`.
    private static func line(_ finding: Finding) -> String {
        var place = TerminalText.fitted(finding.sessionLabel, width: 24)
        if let turn = finding.turnIndex { place += " turn \(turn + 1)" }
        place += " " + finding.requestIDs.map(ShortID.record).joined(separator: ",")
        return "\(finding.kind.rawValue) [\(place)] " + TerminalText.sanitized(finding.summary)
    }

    /// Where the dollars come from, or that there are none; how many findings have no price.
    var costNote: String {
        guard let prices else { return "cost: no prices given (--prices FILE)\n" }
        let priced = findings.compactMap(\.cost.dollars)
        let total = priced.reduce(0, +)
        let unpriced = findings.count - priced.count
        return "cost: \(PriceTable.dollars(total)) over the \(Format.count(Int64(priced.count))) priced findings"
            + (unpriced > 0 ? " (\(Format.count(Int64(unpriced))) without a price)" : "")
            + " (overlapping findings counted in each), dollars per million tokens from "
            + "\(TerminalText.sanitized(prices.path))\n"
    }
}
