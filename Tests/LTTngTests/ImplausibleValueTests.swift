import Foundation
import SessionTrace
import SessionTraceLTTng
import Testing
import TestSupport
import TraceStore

/// Numbers no recording writes (a duration of 2^63 - 1, negative token counts, an infinite
/// temperature) are read from an LTTng trace as from a store: as the nearest plausible value, with
/// the same notes, and never a trap.
@Suite("Implausible values in an LTTng trace", .serialized)
struct ImplausibleValueTests {
    @Test("an LTTng trace and the store of the same records give the same anomaly notes, and no trap")
    func sameNotesAsTheStore() async throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("trace")
        let store = directory.path("run.sqlite")
        try await recordInProcess(to: trace) {
            let storeSink = try StoreSink(path: store)
            let tracer = Tracer(sink: MultiplexSink([LTTngSink(), storeSink]), label: "extremes")
            let session = SessionRecord(sessionID: tracer.makeID(), ts: tracer.now(), dur: .max, label: "chat")
            tracer.record(.session(session), kind: .session)
            for (index, (dur, inputTokens)) in [(Int64.max, Int64.max), (1_000, -7), (Int64.min, 5)].enumerated() {
                let id = tracer.makeID()
                let request = RequestRecord(
                    requestID: id, sessionID: session.sessionID, ts: tracer.now(), dur: dur,
                    timeToFirstToken: 500, profile: "default", provider: "openai", model: "small",
                    inputTokens: inputTokens, cachedInputTokens: 1, outputTokens: 3,
                    temperature: index == 0 ? .infinity : 0.5)
                tracer.record(.request(request), kind: .request)
                tracer.record(
                    .toolCall(ToolCallRecord(
                        toolCallID: tracer.makeID(), requestID: id, sessionID: session.sessionID, ts: tracer.now(),
                        dur: -5, name: "search", argumentsFingerprint: "ab", argumentsBytes: Int64.min,
                        outputBytes: 2, outcome: .ok)),
                    kind: .toolCall)
            }
            storeSink.close()
        }

        let program = try builtProgram("trace-report")
        var notes: [String: [String]] = [:]
        for input in [store, trace] {
            for command in ["summary", "timeline", "tools", "cache", "growth"] {
                let result = try runProgram(program, [command, input])
                // 1 is a finding; a trap would end the program by a signal instead.
                #expect([0, 1, 2].contains(result.status), "\(command) \(input): exit \(result.status): \(result.err)")
            }
            // `tools` reads every record, so a store reports every column that holds such a value.
            let result = try runProgram(program, ["tools", "--json", input])
            try #require(result.status == 0, "\(result.err)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            let anomalies = try #require(report["anomalies"] as? [[String: Any]])
            notes[input] = anomalies.map { anomaly in
                ["table", "column", "plausible", "out_of_range", "lowest", "highest", "not_numbers"]
                    .map { "\($0)=\(anomaly[$0].map { "\($0)" } ?? "null")" }.joined(separator: " ")
            }
            #expect(anomalies.allSatisfy { $0["store"] as? String == input })
        }
        #expect(notes[store]?.count == 6, "\(notes[store] ?? [])")
        #expect(notes[trace] == notes[store])

        let text = try runProgram(program, ["summary", trace])
        #expect(text.status == 0)
        #expect(text.out.contains(
            "note: \(trace): request.dur holds 2 values outside 0 to 2^60 (-9223372036854775808, "
                + "9223372036854775807), read as the nearest bound"), "\(text.out)")

        let imported = directory.path("imported.sqlite")
        let importing = try runProgram(program, ["import", "--out", imported, trace])
        #expect(importing.status == 0, "\(importing.err)")
        #expect(importing.out.contains("note: \(trace): tool_call.dur holds 3 values outside"), "\(importing.out)")
    }
}
