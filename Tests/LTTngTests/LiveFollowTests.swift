import Foundation
import LTTngRecording
import SessionTrace
import SessionTraceLTTng
import Testing
import TestSupport

/// `trace-report --follow` on a live session, through a real `lttng-relayd` on loopback.
@Suite("Following a live LTTng session", .serialized)
struct LiveFollowTests {
    @Test("summary --follow shows requests and their notes as the run goes on, and stops when it ends")
    func followsLiveSession() async throws {
        let directory = try TemporaryDirectory()
        let daemon = try LTTngControl.ensureSessionDaemon()
        defer { daemon.stop() }
        let relay = try RelayDaemon.start(outputDirectory: directory.path("relay"))
        defer { relay.stop() }
        let session = try LTTngControl.Session.create(
            name: "follow_\(getpid())", outputDirectory: nil, relay: relay, live: true)
        var destroyed = false
        defer { if !destroyed { try? session.destroy() } }
        try session.start(until: { LTTngSink().isEnabled(.request) })

        let output = try TemporaryDirectory()
        let follower = try startProgram(
            try builtProgram("trace-report"), ["summary", "--follow", relay.liveURL(session: session.name)],
            outputIn: output)
        defer { if follower.isRunning { follower.terminate() } }

        // A live viewer sees what is recorded after it attached; it draws once attached.
        try await waitFor("no requests recorded", in: output, while: follower)
        let tracer = Tracer(sink: LTTngSink(), label: "live")
        await emitRequests(3, tracer: tracer)
        try await waitFor("3 requests in 1 run", in: output, while: follower)
        // Negative token counts: no recording writes them (-1 is LTTng's unknown).
        await emitRequests(2, tracer: tracer, inputTokens: -7)
        try await waitFor("5 requests in 1 run", in: output, while: follower)
        try await waitFor("request.input_tokens holds 2 values outside", in: output, while: follower)
        #expect(follower.isRunning, "the follower ended before the session did")

        try session.stop()
        try session.destroy()
        destroyed = true
        let deadline = ContinuousClock.now + .seconds(60)
        while follower.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!follower.isRunning, "the follower did not stop when the session was destroyed")
        let errors = (try? String(contentsOfFile: output.path("err"), encoding: .utf8)) ?? ""
        #expect(follower.terminationStatus == 0, "\(errors)")
    }

    private func emitRequests(_ count: Int, tracer: Tracer, inputTokens: Int64 = 10) async {
        await tracer.withSession("live chat") { _ in
            for _ in 0..<count {
                tracer.record(
                    .request(
                        RequestRecord(
                            requestID: tracer.makeID(), sessionID: TraceContext.current.sessionID, ts: tracer.now(),
                            dur: 2_000_000, timeToFirstToken: 500_000, model: "small",
                            inputTokens: inputTokens, outputTokens: 5)), kind: .request)
            }
        }
    }
}
