import Foundation
import LatencyGate
import TestSupport
import Testing

@testable import TraceModel

/// A two-store export shows `trace-report diff`'s table beside the timeline: the same figures and
/// intervals, from the same code. Read back from real headless Chromium.
@Suite("Viewer diff panel", .serialized)
struct ViewerDiffPanelTests {
    static let first = repositoryRoot + "/tracefiles/planner/run-1.sqlite"
    static let second = repositoryRoot + "/tracefiles/planner/run-2.sqlite"

    @Test("two stores: the panel holds diff's rows, figures and intervals, the changes beyond noise marked")
    func diffTable() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let html = directory.path("ab.html")
        _ = try exportHTML([Self.first, Self.second], to: html)
        let comparison = RunComparison.compare(
            LatencyBaseline.make(traces: [try TraceLoader.load(path: Self.first)], grouping: .label),
            LatencyBaseline.make(traces: [try TraceLoader.load(path: Self.second)], grouping: .label))
        try #require(!comparison.rows.isEmpty)
        let dom = try Chromium.dumpDOM(html)
        #expect(dom.attribute("hidden", of: "id=\"compare\"") == nil)
        #expect(dom.count("<tr data-metric=") == comparison.rows.count)
        #expect(dom.count("<tr data-metric=\"") - dom.count("class=\"beyond-noise\"")
            == comparison.rows.filter { !$0.beyondNoise }.count)
        for row in comparison.rows {
            let marker = "data-metric=\"\(row.key.description)\" data-a=\"\(number(row, row.a))\""
            #expect(dom.html.contains(marker), "no row \(marker)")
            if let interval = row.interval {
                #expect(dom.html.contains("data-lower=\"\(number(row, interval.lower))\" data-upper=\"\(number(row, interval.upper))\""))
            }
        }
        #expect(dom.html.contains("(\(comparison.rows.filter(\.beyondNoise).count) beyond noise)"))
        try Chromium.screenshot(html, to: screenshotDirectory + "/compare-panel.png")

        // One store: no panel.
        let single = directory.path("one.html")
        _ = try exportHTML([Self.first], to: single)
        #expect(try Chromium.dumpDOM(single).attribute("hidden", of: "id=\"compare\"") == "")
    }

    /// A figure as the page writes it: JavaScript's shortest form of the exported number (durations
    /// are whole nanoseconds in the export).
    private func number(_ row: RunComparison.Row, _ value: Double?) -> String {
        guard let value else { return "" }
        if row.key.metric == .ttft || row.key.metric == .latency { return String(Int64(value.rounded())) }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
