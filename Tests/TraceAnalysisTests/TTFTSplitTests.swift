import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceReportCLI
import TraceStore

@testable import TraceAnalysis
@testable import TraceModel

/// The time to first token split into the server's prompt processing and the rest, in `summary`,
/// the exports, and the `unexplained_ttft` finding.
@Suite("Time to first token, split")
struct TTFTSplitTests {
    private static let ms: Int64 = 1_000_000

    /// One request of session `session` at `at` ms: `ttft` ms in all, `prompt` ms of it the server's
    /// prompt processing (nil: the server reported no timings).
    private static func timed(
        _ tracer: Tracer, session: Int64, at: Int64, ttft: Int64, prompt: Int64?
    ) -> RequestRecord {
        let timings = prompt.map {
            ServerTimings(
                promptTokens: $0, cachedTokens: 0, promptDuration: $0 * ms, predictedTokens: 20,
                predictedDuration: 200 * ms)
        }
        let record = RequestRecord(
            requestID: tracer.makeID(), sessionID: session, ts: at * ms, dur: (ttft + 200) * ms,
            timeToFirstToken: ttft * ms, profile: "p", provider: "llama.cpp", model: "m", inputTokens: 100,
            cachedInputTokens: 0, outputTokens: 21, serverTimings: timings)
        tracer.record(.request(record), kind: .request)
        return record
    }

    /// A store with session `chat`: five requests whose wait is nearly all prompt, one that waited
    /// 700 ms besides a 1 s prompt (mostly explained), one that waited 850 ms besides a 50 ms prompt
    /// (unexplained), and one whose server reported no timings. Session `other` has one ordinary
    /// request.
    private static func store(_ path: String) throws -> (queued: RequestRecord, longPrompt: RequestRecord) {
        var queued: RequestRecord?
        var longPrompt: RequestRecord?
        try makeStore(path) { tracer, _ in
            let chat = tracer.makeID()
            let other = tracer.makeID()
            for (index, prompt) in [80, 120, 95, 60, 110].enumerated() {
                _ = timed(tracer, session: chat, at: Int64(index) * 1_000, ttft: Int64(prompt) + 10, prompt: Int64(prompt))
            }
            longPrompt = timed(tracer, session: chat, at: 6_000, ttft: 1_700, prompt: 1_000)
            queued = timed(tracer, session: chat, at: 7_000, ttft: 900, prompt: 50)
            _ = timed(tracer, session: chat, at: 8_000, ttft: 2_000, prompt: nil)
            _ = timed(tracer, session: other, at: 9_000, ttft: 70, prompt: 62)
            for (id, label) in [(chat, "chat"), (other, "other")] {
                tracer.record(.session(SessionRecord(sessionID: id, ts: 0, dur: 10_000 * ms, label: label)), kind: .session)
            }
        }
        return (try #require(queued), try #require(longPrompt))
    }

    /// The five parts add up to the time to first token in every case: all known; the server's
    /// clock reporting more than the client waited (clamped into the wait after the request was
    /// sent); the first byte after the server began; nothing but client phases.
    @Test func theFivePartsAddUpToTheWaitWhateverIsReported() throws {
        let ms = Self.ms
        func parts(
            ttft: Int64, sent: Int64? = nil, firstByte: Int64? = nil, prompt: Int64? = nil, queue: Int64? = nil
        ) throws -> TTFTSplit.Parts {
            let phases = sent.map { ClientPhases(nameResolved: 0, connected: 0, requestSent: $0, firstByte: firstByte ?? $0) }
            let timings = prompt.map {
                ServerTimings(promptTokens: 1, cachedTokens: 0, promptDuration: $0, predictedTokens: 1, predictedDuration: 1)
            }
            let request = RequestRecord(
                requestID: 1, ts: 0, dur: 2_000 * ms, timeToFirstToken: ttft, serverTimings: timings,
                serverQueueDuration: queue, clientPhases: phases)
            let split = try #require(TTFTSplit.Parts(request))
            let sum = split.named.compactMap(\.value).reduce(0, +)
            #expect(sum == ttft)
            #expect(split.named.allSatisfy { ($0.value ?? 0) >= 0 })
            return split
        }
        let all = try parts(ttft: 500 * ms, sent: 10 * ms, firstByte: 450 * ms, prompt: 300 * ms, queue: 100 * ms)
        #expect(all.connect == 10 * ms && all.queue == 100 * ms && all.prompt == 300 * ms)
        #expect(all.toFirstByte == 90 * ms && all.afterFirstByte == 0)
        let early = try parts(ttft: 500 * ms, sent: 10 * ms, firstByte: 20 * ms, prompt: 300 * ms)
        #expect(early.toFirstByte == 10 * ms && early.afterFirstByte == 180 * ms && early.queue == nil)
        let overReported = try parts(ttft: 500 * ms, sent: 10 * ms, firstByte: 450 * ms, prompt: 600 * ms, queue: 50 * ms)
        #expect(overReported.prompt == 490 * ms && overReported.queue == 0 && overReported.toFirstByte == 0)
        let clientOnly = try parts(ttft: 500 * ms, sent: 10 * ms, firstByte: 480 * ms)
        #expect(clientOnly.prompt == nil && clientOnly.queue == nil)
        #expect(clientOnly.toFirstByte == 470 * ms && clientOnly.afterFirstByte == 20 * ms)
        #expect(TTFTSplit.Parts(RequestRecord(requestID: 2, ts: 0, dur: 1, timeToFirstToken: 1)) == nil)
    }

    @Test func theSplitClampsAServerPromptLongerThanTheWait() {
        let split = TTFTSplit(ttft: 100, serverPromptDuration: 130)
        #expect(split.prompt == 100 && split.rest == 0)
        let ordinary = TTFTSplit(ttft: 100, serverPromptDuration: 30)
        #expect(ordinary.prompt == 30 && ordinary.rest == 70)
        #expect(TTFTSplit(RequestRecord(requestID: 1, ts: 0, dur: 5, timeToFirstToken: 3)) == nil)
    }

    @Test func summaryGivesThePromptAndTheRestOverTheRequestsWithTimings() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("split.sqlite")
        _ = try Self.store(path)
        let streamed = try SummaryReport.compute(reader: StoreReader(path: path))
        let loaded = SummaryReport.compute(trace: try TraceLoader.load(path: path))
        #expect(streamed.json == loaded.json)
        let chat = try #require(streamed.sessions.first { $0.label == "chat" })
        // Seven of the eight requests have timings; prompts 50 60 80 95 110 120 1000, rests 850 10 10 10 10 10 700.
        #expect(chat.splitRequests == 7)
        #expect(chat.ttftPromptP50 == 95 * Self.ms)
        #expect(chat.ttftRestP50 == 10 * Self.ms)
        let text = report(["summary", path]).out
        #expect(text.contains("prompt p50") && text.contains("rest p50"))
        let json = try parseJSON(report(["summary", "--json", path]).out)
        let sessions = try #require(json["sessions"] as? [[String: Any]])
        let split = try #require(sessions.first { $0["label"] as? String == "chat" }?["ttft_split"] as? [String: Any])
        #expect(split["requests"] as? Int == 7)
        #expect(split["server_prompt_p50_ns"] as? Int == Int(95 * Self.ms))
        #expect(split["rest_p50_ns"] as? Int == Int(10 * Self.ms))
    }

