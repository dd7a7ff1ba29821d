import Reproducible
import SessionTrace
import TraceAnalysis
import TraceModel

extension Diagnosis {
    /// One line per finding, ranked, each with the command that shows it in detail.
    package var text: String {
        let names = stores.map(TerminalText.sanitized).joined(separator: ", ")
        guard !findings.isEmpty else {
            return "\(names): no findings\n" + notes.map { "note: \($0)\n" }.joined() + costNote
        }
        var out =
            "\(names): \(findings.count) finding" + (findings.count == 1 ? "" : "s")
            + ", most costly first (time, then tokens)\n\n"
        var columns: [(String, TextTable.Alignment)] = [
            ("time", .right), ("tokens", .right), ("finding", .left), ("detail", .left),
        ]
        if prices != nil { columns.insert(("cost", .right), at: 2) }
        var table = TextTable(columns)
        for finding in findings {
            var place = TerminalText.fitted(finding.sessionLabel, width: 24)
            if let turn = finding.turnIndex { place += " turn \(turn + 1)" }
            place += " " + finding.requestIDs.map(ShortID.record).joined(separator: ",")
            var cells = [
                finding.cost.time > 0 ? Format.duration(finding.cost.time) : "-",
                finding.cost.tokens > 0 ? Format.count(finding.cost.tokens) : "-",
                "\(finding.kind.rawValue) [\(place)] " + TerminalText.sanitized(finding.summary),
                TerminalText.sanitized(finding.detailCommand),
            ]
            if prices != nil { cells.insert(PriceTable.dollars(finding.cost.dollars), at: 2) }
            table.add(cells)
        }
        out += table.rendered()
        for note in notes { out += "note: \(note)\n" }
        return out + costNote
    }

    /// Where the dollars come from, or that there are none.
    var costNote: String {
        guard let prices else { return "cost: no prices given (--prices FILE)\n" }
        let total = findings.compactMap(\.cost.dollars).reduce(0, +)
        return "cost: \(PriceTable.dollars(total)) over the findings (overlapping findings counted in each), "
            + "dollars per million tokens from \(TerminalText.sanitized(prices.path))\n"
    }
}
