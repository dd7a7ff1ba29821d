import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceAnalysis
import TraceExport
import TraceModel
import TraceScenarios
import TraceStore

/// Exports opened in real headless Chromium; what the page shows is read back from its DOM.
///
/// One browser at a time: the machine has two cores and each page takes one.
@Suite("Viewer in Chromium", .serialized)
struct ViewerBrowserTests {
    /// Writes the small store, exports it and returns the paths.
    private func smallExport(_ directory: TemporaryDirectory) throws -> (store: String, html: String) {
        let store = directory.path("small.sqlite")
        try writeSmallStore(store)
        let html = directory.path("small.html")
        _ = try exportHTML([store], to: html)
        return (store, html)
    }

    @Test("request bars, tool bars and handoff markers equal the store's rows")
    func countsMatchStore() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let (store, html) = try smallExport(directory)
        let counts = try StoreCounts(store)
        let dom = try Chromium.dumpDOM(html)
        #expect(dom.body("data-status") == "ready")
        #expect(dom.events("request") == counts.requests)
        #expect(dom.events("tool") == counts.toolCalls)
        #expect(dom.events("handoff") == counts.handoffs)
        #expect(dom.events("interval") == counts.intervals)
        // The first frame shows the whole run, so the canvas drew every one of them.
        #expect(dom.canvas("data-drawn-request") == counts.requests)
        #expect(dom.canvas("data-drawn-tool") == counts.toolCalls)
        #expect(dom.canvas("data-drawn-handoff") == counts.handoffs)
        // Lanes: two sessions and the requests made outside any.
        #expect(dom.events("session") == 3)
        #expect(dom.html.contains(">session outside any session</li>"))

