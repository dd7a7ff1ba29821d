import LatencyGate
import Reproducible
import TraceModel

extension RunComparison {
    package var text: String {
        var out = "A: \(TerminalText.sanitized(a.sources.joined(separator: ", ")))\n"
        out += "B: \(TerminalText.sanitized(b.sources.joined(separator: ", ")))\n"
        let headers = ["metric", "A", "B", "delta", "change", "95% CI of B - A", "beyond noise"]
        for key in samples.keys.sorted() {
            let (left, right) = samples[key]!
            out += "\n\(TerminalText.sanitized(key.description))  (A \(left) requests, B \(right))\n"
            var table = [headers]
            for row in rows where row.group == key {
                let metric = row.key.metric
                var change = "-"
                if let a = row.a, let delta = row.delta, a != 0 {
                    change = (delta >= 0 ? "+" : "-") + Format.fixed(abs(delta / a) * 100, 1) + "%"
                }
                table.append([
                    row.key.description, metric.format(row.a), metric.format(row.b), metric.formatDelta(row.delta), change,
                    row.interval.map { "\(metric.formatDelta($0.lower)) .. \(metric.formatDelta($0.upper))" } ?? "-",
                    row.interval == nil ? "-" : (row.beyondNoise ? "yes" : "no"),
                ])
            }
            var widths = Array(repeating: 0, count: headers.count)
            for line in table { for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) } }
            for line in table {
                out += "  " + line.enumerated().map { index, cell in
                    index >= 1 && index <= 4 ? TerminalText.rightAligned(cell, widths[index]) : TerminalText.padded(cell, widths[index])
                }.joined(separator: "  ").trimmingTrailingSpaces + "\n"
            }
        }
        for key in onlyInA { out += "\nonly in A: \(TerminalText.sanitized(key.description))\n" }
        for key in onlyInB { out += "\nonly in B: \(TerminalText.sanitized(key.description))\n" }
        if samples.isEmpty { out += "\nno scenario is in both A and B\n" }
        return out
    }
}