    @Test func aStoreWithoutServerTimingsSaysSoInsteadOfGuessing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("untimed.sqlite")
        try makeStore(path) { tracer, _ in
            let session = tracer.makeID()
            tracer.record(.session(SessionRecord(sessionID: session, ts: 0, dur: 10_000 * Self.ms, label: "s")), kind: .session)
            request(tracer, session: session, at: 0, ttft: 3_000 * Self.ms)
            request(tracer, session: session, at: 5_000 * Self.ms)
        }
        #expect(report(["summary", path]).out.contains("no timings"))
        let summary = try parseJSON(report(["summary", "--json", path]).out)
        let run = try #require((summary["runs"] as? [[String: Any]])?.first?["ttft_split"] as? [String: Any])
        #expect(run["requests"] as? Int == 0 && run["server_prompt_p50_ns"] is NSNull)
        let check = report(["check", path]).out
        #expect(check.contains("first-token waits not checked: the server reported no timings"), "\(check)")
        #expect(report(["cache", path]).out.contains("first-token waits: not checked"))
    }

    @Test func aWaitThePromptDoesNotExplainIsAFindingAndALongPromptIsNot() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("split.sqlite")
        let (queued, _) = try Self.store(path)
        let json = try parseJSON(report(["check", "--json", path]).out)
        let findings = try #require(json["findings"] as? [[String: Any]])
        let waits = findings.filter { $0["kind"] as? String == "unexplained_ttft" }
        try #require(waits.count == 1, "\(findings)")
        #expect(waits[0]["request_ids"] as? [String] == [String(queued.requestID)])
        #expect(waits[0]["session"] as? String == "chat")
        // The run's usual rest is its lower quartile, 10 ms: the queued request waited 840 ms more.
        let cost = try #require(waits[0]["cost"] as? [String: Any])
        #expect(cost["time_ns"] as? Int == Int(840 * Self.ms))
        let cache = report(["cache", path]).out
        #expect(cache.contains("1 of 8 requests waited far longer than their prompt explains"), "\(cache)")
        #expect(cache.contains("(1 without server timings)"))
        #expect(cache.contains("ttft 900 ms = prompt 50.0 ms + rest 850 ms"), "\(cache)")
    }

    @Test func perfettoAndOTLPCarryTheSplitInsideTheWait() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("split.sqlite")
        let (queued, _) = try Self.store(path)
        let perfettoPath = directory.path("trace.json")
        try #require(report(["export", "--format", "perfetto", "--out", perfettoPath, path]).status == .success)
        let perfetto = try parseJSON(try String(contentsOfFile: perfettoPath, encoding: .utf8))
        let events = try #require(perfetto["traceEvents"] as? [[String: Any]])
        let chatSlice = try #require(
            events.first { ($0["args"] as? [String: Any])?["request_id"] as? String == String(queued.requestID) })
        let start = try #require(chatSlice["ts"] as? Double)
        let wait = try sliceAt(events, cat: "ttft", ts: start)
        // A store without client phases: the wait is its rest, then the server's prompt.
        let rest = try sliceAt(events, cat: "ttft.to_first_byte", ts: start)
        let prompt = try sliceAt(events, cat: "ttft.prompt", ts: start + 850_000)
        #expect(wait.dur == 900_000 && rest.dur == 850_000 && prompt.dur == 50_000)
        #expect(!events.contains { ($0["cat"] as? String).map { ["ttft.connect", "ttft.queue"].contains($0) } == true })

        let otlpPath = directory.path("otlp.json")
        try #require(report(["export", "--format", "otlp", "--out", otlpPath, path]).status == .success)
        let otlp = try parseJSON(try String(contentsOfFile: otlpPath, encoding: .utf8))
        let spans = (otlp["resourceSpans"] as? [[String: Any]] ?? []).flatMap { resource in
            (resource["scopeSpans"] as? [[String: Any]] ?? []).flatMap { $0["spans"] as? [[String: Any]] ?? [] }
        }
        func attribute(_ span: [String: Any], _ key: String) -> [String: Any]? {
            (span["attributes"] as? [[String: Any]])?.first { $0["key"] as? String == key }?["value"] as? [String: Any]
        }
        let chat = try #require(
            spans.first { $0["name"] as? String == "chat m"
                && attribute($0, "session_trace.request_id")?["stringValue"] as? String == String(queued.requestID) })
        #expect(attribute(chat, "session_trace.ttft.server_prompt_ns")?["intValue"] as? String == String(50 * Self.ms))
        #expect(attribute(chat, "session_trace.ttft.rest_ns")?["intValue"] as? String == String(850 * Self.ms))
        // The five parts, those reported: no queue and no connection here, so neither attribute.
        #expect(attribute(chat, "session_trace.ttft.part.prompt_ns")?["intValue"] as? String == String(50 * Self.ms))
        #expect(
            attribute(chat, "session_trace.ttft.part.to_first_byte_ns")?["intValue"] as? String == String(850 * Self.ms))
        #expect(attribute(chat, "session_trace.ttft.part.queue_ns") == nil)
        #expect(attribute(chat, "session_trace.ttft.part.connect_ns") == nil)
        // Attributes only: child spans for the two parts cluttered every back end's tree.
        #expect(!spans.contains { $0["parentSpanId"] as? String == chat["spanId"] as? String })
    }

    @Test func theTimelineDrawsThePromptPartOfTheWaitApart() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("split.sqlite")
        _ = try Self.store(path)
        let chart = try Timeline.render(try TraceLoader.load(path: path), options: .init(width: 400, session: "chat"))
        let lane = try #require(chart.split(separator: "\n").first { $0.hasPrefix("chat") })
        // The queued request: 850 ms of rest, then 50 ms of prompt, then generation.
        #expect(lane.contains("░░░░▒") && lane.contains("▒█"), "\(lane)")
        #expect(chart.contains("▒ of it, server prompt processing"))
    }

    /// The `X` slice of category `cat` that starts at `ts` microseconds from the run's start.
    private func sliceAt(_ events: [[String: Any]], cat: String, ts: Double) throws -> (ts: Double, dur: Double) {
        let event = try #require(
            events.first { $0["cat"] as? String == cat && abs(($0["ts"] as? Double ?? -1) - ts) < 1 },
            "no \(cat) slice at \(ts) µs")
        return (try #require(event["ts"] as? Double), try #require(event["dur"] as? Double))
    }
}
