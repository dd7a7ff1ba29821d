import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceStore

@testable import TraceAnalysis
@testable import TraceExport
@testable import TraceModel

/// A lane drawn as aggregate bands still shows what touches its requests: the findings about them
/// and the user turns they belong to. Read back from real headless Chromium.
@Suite("Viewer bands", .serialized)
struct ViewerBandTests {
    /// One session of 20,400 requests, a second apart (so the run is drawn as bands), each its own
    /// turn but for requests 10,000 to 10,003: one turn whose first three rounds each call
    /// `searchNotes` with the same arguments, a loop `check` reports.
    struct Fixture {
        let directory: TemporaryDirectory
        let store: String
        let html: String
        let data: Data

        init() throws {
            directory = try TemporaryDirectory()
            store = directory.path("banded.sqlite")
            let script = try StoreScript(path: store, label: "banded")
            let session = script.tracer.makeID()
            let count: Int64 = 20_400
            for index in 0..<count {
                let id = script.request(session: session, at: index * 1_000, dur: 300, ttft: 40,
                                        entries: 2 + 2 * index, reused: 2 * index)
                if (10_000..<10_003).contains(index) {
                    script.toolCall(request: id, session: session, at: index * 1_000 + 305, dur: 80,
                                    name: "searchNotes", fingerprint: "5eed5eed5eed5eed")
                }
            }
            script.endSession(session, label: "agent", from: 0, to: count * 1_000)
            script.close()
            html = directory.path("banded.html")
            _ = try exportHTML([store], to: html)
            data = Data(ViewerData.build([try TraceLoader.load(path: store)]).json.compact().utf8)
        }

        /// The export's bands and findings.
        func exported() throws -> (bands: [Band], findings: [[String: Any]]) {
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let run = try #require((json?["runs"] as? [[String: Any]])?.first)
            let bands = try #require(run["bands"] as? [[String: Any]]).map { band in
                let number = { (key: String) in (band[key] as? NSNumber)?.int64Value ?? -1 }
                return Band(ts: number("ts"), dur: number("dur"),
                            findingEventIDs: band["findingEventIDs"] as? [String] ?? [])
            }
            return (bands, try #require(json?["findings"] as? [[String: Any]]))
        }
    }

    /// An exported band's time, ns from the run's start, and the events in it a finding names.
    struct Band {
        var ts: Int64
        var dur: Int64
        var findingEventIDs: [String]
    }

    /// The position in `bands` (in time order) of the band whose time holds `ts`.
    private func band(at ts: Int64, in bands: [Band]) -> Int? {
        var low = 0
        var high = bands.count
        while low < high {
            let middle = (low + high) / 2
            if bands[middle].ts + bands[middle].dur <= ts { low = middle + 1 } else { high = middle }
        }
        return low < bands.count && bands[low].ts <= ts ? low : nil
    }