        // The header's figures are the summary report's: of TTFTs 70, 95, 123 and 380 ms, and of
        // 1,600 cached input tokens out of 2,934.
        let summary = SummaryReport.compute(trace: try TraceLoader.load(path: store)).runs[0]
        #expect(summary.ttftP50 == 95_000_000)
        #expect(summary.ttftP95 == 380_000_000)
        #expect(dom.html.contains("TTFT p50</span><span class=\"value\">95.0 ms</span>"))
        #expect(dom.html.contains("TTFT p95</span><span class=\"value\">380 ms</span>"))
        #expect(dom.html.contains("cache hit</span><span class=\"value\">55%</span>"))
    }

    @Test("the checked-in scenario stores open with every event and finding",
          arguments: Scenario.allCases)
    func scenarioStores(_ scenario: Scenario) throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let store = repositoryRoot + "/tracefiles/scenarios/" + scenario.fileName
        try #require(FileManager.default.fileExists(atPath: store), "tracefiles/scenarios/\(scenario.fileName) missing")
        let directory = try TemporaryDirectory()
        let html = directory.path(scenario.rawValue + ".html")
        _ = try exportHTML([store], to: html)
        let counts = try StoreCounts(store)
        let dom = try Chromium.dumpDOM(html)
        #expect(dom.events("request") == counts.requests)
        #expect(dom.events("tool") == counts.toolCalls)
        #expect(dom.events("handoff") == counts.handoffs)
        #expect(dom.canvas("data-drawn-request") == counts.requests)
        #expect(dom.canvas("data-drawn-tool") == counts.toolCalls)
        #expect(dom.canvas("data-drawn-handoff") == counts.handoffs)
        let trace = try TraceLoader.load(path: store)
        // The page lists the groups of findings `trace-report check` gives, one button each: a
        // finding's own for a group of one, the group's for a larger one.
        let groups = FindingGroup.grouping(Diagnosis.analyze([trace]).findings)
        #expect(dom.count("<button class=\"finding\"") == groups.count { $0.count == 1 })
        #expect(dom.count("<button class=\"finding-group\"") == groups.count { $0.count > 1 })
        try Chromium.screenshot(html, to: screenshotDirectory + "/scenario-\(scenario.rawValue).png")
    }

    @Test("a real planner run, recorded from SmolLM2, opens with every request, tool call and handoff")
    func plannerRun() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let store = repositoryRoot + "/tracefiles/planner/run-1.sqlite"
        try #require(FileManager.default.fileExists(atPath: store), "tracefiles/planner/run-1.sqlite missing")
        let directory = try TemporaryDirectory()
        let html = directory.path("planner.html")
        _ = try exportHTML([store], to: html)
        let counts = try StoreCounts(store)
        #expect(counts.requests > 0 && counts.toolCalls > 0 && counts.handoffs > 0)
        let dom = try Chromium.dumpDOM(html)
        #expect(dom.events("request") == counts.requests)
        #expect(dom.events("tool") == counts.toolCalls)
        #expect(dom.events("handoff") == counts.handoffs)
        #expect(dom.canvas("data-drawn-request") == counts.requests)
        #expect(dom.canvas("data-drawn-tool") == counts.toolCalls)
        #expect(dom.canvas("data-drawn-handoff") == counts.handoffs)
        // Before issue 16 (main's viewer): planner-run-before.png beside these, made by hand.
        try Chromium.screenshot(html, to: screenshotDirectory + "/planner-run-after.png")
        try Chromium.screenshot(html, fragment: "selftest=finding:1", to: screenshotDirectory + "/planner-run-finding.png")
    }

    @Test("clicking a request shows its figures as the store holds them")
    func clickRequest() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let (store, html) = try smallExport(directory)
        let request = try #require(try StoreReader(path: store).requests().first)
        let dom = try Chromium.dumpDOM(html, fragment: "selftest=click:request:0")
        #expect(dom.selfTest("data-status") == "done")
        #expect(dom.selfTest("data-clicked-kind") == "request")
        #expect(dom.selfTest("data-clicked-id") == String(request.requestID))
        #expect(dom.detail("id") == String(request.requestID))
        #expect(dom.detail("session") == "planner")
        #expect(dom.detail("model") == request.model)
        // writeSmallStore's first request: 900 ms, TTFT 123 ms, 41 tokens out, 4,936 prompt bytes.
        #expect(dom.detail("TTFT") == "123 ms")
        #expect(dom.detail("duration") == "900 ms")
        #expect(dom.detail("generating") == "777 ms")
        // 40 tokens after the first in 0.777 s.
        #expect(dom.detail("rate") == "51.5 tok/s")
        #expect(dom.detail("input tokens") == "1,234")
        #expect(dom.detail("cached tokens") == "1,000")
        #expect(dom.detail("output tokens") == "41")
        #expect(dom.detail("prompt size") == "4.8 KiB")
        #expect(dom.detail("prefix reuse") == "4 of 6 entries")
        #expect(dom.detail("cache hit") == "81%")
        try Chromium.screenshot(html, fragment: "selftest=click:request:0", to: screenshotDirectory + "/small-request.png")
    }

    @Test("clicking a tool call shows its name, fingerprint, sizes and outcome")
    func clickToolCall() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let (store, html) = try smallExport(directory)
        let calls = try StoreReader(path: store).toolCalls()
        // writeSmallStore's tool calls, in time order: name, fingerprint, duration, output and
        // argument sizes, outcome.
        let expected = [
            ("searchNotes", "1c2d3e4f5a6b7c8d", "140 ms", "2.0 KiB", "27 B", "ok"),
            ("getCalendar", "9f86d081884c7d65", "150 ms", "512 B", "24 B", "error"),
            ("saveDraft", "9f86d081884c7d65", "60.0 ms", "512 B", "24 B", "ok"),
        ]
        try #require(calls.count == expected.count)
        for (index, (call, shown)) in zip(calls, expected).enumerated() {
            let dom = try Chromium.dumpDOM(html, fragment: "selftest=click:tool:\(index)")
            #expect(dom.selfTest("data-clicked-id") == String(call.toolCallID))
            #expect(dom.detail("name") == shown.0)
            #expect(dom.detail("fingerprint") == shown.1)
            #expect(dom.detail("duration") == shown.2)
            #expect(dom.detail("output size") == shown.3)
            #expect(dom.detail("arguments size") == shown.4)
            #expect(dom.detail("outcome") == shown.5)
        }
    }

    @Test("clicking a handoff marker names what changed, from and to")
    func clickHandoff() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let (_, html) = try smallExport(directory)
        let dom = try Chromium.dumpDOM(html, fragment: "selftest=click:handoff:0")
        #expect(dom.selfTest("data-clicked-kind") == "handoff")
        #expect(dom.detail("kind") == "model")
        #expect(dom.detail("from") == "smollm2-135m")
        #expect(dom.detail("to") == "smollm2-360m")
    }

    @Test("zooming in with keys and the wheel narrows the view; 0 shows everything again")
    func zoomAndPan() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let (store, html) = try smallExport(directory)
        let counts = try StoreCounts(store)
        let full = try Chromium.dumpDOM(html)
        let fullSpan = try span(full)
        let zoomed = try Chromium.dumpDOM(html, fragment: "selftest=key:%2B,key:%2B,key:%2B,key:ArrowLeft")
        #expect(try span(zoomed) < fullSpan / 7)
        #expect(try #require(zoomed.canvas("data-drawn-request")) < counts.requests)
        let wheeled = try Chromium.dumpDOM(html, fragment: "selftest=wheel:-400,wheel:-400")
        #expect(try span(wheeled) < fullSpan / 2)
        let reset = try Chromium.dumpDOM(html, fragment: "selftest=key:%2B,key:%2B,key:0")
        #expect(try span(reset) == fullSpan)
        #expect(reset.canvas("data-drawn-request") == counts.requests)
    }

    private func span(_ dom: DOM) throws -> Int {
        let start = try #require(dom.canvas("data-view-start"))
        let end = try #require(dom.canvas("data-view-end"))
        return end - start
    }

    @Test("a finding highlights exactly its events and selects the first")
    func findingHighlightsEvents() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let store = repositoryRoot + "/tracefiles/scenarios/" + Scenario.toolLoop.fileName
        let directory = try TemporaryDirectory()
        let html = directory.path("tool-loop.html")
        _ = try exportHTML([store], to: html)
        let data = ViewerData.build([try TraceLoader.load(path: store)])
        let json = try JSONSerialization.jsonObject(with: Data(data.json.compact().utf8)) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]])
        try #require(!findings.isEmpty)
        for (index, finding) in findings.enumerated() {
            let expected = Set(try #require(finding["eventIDs"] as? [String]))
            let dom = try Chromium.dumpDOM(html, fragment: "selftest=finding:\(index)")
            let highlighted = Set((dom.selfTest("data-highlighted") ?? "").split(separator: " ").map(String.init))
            #expect(highlighted == expected)
            #expect(dom.html.contains("class=\"finding active\" type=\"button\" data-index=\"\(index)\""))
        }
        try Chromium.screenshot(html, fragment: "selftest=finding:0", to: screenshotDirectory + "/tool-loop-finding.png")
    }

    @Test("two stores are shown one above the other on the same time scale, as A and B, their findings tagged")
    func diffOfTwoStores() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let (small, _) = try smallExport(directory)
        let other = repositoryRoot + "/tracefiles/scenarios/" + Scenario.modelSwitch.fileName
        let html = directory.path("diff.html")
        _ = try exportHTML([small, other], to: html)
        let dom = try Chromium.dumpDOM(html, fragment: "selftest=click:request:1:1")
        let first = try StoreCounts(small)
        let second = try StoreCounts(other)
        #expect(dom.count("<div class=\"summary-run\" data-run=\"0\"") == 1)
        #expect(dom.count("<div class=\"summary-run\" data-run=\"1\"") == 1)
        #expect(dom.events("request") == first.requests + second.requests)
        #expect(dom.events("handoff") == first.handoffs + second.handoffs)
        #expect(dom.count("<li data-kind=\"request\" data-id=") == first.requests + second.requests)
        #expect(dom.count("data-run=\"1\">request ") == second.requests)
        // The click went to the second run's second request.
        let request = try StoreReader(path: other).requests()[1]
        #expect(dom.selfTest("data-clicked-id") == String(request.requestID))
        #expect(request.timeToFirstToken == 25_000_000)
        #expect(dom.detail("TTFT") == "25.0 ms")
        // The runs are told apart: a letter, the store's file and the run.
        let runA = try #require(try StoreReader(path: small).runs().first).runID
        let runB = try #require(try StoreReader(path: other).runs().first).runID
        #expect(dom.count("<span id=\"runs-title\">A · small.sqlite · small (run \(String(String(runA).suffix(8))))") == 1)
        #expect(dom.count("  vs  B · \(Scenario.modelSwitch.fileName) · ") == 1)
        // In the title and in its row of figures.
        #expect(dom.count("(run \(String(String(runB).suffix(8))))</span>") == 2)
        // Each finding names its run, and whether the other run has one of its kind on its subject.
        let findings = try [small, other].map { path in
            Diagnosis.analyze([try TraceLoader.load(StoreReader(path: path))]).findings
        }
        let keysA = Set(findings[0].map { "\($0.kind.rawValue) \($0.subject)" })
        let keysB = Set(findings[1].map { "\($0.kind.rawValue) \($0.subject)" })
        let newInB = findings[1].filter { !keysA.contains("\($0.kind.rawValue) \($0.subject)") }.count
        let onlyInA = findings[0].filter { !keysB.contains("\($0.kind.rawValue) \($0.subject)") }.count
        #expect(!findings[0].isEmpty && !findings[1].isEmpty)
        #expect(dom.count("data-run=\"B\" data-compared=\"new in B\"") == newInB)
        #expect(dom.count("data-run=\"B\" data-compared=\"also in A\"") == findings[1].count - newInB)
        #expect(dom.count("data-run=\"A\" data-compared=\"not in B\"") == onlyInA)
        #expect(dom.count("data-run=\"A\" data-compared=\"also in B\"") == findings[0].count - onlyInA)
        // A run against itself: every finding is in both.
        let same = directory.path("same.html")
        _ = try exportHTML([other, other], to: same)
        let twice = try Chromium.dumpDOM(same)
        #expect(twice.count("data-run=\"B\" data-compared=\"also in A\"") == findings[1].count)
        #expect(twice.count("data-run=\"A\" data-compared=\"also in B\"") == findings[1].count)
        #expect(twice.count("data-compared=\"new in B\"") == 0)
        try Chromium.screenshot(html, to: screenshotDirectory + "/diff.png")
    }
}
