import LatencyGate
import Reproducible
import TraceModel

/// The gate's outputs: a table for people, Markdown for a PR comment or the job summary, JUnit
/// XML for test reporters, and GitHub workflow-command annotations.
extension GateEvaluation {
    private func cells(_ row: Row) -> [String] {
        let metric = row.key.metric
        let change: String
        if row.key.statistic == .new {
            change = row.newFindings.isEmpty ? "none new" : "+\(row.newFindings.count) new"
        } else {
            change = metric.formatDelta(row.delta)
        }
        let interval = row.interval.map { "\(metric.formatDelta($0.lower)) .. \(metric.formatDelta($0.upper))" } ?? "-"
        return [
            TerminalText.sanitized(row.group.description), row.key.description, metric.format(row.baselineValue),
            metric.format(row.currentValue), change, interval, row.budget.limitText,
            (row.verdict == .regression ? "REGRESSION" : row.verdict.rawValue) + (row.restated ? " (restated)" : ""),
        ]
    }

    private static let headers = ["scenario", "metric", "baseline", "current", "change", "95% CI", "budget", "verdict"]

    /// A plain table, one row per scenario and metric, then the notes and the verdict.
    package var text: String {
        let table = [Self.headers] + rows.map(cells)
        var widths = Array(repeating: 0, count: Self.headers.count)
        for line in table { for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) } }
        var out = ""
        for line in table {
            out += line.enumerated().map { index, cell in
                index >= 2 && index <= 4 ? TerminalText.rightAligned(cell, widths[index]) : TerminalText.padded(cell, widths[index])
            }.joined(separator: "  ").trimmingTrailingSpaces + "\n"
        }
        for note in notes { out += "note: \(TerminalText.sanitized(note))\n" }
        out += summaryLine + "\n"
        for row in regressions {
            out += "regression: \(TerminalText.sanitized(row.group.description)): \(TerminalText.sanitized(row.message))\n"
        }
        return out
    }

    /// `gate: PASS (...)` or `gate: FAIL, 2 regressions (...)`.
    package var summaryLine: String {
        let groups = Set(rows.map(\.group)).count
        let noise = rows.filter { $0.verdict == .noise }.count
        let incomparable = rows.filter { $0.verdict == .notComparable }.count
        let tail = "\(groups) scenario\(groups == 1 ? "" : "s"), \(rows.count) checks"
            + (noise > 0 ? ", \(noise) beyond budget but within noise" : "")
            + (incomparable > 0 ? ", \(incomparable) beyond budget but not comparable" : "")
        return passed ? "gate: PASS (\(tail))" : "gate: FAIL, \(regressions.count) regression\(regressions.count == 1 ? "" : "s") (\(tail))"
    }

    /// GitHub-flavoured Markdown: a heading with the verdict, the regressions, then every check.
    package var markdown: String {
        var out = passed ? "### ✅ Latency gate passed\n\n" : "### ❌ Latency gate failed\n\n"
        out += summaryLine.replacingOccurrencesOfGate + "\n\n"
        if !regressions.isEmpty {
            for row in regressions {
                out += "- **\(Self.markdownEscaped(row.group.description))**: \(Self.markdownEscaped(row.message))\n"
            }
            out += "\n"
        }
        out += "| " + Self.headers.joined(separator: " | ") + " |\n"
        out += "|" + Self.headers.enumerated().map { index, _ in index >= 2 && index <= 4 ? " ---: " : " --- " }
            .joined(separator: "|") + "|\n"
        for row in rows {
            var line = cells(row).map(Self.markdownEscaped)
            if row.verdict == .regression { line[7] = "**REGRESSION**" + (row.restated ? " (restated)" : "") }
            out += "| " + line.joined(separator: " | ") + " |\n"
        }
        if !notes.isEmpty {
            out += "\n" + notes.map { "- " + Self.markdownEscaped($0) }.joined(separator: "\n") + "\n"
        }
        return out
    }

    /// JUnit XML: one test suite per scenario, one test case per metric, a failure per regression.
    /// Valid against the common JUnit schema (Jenkins' junit-4.xsd), with the `errors` count that
    /// Ant's schema requires on every suite: always 0, as the gate reports no test that could
    /// not run (bad input stops it before any output).
    package var junit: String {
        let groups = Dictionary(grouping: rows, by: \.group)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"trace-report gate\" tests=\"\(rows.count)\" failures=\"\(regressions.count)\" "
            + "errors=\"0\">\n"
        for key in groups.keys.sorted() {
            let cases = groups[key]!
            let failures = cases.filter { $0.verdict == .regression }.count
            let skipped = cases.filter { $0.verdict == .noData || $0.verdict == .notComparable }.count
            out += "  <testsuite name=\"\(Self.xmlEscaped(key.description))\" tests=\"\(cases.count)\" "
                + "failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
            for row in cases {
                out += "    <testcase classname=\"\(Self.xmlEscaped(key.description))\" name=\"\(Self.xmlEscaped(row.key.description))\""
                switch row.verdict {
                case .regression:
                    out += ">\n      <failure message=\"\(Self.xmlEscaped(row.message))\" type=\"regression\"/>\n    </testcase>\n"
                case .noData:
                    out += ">\n      <skipped>no data</skipped>\n    </testcase>\n"
                case .notComparable:
                    out += ">\n      <skipped message=\"\(Self.xmlEscaped("not comparable: " + row.message))\"/>\n    </testcase>\n"
                case .noise:
                    out += ">\n      <system-out>\(Self.xmlEscaped("beyond budget but within noise: " + row.message))"
                        + "</system-out>\n    </testcase>\n"
                case .pass:
                    out += "/>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// GitHub Actions workflow commands: `::error` per regression, `::warning` per check beyond
    /// its budget but within noise or not comparable, and per scenario whose workload differs,
    /// and a `::notice` with the verdict.
    package var githubAnnotations: String {
        var out = ""
        for row in rows where [.regression, .noise, .notComparable].contains(row.verdict) {
            let level = row.verdict == .regression ? "error" : "warning"
            let title = row.key.metric.title
                + (row.verdict == .regression ? " regression: "
                    : row.verdict == .noise ? " beyond budget, within noise: " : " beyond budget, not comparable: ")
                + "\(row.group) \(row.key)"
            out += "::\(level) title=\(Self.githubProperty(title))::\(Self.githubData(row.message))\n"
        }
        for workload in workloads where workload.kind != .same {
            guard let line = workload.line else { continue }
            let title = "Workload differs: \(workload.key)"
            out += "::warning title=\(Self.githubProperty(title))::\(Self.githubData(line))\n"
        }
        out += "::notice title=\(Self.githubProperty("trace-report gate"))::\(Self.githubData(summaryLine))\n"
        return out
    }

    package static func xmlEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case _ where scalar.value < 0x20 && scalar != "\n" && scalar != "\t": out += "?"
            case _ where TerminalText.isUnsafe(scalar) && scalar != "\n" && scalar != "\t": out += "?"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    package static func markdownEscaped(_ text: String) -> String {
        var out = ""
        for character in TerminalText.sanitized(text) {
            if "|\\`*_[]<>".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// Workflow-command data: `%`, CR and LF escaped, so a label cannot end the command early.
    package static func githubData(_ text: String) -> String {
        var out = ""
        for character in TerminalText.sanitized(text) {
            switch character {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.append(character)
            }
        }
        return out
    }

    /// Workflow-command property values also escape `:` and `,`.
    package static func githubProperty(_ text: String) -> String {
        githubData(text).replacingColonsAndCommas
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }

    fileprivate var replacingColonsAndCommas: String {
        var out = ""
        for character in self {
            switch character {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.append(character)
            }
        }
        return out
    }

    fileprivate var replacingOccurrencesOfGate: String {
        hasPrefix("gate: ") ? String(dropFirst(6)) : self
    }
}