    @Test("a band holding an event a finding is about carries the marker, and the finding zooms to it")
    func findingsOnBands() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let fixture = try Fixture()
        let (bands, findings) = try fixture.exported()
        let loop = try #require(findings.firstIndex { $0["kind"] as? String == "loop" })
        let events = Set(try #require(findings[loop]["eventIDs"] as? [String]))
        #expect(events.count == 6)
        // The bands that hold the loop's requests and tool calls, by the store's times.
        let trace = try TraceLoader.load(path: fixture.store)
        let run = try #require(trace.runs.first)
        let times = run.requests.filter { events.contains(String($0.requestID)) }.map { $0.ts - run.startTime }
            + run.toolCalls.filter { events.contains(String($0.toolCallID)) }.map { $0.ts - run.startTime }
        #expect(times.count == 6)
        let holding = Set(times.compactMap { band(at: $0, in: bands) })
        #expect(!holding.isEmpty && holding.count <= 2)
        let touched = bands.filter { !$0.findingEventIDs.isEmpty }.count
        #expect(touched == holding.count, "only the loop's bands hold events a finding names")

        let full = try Chromium.dumpDOM(fixture.html, budget: 15_000)
        #expect(full.canvas("data-drawn-band-requests") == run.requests.count)
        // On bands, findings are counts, not a diamond each: the findings about events in the
        // loop's bands, each counted once in the badge that covers those (adjacent) bands.
        let inHolding = Set(holding.flatMap { bands[$0].findingEventIDs })
        let about = findings.filter { !Set(($0["eventIDs"] as? [String]) ?? []).isDisjoint(with: inHolding) }.count
        #expect(about >= 1)
        #expect(full.canvas("data-drawn-finding-marker") == 0)
        #expect(full.canvas("data-drawn-finding-badge") == 1)
        #expect(full.canvas("data-drawn-band-findings") == about)
        // Every band with a time to first token has its p95 strip.
        #expect(full.canvas("data-drawn-band-p95") == full.canvas("data-drawn-band"))
        let fullSpan = try #require(full.canvas("data-view-end")) - (full.canvas("data-view-start") ?? 0)

        // Clicking the finding highlights the bands, zooms to them, and their panel lists it.
        let focused = try Chromium.dumpDOM(fixture.html, fragment: "selftest=finding:\(loop)", budget: 15_000)
        let highlighted = Set((focused.selfTest("data-highlighted") ?? "").split(separator: " ").map(String.init))
        #expect(highlighted == Set(holding.map { "band-\($0)" }))
        #expect(focused.selfTest("data-selected") == "band:band-\(holding.min()!)")
        let start = try #require(focused.canvas("data-view-start"))
        let end = try #require(focused.canvas("data-view-end"))
        #expect(end - start < fullSpan / 100)
        for index in holding {
            #expect(Int64(start) <= bands[index].ts && bands[index].ts + bands[index].dur <= Int64(end))
        }
        #expect((1...holding.count).contains(focused.canvas("data-drawn-finding-badge") ?? 0))
        #expect((focused.canvas("data-drawn-band-findings") ?? 0) >= about)
        let listed = focused.selfTestText.split(separator: "\n").filter { $0.hasPrefix("finding: ") }
        #expect(listed.contains { $0 == "finding: " + (findings[loop]["title"] as? String ?? "?") })
        try Chromium.screenshot(fixture.html, fragment: "selftest=finding:\(loop)",
                                to: screenshotDirectory + "/banded-finding.png")
    }

    @Test("a lane drawn as bands shows the turns starting in each band, their count and longest time")
    func turnsInBandedLanes() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let fixture = try Fixture()
        let (bands, _) = try fixture.exported()
        let trace = try TraceLoader.load(path: fixture.store)
        let run = try #require(trace.runs.first)
        let turns = RunTurns(run).turns
        #expect(turns.count == run.requests.count - 3)
        // Each turn from its first request's start to its last request's or tool call's end.
        let runStart = run.startTime
        let spans: [(start: Int64, dur: Int64)] = turns.map { turn in
            let start = turn.requests.map(\.ts).min()!
            var end = turn.requests.map { $0.ts + $0.dur }.max()!
            for request in turn.requests {
                for call in run.toolCallsByRequest[request.requestID] ?? [] {
                    end = max(end, call.ts + call.dur)
                }
            }
            return (start - runStart, end - start)
        }

        // At full view every turn is counted under the band it starts in.
        let full = try Chromium.dumpDOM(fixture.html, budget: 15_000)
        #expect(full.canvas("data-drawn-band-turns") == turns.count)
        #expect(full.canvas("data-drawn-turn") == 0)

        // The band holding the loop's long turn: its panel gives the turns starting there, their
        // total time and the longest, as the store has them.
        let long = try #require(spans.max { $0.dur < $1.dur })
        let index = try #require(band(at: long.start, in: bands))
        let inBand = spans.filter { band(at: $0.start, in: bands) == index }
        #expect(inBand.count > 1)
        let clicked = try Chromium.dumpDOM(
            fixture.html, fragment: "selftest=click:band:\(index)", budget: 15_000)
        #expect(clicked.selfTest("data-clicked-id") == "band-\(index)")
        #expect(clicked.detail("turns starting here") == String(inBand.count))
        // The loop's turn, requests 10,000 to 10,003, runs 3.3 s; every other turn is one 300 ms
        // request, and six of them start in its band: 3.3 + 6 × 0.3 s in all.
        #expect(long.dur == 3_300_000_000)
        #expect(inBand.count == 7)
        #expect(clicked.detail("their total time") == "5.10 s")
        #expect(clicked.detail("longest turn") == "3.30 s")
        // Zoomed to the band, its bracket is drawn with the turns it stands for.
        #expect(clicked.canvas("data-drawn-band-turns").map { $0 >= inBand.count } == true)
        try Chromium.screenshot(fixture.html, fragment: "selftest=click:band:\(index)",
                                to: screenshotDirectory + "/banded-turns.png")
    }
}
