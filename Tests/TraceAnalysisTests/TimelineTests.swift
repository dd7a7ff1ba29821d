import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceReportCLI
import TraceScenarios
import TraceStore

@testable import LTTngReader
@testable import TraceAnalysis
@testable import TraceExport
@testable import TraceModel

@Suite("Timeline")
struct TimelineTests {
    /// Lines of the chart body (lanes and axis), which must fit the width exactly or less.
    func chartLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.hasPrefix("note:") && !$0.hasPrefix("▲ ") && !$0.hasPrefix("░ ") }
    }

    @Test(arguments: [40, 80, 100, 163])
    func fitsTheWidth(width: Int) throws {
        for scenario in Scenario.allCases {
            let trace = try TraceLoader.load(path: scenarioPath(scenario))
            let text = try Timeline.render(trace, options: .init(width: width))
            for line in chartLines(text).dropFirst() {
                #expect(line.count <= width, "\(scenario) at \(width): \(line)")
            }
        }
    }

    @Test func drawsWaitingGeneratingToolsAndHandoffs() throws {
        let loop = try Timeline.render(try TraceLoader.load(path: scenarioPath(.toolLoop)), options: .init())
        let planner = try #require(loop.split(separator: "\n").first { $0.hasPrefix("planner") })
        #expect(planner.contains("░░░█"))
        #expect(loop.contains("  tools"))
        #expect(loop.contains("▪▪▪"))
        let switched = try Timeline.render(try TraceLoader.load(path: scenarioPath(.modelSwitch)), options: .init())
        #expect(switched.contains("  handoff"))
        #expect(switched.contains("▲ 1.14 s chat: model scripted/scripted-small → scripted/scripted-large"))
        #expect(switched.contains("time        ┼"))
    }

    @Test func zoomsToASessionAndAWindow() throws {
        let trace = try TraceLoader.load(path: scenarioPath(.toolLoop))
        let writer = try Timeline.render(trace, options: .init(session: "writer"))
        #expect(writer.contains("\nwriter"))
        #expect(!writer.contains("\nplanner"))
        let window = try Timeline.render(trace, options: .init(from: 900_000_000, to: 1_080_000_000))
        #expect(window.contains("900 ms to 1.08 s"))
        #expect(!window.contains("\nplanner"))
        #expect(throws: Timeline.Failure.noSuchSession("nobody")) {
            try Timeline.render(trace, options: .init(session: "nobody"))
        }
        #expect(throws: Timeline.Failure.emptyWindow(from: 3, to: 1)) {
            try Timeline.render(trace, options: .init(from: 3, to: 1))
        }
    }

    @Test func tenThousandRequestsAreBucketedAndTheChartSaysSo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("busy.sqlite")
        try makeStore(path) { tracer, _ in
            var sessions: [Int64] = []
            for index in 0..<40 {
                let id = tracer.makeID()
                sessions.append(id)
                tracer.record(.session(SessionRecord(sessionID: id, ts: 5_000_000_000, dur: 60_000_000_000,
                                                     label: "worker-\(index)")), kind: .session)
            }
            for index in Int64(0)..<10_000 {
                request(tracer, session: sessions[Int(index % 40)], at: 5_000_000_000 + index * 2_000_000,
                        dur: 40_000_000, ttft: 10_000_000)
            }
        }
        let trace = try TraceLoader.load(path: path)
        let clock = ContinuousClock()
        var text = ""
        let elapsed = try clock.measure { text = try Timeline.render(trace, options: .init(width: 100)) }
        #expect(elapsed < .seconds(5))
        #expect(text.contains("10,000 requests in 24 lanes"))
        #expect(text.contains("requests share a column with another"))
        #expect(text.contains("(+17 sessions)"))
        #expect(text.contains("sessions beyond the first 23 share the last lane"))
        #expect(text.split(separator: "\n").count < 40)
    }

    @Test func escapeSequencesInTheTraceNeverReachTheTerminal() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("hostile.sqlite")
        let hostile = "evil\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31m\u{202E}txt"
        try makeStore(path, label: hostile) { tracer, _ in
            let session = tracer.makeID()
            tracer.record(.session(SessionRecord(sessionID: session, ts: 5_000_000_000, dur: 2_000_000_000,
                                                 label: hostile)), kind: .session)
            let asked = request(tracer, session: session, at: 5_100_000_000, error: hostile, model: hostile)
            tracer.record(.handoff(HandoffRecord(handoffID: tracer.makeID(), sessionID: session, ts: 5_700_000_000,
                                                 kind: .init(rawValue: hostile), from: hostile, to: hostile)), kind: .handoff)
            for index in Int64(0)..<3 {
                tracer.record(
                    .toolCall(ToolCallRecord(
                        toolCallID: tracer.makeID(), requestID: asked.requestID, sessionID: session,
                        ts: 5_700_000_000 + index, dur: 1_000, name: hostile, argumentsFingerprint: hostile,
                        argumentsBytes: 1, outputBytes: 1)), kind: .toolCall)
            }
            request(tracer, session: session, at: 5_800_000_000, reused: 0, model: hostile)
        }
        for command in ["summary", "timeline", "tools", "cache", "capped", "growth", "check"] {
            for json in [false, true] {
                let result = report([command, path] + (json ? ["--json"] : []))
                #expect(result.status == .success)
                let unsafe = result.out.unicodeScalars.filter { TerminalText.isUnsafe($0) && $0 != "\n" }
                #expect(unsafe.isEmpty, "\(command) json=\(json) printed \(unsafe.map(\.value))")
            }
        }
        #expect(report(["timeline", path]).out.contains("evil^[[2J"))
        // With colour forced on, the only escapes are the chart's own colour codes.
        let colored = report(["timeline", "--color", path]).out
        #expect(colored.contains("\u{1B}[32m"))
        let sequences = colored.components(separatedBy: "\u{1B}").dropFirst()
        #expect(sequences.allSatisfy { $0.range(of: #"^\[[0-9;]*m"#, options: .regularExpression) != nil })
        #expect(TerminalText.sanitized("a\u{1B}b\u{7F}c\u{85}d\u{2066}") == "a^[b^?c<U+0085>d<U+2066>")
    }

    @Test func colourFollowsTheTerminalAndIsOffForNoColor() throws {
        let path = scenarioPath(.toolLoop)
        #expect(report(["timeline", path], terminal: true).out.contains("\u{1B}["))
        #expect(!report(["timeline", path], terminal: false).out.contains("\u{1B}["))
        #expect(!report(["timeline", "--no-color", path], terminal: true).out.contains("\u{1B}["))
        #expect(!report(["timeline", path], environment: ["NO_COLOR": "1"], terminal: true).out.contains("\u{1B}["))
        let narrow = report(["timeline", path], environment: ["COLUMNS": "60"])
        #expect(narrow.out.split(separator: "\n")[2].count <= 60)
    }
}
