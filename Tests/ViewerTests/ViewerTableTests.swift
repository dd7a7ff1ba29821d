import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceStore

@testable import TraceExport
@testable import TraceModel

/// The request table, driven in headless Chromium as a reader would: sorted, filtered, clicked,
/// and in step with the timeline's selection. Every expectation is computed from the store.
@Suite("Viewer request table", .serialized)
struct ViewerTableTests {
    static let planner = repositoryRoot + "/tracefiles/planner/run-1.sqlite"

    /// The ids of the rows the table shows, in order, and the id of the row marked selected.
    private func rows(_ page: DOM) -> (ids: [String], selected: [String]) {
        let dom = page.html
        let row = try! NSRegularExpression(pattern: #"<tr data-id="(\d+)" data-run="\d+"( class="selected")?>"#)
        var ids: [String] = []
        var selected: [String] = []
        for match in row.matches(in: dom, range: NSRange(dom.startIndex..., in: dom)) {
            let id = String(dom[Range(match.range(at: 1), in: dom)!])
            ids.append(id)
            if match.range(at: 2).location != NSNotFound { selected.append(id) }
        }
        return (ids, selected)
    }

    @Test("sorting by time to first token or latency orders the rows as the store's figures do")
    func sorts() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let html = directory.path("table.html")
        _ = try exportHTML([Self.planner], to: html)
        let requests = try StoreReader(path: Self.planner).requests()
        let byTTFT = requests.sorted { ($0.timeToFirstToken ?? 0, $0.ts) > ($1.timeToFirstToken ?? 0, $1.ts) }
        let dom = try Chromium.dumpDOM(html, fragment: "selftest=table,sort:ttft")
        #expect(rows(dom).ids == byTTFT.map { String($0.requestID) })
        #expect(dom.count("data-sort=\"ttft:desc\"") == 1)
        // A second click turns the order.
        let ascending = try Chromium.dumpDOM(html, fragment: "selftest=table,sort:latency,sort:latency")
        #expect(rows(ascending).ids.first == String(requests.min { $0.dur < $1.dur }!.requestID))
        #expect(rows(ascending).ids.count == requests.count)
    }

    @Test("a row click selects its request on the timeline, and a timeline click marks its row")
    func selectionBothWays() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let html = directory.path("table.html")
        _ = try exportHTML([Self.planner], to: html)
        let requests = try StoreReader(path: Self.planner).requests()
        let slowest = String(requests.max { $0.dur < $1.dur }!.requestID)
        let clicked = try Chromium.dumpDOM(html, fragment: "selftest=table,sort:latency,row:0")
        #expect(clicked.selfTest("data-selected") == "request:\(slowest)")
        #expect(rows(clicked).selected == [slowest])
        #expect(clicked.detail("duration") != nil)
        let fromTimeline = try Chromium.dumpDOM(html, fragment: "selftest=click:request:3,table")
        let chosen = try #require(fromTimeline.selfTest("data-clicked-id"))
        #expect(rows(fromTimeline).selected == [chosen])
    }

    @Test("filters keep the requests of one tool, one session, or the failed ones")
    func filters() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let store = directory.path("small.sqlite")
        try writeSmallStore(store)
        let html = directory.path("table.html")
        _ = try exportHTML([store], to: html)
        let reader = try StoreReader(path: store)
        let requests = try reader.requests()
        let calls = try reader.toolCalls()
        let withSearch = Set(calls.filter { $0.name == "searchNotes" }.compactMap(\.requestID))
        let tool = try Chromium.dumpDOM(html, fragment: "selftest=table,filter:tool:searchNotes")
        #expect(Set(rows(tool).ids) == Set(withSearch.map(String.init)) && !withSearch.isEmpty)
        let sessions = try reader.sessions()
        let writer = try #require(sessions.first { $0.label == "writer" })
        let session = try Chromium.dumpDOM(html, fragment: "selftest=table,filter:session:writer")
        #expect(Set(rows(session).ids) == Set(requests.filter { $0.sessionID == writer.sessionID }.map { String($0.requestID) }))
        let failed = try Chromium.dumpDOM(html, fragment: "selftest=table,failed")
        #expect(rows(failed).ids.count == requests.filter { $0.error != nil }.count)
        #expect(rows(try Chromium.dumpDOM(html, fragment: "selftest=table")).ids.count == requests.count)
    }

    @Test("filters keep the requests a finding kind is about, and those whose captured text has the words")
    func findingAndTextFilters() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let html = directory.path("table.html")
        _ = try exportHTML([Self.planner], to: html)
        let data = ViewerData.build([try TraceLoader.load(path: Self.planner)])
        let json = try JSONSerialization.jsonObject(with: Data(data.json.compact().utf8)) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]])
        let requestIDs = Set(try StoreReader(path: Self.planner).requests().map { String($0.requestID) })
        let calls = try StoreReader(path: Self.planner).toolCalls()
        let kind = "capped_answer"
        // A finding about a tool call counts for the request that made it.
        let about = Set(findings.filter { ($0["kind"] as? String) == kind }.flatMap { finding in
            ((finding["eventIDs"] as? [String]) ?? []).compactMap { id in
                requestIDs.contains(id) ? id : calls.first { String($0.toolCallID) == id }?.requestID.map { String($0) }
            }
        })
        try #require(!about.isEmpty && about.count < requestIDs.count)
        let capped = try Chromium.dumpDOM(html, fragment: "selftest=table,filter:finding:\(kind)")
        #expect(Set(rows(capped).ids) == about)

        let store = directory.path("captured.sqlite")
        let script = try StoreScript(path: store, label: "captured", capturePayloads: true)
        let session = script.session("agent", from: 0, to: 3_000)
        let tuesday = script.request(session: session, at: 10, dur: 500, ttft: 100, prompt: "Plan my Tuesday, please")
        let dentist = script.request(session: session, at: 1_000, dur: 500, ttft: 100, prompt: "And the rest of the week")
        script.toolCall(request: dentist, session: session, at: 1_600, dur: 50, name: "search", arguments: "dentist near me")
        script.request(session: session, at: 2_000, dur: 500, ttft: 100, prompt: "Thanks")
        script.close()
        let captured = directory.path("captured.html")
        _ = try exportHTML([store], to: captured)
        #expect(rows(try Chromium.dumpDOM(captured, fragment: "selftest=table,filter:text:tuesday")).ids == [String(tuesday)])
        #expect(rows(try Chromium.dumpDOM(captured, fragment: "selftest=table,filter:text:DENTIST")).ids == [String(dentist)])
        try Chromium.screenshot(html, fragment: "selftest=table,filter:finding:\(kind),sort:ttft",
                                to: screenshotDirectory + "/table-filtered.png")
        #expect(rows(try Chromium.dumpDOM(captured, fragment: "selftest=table")).ids.count == 3)
        // Without captured text there is nothing to search: no text filter.
        #expect(try Chromium.dumpDOM(html, fragment: "selftest=table").count("id=\"filter-text\"") == 0)
    }
}
