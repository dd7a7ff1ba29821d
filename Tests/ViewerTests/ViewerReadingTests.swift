import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceScenarios
import TraceStore

@testable import TraceAnalysis
@testable import TraceExport
@testable import TraceModel

/// What a reader takes from the page: where the wait went, what each colour and shape means,
/// turns, findings on their bars, and the axis. Read back from real headless Chromium.
@Suite("Viewer reading", .serialized)
struct ViewerReadingTests {
    static let planner = repositoryRoot + "/tracefiles/planner/run-1.sqlite"

    private func export(_ stores: [String], _ directory: TemporaryDirectory) throws -> String {
        let html = directory.path("export.html")
        _ = try exportHTML(stores, to: html)
        return html
    }

    /// The store's requests in the order the viewer numbers them for `click:request:N`.
    private func requestsInViewerOrder(_ store: String) throws -> [RequestRecord] {
        try StoreReader(path: store).requests().sorted {
            ($0.ts, String($0.requestID)) < ($1.ts, String($1.requestID))
        }
    }

    @Test("the details panel splits TTFT into its parts, as the store has them; a part not reported says so")
    func splitWaitBar() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let html = try export([Self.planner], directory)
        let requests = try requestsInViewerOrder(Self.planner)
        let timed = requests.filter { $0.serverTimings?.promptDuration != nil && $0.timeToFirstToken != nil }
        #expect(timed.count == requests.count && !timed.isEmpty)
        let full = try Chromium.dumpDOM(html)
        #expect(full.canvas("data-drawn-split-wait") == timed.count)
        // The first, middle and last of run-1's 11 requests: TTFT 1,072,923,914 ns of which the
        // server's prompt took 1,018,550,000; 397,026,957 and 389,212,000; 135,225,524 and 128,086,999.
        let shown = [
            (0, "1.07 s", "1.02 s", "54.4 ms"), (5, "397 ms", "389 ms", "7.8 ms"), (10, "135 ms", "128 ms", "7.1 ms"),
        ]
        try #require(requests.count == 11)
        for (index, ttft, prompt, rest) in shown {
            let dom = try Chromium.dumpDOM(html, fragment: "selftest=click:request:\(index)")
            #expect(dom.selfTest("data-clicked-id") == String(requests[index].requestID))
            #expect(dom.detail("TTFT") == ttft)
            #expect(dom.detail("server prompt processing") == prompt)
            #expect(dom.detail("rest (send, network, client)") == rest)
            // This store predates the client's phases, and llama.cpp reports no queue.
            #expect(dom.detail("connect (client: DNS, TCP, TLS)") == "not reported")
            #expect(dom.detail("server queue or model load") == "not reported")
            #expect(dom.detail("first byte to first token") == "not reported")
        }
        // A store without server timings: one shade, and the panel says why; nothing guessed.
        let small = directory.path("small.sqlite")
        try writeSmallStore(small)
        let plain = try export([small], directory)
        let dom = try Chromium.dumpDOM(plain, fragment: "selftest=click:request:0")
        #expect(dom.canvas("data-drawn-split-wait") == 0)
        #expect(dom.detail("TTFT split") == "no server timings or client phases")
        #expect(dom.detail("server prompt processing") == nil)
        // Every part known: the client's phases, a server queue and its prompt, adding up to 500 ms.
        let parted = directory.path("parts.sqlite")
        let sink = try StoreSink(path: parted)
        let tracer = Tracer(sink: sink, label: "parts")
        tracer.record(
            .request(
                RequestRecord(
                    requestID: tracer.makeID(), ts: tracer.now(), dur: 2_000_000_000, timeToFirstToken: 500_000_000,
                    serverTimings: ServerTimings(
                        promptTokens: 10, cachedTokens: 0, promptDuration: 300_000_000, predictedTokens: 5,
                        predictedDuration: 1_000_000_000),
                    serverQueueDuration: 100_000_000,
                    clientPhases: ClientPhases(
                        nameResolved: 1_000_000, connected: 2_000_000, requestSent: 10_000_000, firstByte: 150_000_000))),
            kind: .request)
        sink.close()
        let parts = try Chromium.dumpDOM(try export([parted], directory), fragment: "selftest=click:request:0")
        #expect(parts.detail("connect (client: DNS, TCP, TLS)") == "10.0 ms")
        #expect(parts.detail("server queue or model load") == "100 ms")
        #expect(parts.detail("server prompt processing") == "300 ms")
        #expect(parts.detail("send and wait for the first byte") == "90.0 ms")
        #expect(parts.detail("first byte to first token") == "0 ns")
    }

    /// With the export given prices, the page shows money: each request's cost, as the CLI prices
    /// it, and the run's total in its row of figures.
    @Test("with --prices, a request's details and the run's figures show their cost in dollars")
    func costWithPrices() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let pricesPath = repositoryRoot + "/examples/prices.json"
        let html = directory.path("priced.html")
        _ = try exportHTML([Self.planner], to: html, options: ["--prices", pricesPath])
        let prices = try PriceTable.load(path: pricesPath)
        let requests = try requestsInViewerOrder(Self.planner)
        let dom = try Chromium.dumpDOM(html, fragment: "selftest=click:request:0")
        let first = try #require(prices.cost(of: requests[0]))
        #expect(first > 0)
        #expect(dom.detail("cost") == PriceTable.dollars(first))
        let total = requests.compactMap { prices.cost(of: $0) }.reduce(0, +)
        #expect(dom.count(">cost</span><span class=\"value\">\(PriceTable.dollars(total))</span>") == 1)
        // Per session, its requests' cost; per run, what the cache saved and what its breaks cost.
        let trace = try TraceLoader.load(path: Self.planner)
        for session in try StoreReader(path: Self.planner).sessions() {
            let cost = requests.filter { $0.sessionID == session.sessionID }.compactMap { prices.cost(of: $0) }.reduce(0, +)
            #expect(dom.html.contains("session \(session.label), cost \(PriceTable.dollars(cost)), cache saved"),
                    "no cost for session \(session.label)")
        }
        let saved = requests.compactMap { prices.cacheDollars(of: $0)?.saved }.reduce(0, +)
        let findings = Diagnosis.analyze([trace], prices: prices).findings
        let tax = findings.filter { [.cacheBreak, .chronicCacheBreak].contains($0.kind) }
            .compactMap(\.cost.dollars).reduce(0, +)
        #expect(saved > 0 && tax > 0)
        #expect(dom.html.contains(">cache</span><span class=\"value\">saved \(PriceTable.dollars(saved)) · break tax \(PriceTable.dollars(tax))</span>"))
        // Without prices, no cost anywhere.
        let plain = try Chromium.dumpDOM(try export([Self.planner], directory), fragment: "selftest=click:request:0")
        #expect(plain.detail("cost") == nil)
    }

    @Test("one meaning per colour: no two legend entries share one; failure is hatched in a colour of its own")
    func colourAndShapeTable() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let small = directory.path("small.sqlite")
        try writeSmallStore(small)
        let dom = try Chromium.dumpDOM(try export([small], directory))
        let entries = legend(dom)
        let styles = entries.map(\.style)
        for needed in ["waitRest", "waitPrompt", "waitWhole", "cached", "partCached", "uncached", "noCache",
                       "tool", "interval", "handoff", "failed", "finding", "noiseFinding", "selected", "turn",
                       "thinTool", "instructions"] {
            #expect(styles.contains(needed), "legend lacks \(needed)")
        }
        let colours = entries.map { $0.colour.lowercased() }
        #expect(Set(colours).count == colours.count, "legend colours repeat: \(colours)")
        let failed = try #require(entries.first { $0.style == "failed" })
        #expect(failed.shape == "hatch")
        // The data colours are the Okabe–Ito palette's, or greys; aggregate bands take Tol's teal
        // (also safe for colour-vision deficiencies), as Okabe–Ito has no ninth colour; the
        // instructions row's shades are light tints, under black labels.
        let okabeIto: Set<String> = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7",
                                     "#000000"]
        for entry in entries
        where !["waitRest", "waitWhole", "noCache", "finding", "noiseFinding", "selected", "turn", "band", "thinTool",
                "instructions", "bandP95"]
            .contains(entry.style) {
            #expect(okabeIto.contains(entry.colour.lowercased()), "\(entry.style) is \(entry.colour)")
        }
        // Every failed event is drawn as failed: the small store has one failed tool call.
        let failures = try StoreReader(path: small).toolCalls().filter { $0.outcome != .ok }.count
            + StoreReader(path: small).requests().filter { $0.error != nil }.count
        #expect(failures == 1)
        #expect(dom.canvas("data-drawn-failed") == failures)
    }

    private struct LegendEntry { var style: String; var colour: String; var shape: String }

    private func legend(_ dom: DOM) -> [LegendEntry] {
        dom.html.components(separatedBy: "<li data-style=\"").dropFirst().compactMap { chunk in
            let tag = String(chunk.prefix { $0 != ">" })
            let style = String(tag.prefix { $0 != "\"" })
            let probe = DOM(html: "<li data-style=\"" + tag + ">")
            guard let colour = probe.attribute("data-color", of: "data-style"),
                  let shape = probe.attribute("data-shape", of: "data-style") else { return nil }
            return LegendEntry(style: style, colour: colour, shape: shape)
        }
    }

    @Test("on fit the axis starts at the run's start, 0, and ends after its last event")
    func axisOnFit() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let html = try export([Self.planner], directory)
        for fragment in ["", "selftest=key:%2B,key:ArrowLeft,key:ArrowLeft,key:0"] {
            let dom = try Chromium.dumpDOM(html, fragment: fragment)
            #expect(dom.canvas("data-view-start") == 0)
            #expect(dom.html.contains("<p id=\"status\" role=\"status\">showing 0 ns – "))
        }
        // Panning left from the start stops at 0 too.
        let panned = try Chromium.dumpDOM(
            html, fragment: "selftest=key:%2B,key:ArrowLeft,key:ArrowLeft,key:ArrowLeft,key:ArrowLeft")
        #expect(panned.canvas("data-view-start") == 0)
    }

    @Test("each user turn is grouped with its total time, from the first request to the last tool call")
    func turnGroups() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let html = try export([Self.planner], directory)
        let run = try #require(try TraceLoader.load(path: Self.planner).runs.first)
        let turns = RunTurns(run).turns
        #expect(turns.count > 1 && turns.contains { $0.requests.count > 1 })
        let dom = try Chromium.dumpDOM(html)
        #expect(dom.events("turn") == turns.count)
        #expect(dom.canvas("data-drawn-turn") == turns.count)
        // run-1's turns, each from its first request's start to its last request's or tool call's
        // end: 4,931,478,762 ns, 4,162,610,132, 5,204,589,169, 4,848,893,404, 1,484,138,696,
        // 1,579,939,505, 363,173,283 and 1,410,061,206.
        let texts = [
            "2 requests, 1 tool calls, total 4.93 s", "2 requests, 1 tool calls, total 4.16 s",
            "2 requests, 1 tool calls, total 5.20 s", "1 requests, 0 tool calls, total 4.85 s",
            "1 requests, 0 tool calls, total 1.48 s", "1 requests, 0 tool calls, total 1.58 s",
            "1 requests, 0 tool calls, total 363 ms", "1 requests, 0 tool calls, total 1.41 s",
        ]
        #expect(turns.count == texts.count)
        for text in texts {
            #expect(dom.html.contains(text), "no turn reads \(text)")
        }
        // A request's panel names its turn and round.
        let clicked = try Chromium.dumpDOM(html, fragment: "selftest=click:request:1")
        let second = try requestsInViewerOrder(Self.planner)[1]
        let turn = try #require(turns.first { $0.requests.contains { $0.requestID == second.requestID } })
        let round = try #require(turn.requests.firstIndex { $0.requestID == second.requestID })
        #expect(clicked.detail("turn")?.contains("round \(round + 1) of \(turn.requests.count)") == true)
    }

    @Test("a tool call shorter than a pixel is drawn wider, says so, and can be clicked")
    func thinToolCalls() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let store = directory.path("thin.sqlite")
        let script = try StoreScript(path: store, label: "thin")
        let session = script.session("agent", from: 0, to: 4_000)
        let request = script.request(session: session, at: 10, dur: 3_900, ttft: 100)
        // 4 s over about a thousand pixels: a millisecond is a quarter of a pixel.
        script.toolCall(request: request, session: session, at: 200, dur: 400, name: "search")
        let thin = script.toolCall(request: request, session: session, at: 1_000, dur: 1, name: "lookup")
        script.close()
        let html = try export([store], directory)
        let dom = try Chromium.dumpDOM(html)
        #expect(dom.canvas("data-drawn-tool") == 2)
        #expect(dom.canvas("data-drawn-thin-tool") == 1)
        // The second tool call by time is the thin one: a click on where it is drawn selects it.
        let clicked = try Chromium.dumpDOM(html, fragment: "selftest=click:tool:1")
        #expect(clicked.selfTest("data-clicked-id") == String(thin))
    }

    @Test("the events a finding names are links, by short id, that select the event")
    func findingIDLinks() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let html = try export([Self.planner], directory)
        let data = ViewerData.build([try TraceLoader.load(path: Self.planner)])
        let json = try JSONSerialization.jsonObject(with: Data(data.json.compact().utf8)) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]])
        let groups = try #require(json?["findingGroups"] as? [[String: Any]])
        let requests = Set(try StoreReader(path: Self.planner).requests().map(\.requestID))
        // A finding listed alone (a group of one) that names two requests or more.
        let listed = groups.compactMap { ($0["findings"] as? [Any])?.count == 1 ? ($0["findings"] as? [Any])?.first : nil }
            .compactMap { ($0 as? Int) ?? ($0 as? String).flatMap(Int.init) }
        let index = try #require(listed.first { index in
            ((findings[index]["eventIDs"] as? [String]) ?? []).filter { Int64($0).map(requests.contains) ?? false }.count >= 2
        })
        let ids = try #require(findings[index]["eventIDs"] as? [String])
        let second = try #require(Int64(ids[1]))
        let page = try Chromium.dumpDOM(html, fragment: "selftest=idlink:\(index):1")
        #expect(page.selfTest("data-clicked-id") == ids[1])
        #expect(page.selfTest("data-selected") == "request:\(ids[1])")
        #expect(page.html.contains(">request #\(second & 0xFFFF_FFFF)</button>"))
    }

    @Test("findings are on their bars: a marker on each event, the panel lists them, a click zooms to them")
    func findingLinks() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let store = repositoryRoot + "/tracefiles/scenarios/" + Scenario.toolLoop.fileName
        let directory = try TemporaryDirectory()
        let html = try export([store], directory)
        let data = ViewerData.build([try TraceLoader.load(path: store)])
        let json = try JSONSerialization.jsonObject(with: Data(data.json.compact().utf8)) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]])
        try #require(!findings.isEmpty)
        let touched = Set(findings.flatMap { ($0["eventIDs"] as? [String]) ?? [] })
        let full = try Chromium.dumpDOM(html)
        #expect(full.canvas("data-drawn-finding-marker") == touched.count)
        let fullSpan = try #require(full.canvas("data-view-end")) - (try #require(full.canvas("data-view-start")))

        // Clicking a finding zooms to exactly its events.
        let first = Set(try #require(findings[0]["eventIDs"] as? [String]))
        let focused = try Chromium.dumpDOM(html, fragment: "selftest=finding:0")
        let highlighted = Set((focused.selfTest("data-highlighted") ?? "").split(separator: " ").map(String.init))
        #expect(highlighted == first)
        let start = try #require(focused.canvas("data-view-start"))
        let end = try #require(focused.canvas("data-view-end"))
        #expect(end - start < fullSpan)
        let trace = try TraceLoader.load(path: store)
        let runStart = trace.runs[0].startTime
        for request in trace.runs[0].requests where first.contains(String(request.requestID)) {
            #expect(request.ts - runStart >= Int64(start) && request.ts + request.dur - runStart <= Int64(end))
        }

        // The details panel of a request a finding is about lists that finding.
        let requests = try requestsInViewerOrder(store)
        let index = try #require(requests.firstIndex { touched.contains(String($0.requestID)) })
        let titles = findings.filter { (($0["eventIDs"] as? [String]) ?? []).contains(String(requests[index].requestID)) }
            .compactMap { $0["title"] as? String }
        let clicked = try Chromium.dumpDOM(html, fragment: "selftest=click:request:\(index)")
        let listed = clicked.selfTestText.split(separator: "\n").filter { $0.hasPrefix("finding: ") }
            .map { String($0.dropFirst("finding: ".count)) }
        #expect(listed == titles && !titles.isEmpty)
        try Chromium.screenshot(html, fragment: "selftest=click:request:\(index)",
                                to: screenshotDirectory + "/tool-loop-request-findings.png")
    }

    @Test("an event touched only by findings within noise gets a grey diamond, listed apart in the panel")
    func noiseMarkers() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let store = repositoryRoot + "/tracefiles/planner/run-1.sqlite"
        let directory = try TemporaryDirectory()
        let html = try export([store], directory)
        let data = ViewerData.build([try TraceLoader.load(path: store)])
        let json = try JSONSerialization.jsonObject(with: Data(data.json.compact().utf8)) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]])
        var real = Set<String>()
        var all = Set<String>()
        for finding in findings {
            let ids = (finding["eventIDs"] as? [String]) ?? []
            all.formUnion(ids)
            if finding["severity"] as? String != "noise" { real.formUnion(ids) }
        }
        let noiseOnly = all.subtracting(real)
        // The recorded planner run's cache breaks of a few tokens are noise.
        try #require(!noiseOnly.isEmpty)
        let dom = try Chromium.dumpDOM(html)
        #expect(dom.canvas("data-drawn-noise-marker") == noiseOnly.count)
        #expect(dom.canvas("data-drawn-finding-marker") == all.count)
        #expect(dom.html.contains("Within noise, listed apart"))
    }

    @Test("a long list of findings shows 200 at a time, the next 200 on request, each still linked")
    func findingPages() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let store = directory.path("many-findings.sqlite")
        let script = try StoreScript(path: store, label: "many findings")
        // 300 sessions, each a turn of three rounds calling searchNotes with the same arguments.
        for index in 0..<Int64(300) {
            let start = index * 10_000
            let session = script.tracer.makeID()
            for round in 0..<Int64(4) {
                let at = start + round * 1_000
                let request = script.request(session: session, at: at, dur: 300, ttft: 40)
                if round < 3 {
                    script.toolCall(request: request, session: session, at: at + 305, dur: 80, name: "searchNotes",
                                    fingerprint: "5eed5eed5eed5eed")
                }
            }
            script.endSession(session, label: "agent \(index)", from: start, to: start + 4_000)
        }
        script.close()
        let html = try export([store], directory)
        let data = ViewerData.build([try TraceLoader.load(path: store)])
        let json = try JSONSerialization.jsonObject(with: Data(data.json.compact().utf8)) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]])
        #expect(findings.count == 1_500)
        // A list item per group: a finding's button for a group of one, the group's for a larger one.
        func items(_ dom: String) -> Int {
            [#"class="finding""#, #"class="finding active""#, #"class="finding-group""#,
             #"class="finding-group active""#].reduce(0) { $0 + dom.components(separatedBy: $1).count - 1 }
        }
        let groups = try #require(json?["findingGroups"] as? [[String: Any]])
        try #require(groups.count > 400)

        let first = try Chromium.dumpDOM(html)
        #expect(items(first.html) == 200)
        #expect(first.html.contains("Show 200 more of \(Format.count(Int64(groups.count - 200))) further groups"))
        // A finding on the second page, alone in its group.
        let group = try #require((200..<400).first { groups[$0]["count"] as? Int == 1 })
        let index = try #require((groups[group]["findings"] as? [Int])?.first)
        let next = try Chromium.dumpDOM(html, fragment: "selftest=more,finding:\(index)")
        #expect(items(next.html) == 400)
        let highlighted = Set((next.selfTest("data-highlighted") ?? "").split(separator: " ").map(String.init))
        #expect(highlighted == Set(try #require(findings[index]["eventIDs"] as? [String])) && !highlighted.isEmpty)
    }

    @Test("a finding repeated in one session is one group: its count, a step to each finding per click, all listed on request")
    func findingGroups() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let store = directory.path("one-loop-again.sqlite")
        let script = try StoreScript(path: store, label: "one loop again")
        // One session, 30 turns, each a turn of three rounds calling searchNotes with the same arguments.
        let session = script.tracer.makeID()
        for turn in 0..<Int64(30) {
            for round in 0..<Int64(4) {
                let at = turn * 10_000 + round * 1_000
                let request = script.request(session: session, at: at, dur: 300, ttft: 40)
                if round < 3 {
                    script.toolCall(request: request, session: session, at: at + 305, dur: 80, name: "searchNotes",
                                    fingerprint: "5eed5eed5eed5eed")
                }
            }
        }
        script.endSession(session, label: "agent", from: 0, to: 300_000)
        script.close()
        let html = try export([store], directory)
        let data = ViewerData.build([try TraceLoader.load(path: store)])
        let json = try JSONSerialization.jsonObject(with: Data(data.json.compact().utf8)) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]])
        let groups = try #require(json?["findingGroups"] as? [[String: Any]])
        let loops = try #require(groups.firstIndex { $0["kind"] as? String == "loop" })
        let members = try #require(groups[loops]["findings"] as? [Int])
        #expect(members.count == 30 && groups[loops]["count"] as? Int == 30)
        #expect(members.allSatisfy { findings[$0]["kind"] as? String == "loop" && findings[$0]["group"] as? Int == loops })

        let dom = try Chromium.dumpDOM(html)
        #expect(dom.count("class=\"finding-group\"") == groups.count { ($0["count"] as? Int ?? 0) > 1 })
        #expect(dom.html.contains("data-count=\"30\"") && dom.html.contains("×30"))
        #expect(dom.count("class=\"finding\"") == groups.count { ($0["count"] as? Int ?? 0) == 1 })
        // Two clicks on the group: its second finding, outlined.
        let position = groups[..<loops].count { ($0["count"] as? Int ?? 0) > 1 }
        let stepped = try Chromium.dumpDOM(html, fragment: "selftest=group:\(position),group:\(position)")
        #expect(stepped.selfTest("data-active-finding") == String(members[1]))
        let highlighted = Set((stepped.selfTest("data-highlighted") ?? "").split(separator: " ").map(String.init))
        #expect(highlighted == Set(try #require(findings[members[1]]["eventIDs"] as? [String])) && !highlighted.isEmpty)
        #expect(stepped.html.contains("2 of 30"))
        // Listed on request, each finding a button of its own.
        let listed = try Chromium.dumpDOM(html, fragment: "selftest=expand:\(position),finding:\(members[29])")
        #expect(listed.count("class=\"finding\"") + listed.count("class=\"finding active\"") == 30 + groups.count { ($0["count"] as? Int ?? 0) == 1 })
        #expect(listed.selfTest("data-active-finding") == String(members[29]))
    }

    @Test("the signpost lane is named for what it holds; a bar names its model only where it changes")
    func lanesAndModelLabels() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let html = try export([Self.planner], directory)
        let dom = try Chromium.dumpDOM(html)
        #expect(dom.html.contains(">session signposts</li>"))
        #expect(!dom.html.contains("(no session)"))
        // One model over the run's two lanes: at most one label per lane, not one per bar.
        let requests = try StoreReader(path: Self.planner).requests()
        #expect(Set(requests.map(\.model)).count == 1)
        let labels = try #require(dom.canvas("data-drawn-model-label"))
        #expect(labels >= 1 && labels <= Set(requests.map(\.sessionID)).count)
    }
}
