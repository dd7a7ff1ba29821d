import Foundation
@testable import RecordingProxy
import SessionTrace
import Testing

/// The proxy's upstream transfer, driven as a connection thread drives it.
@Suite struct UpstreamTransferTests {
    /// A piece is shown to the tap only after the client was handed it, at the next call for
    /// bytes, which a busy connection thread makes late: the tap is told when the piece arrived,
    /// so the first token is not timed by the thread's delay.
    @Test func theTapIsToldWhenAPieceArrivedNotWhenItLooks() throws {
        let upstream = try ScriptedUpstream()
        let body = #"{"model":"scripted-slow","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let transfer = try #require(
            UpstreamTransfer(
                url: upstream.url + "/v1/chat/completions", method: "POST",
                headers: ["Content-Type: application/json"], body: .owned(Array(body.utf8)), caFile: nil))
        var tapped: [(count: Int, arrived: Int64)] = []
        transfer.onBody = { tapped.append(($0.count, $1)) }
        guard case .success(let head) = transfer.awaitHead(clientSocket: -1, stopping: { false }) else {
            Issue.record("no head from the scripted upstream")
            return
        }
        #expect(head.status == 200)
        guard case .bytes(let first) = transfer.nextBytes(clientSocket: -1, stopping: { false }) else {
            Issue.record("no first piece from the scripted upstream")
            return
        }
        let handed = MonotonicClock().now()
        #expect(tapped.isEmpty, "the tap looks only after the client was handed the piece")
        Thread.sleep(forTimeInterval: 0.3)
        transfer.flushBody()
        let piece = try #require(tapped.first)
        #expect(piece.count == first.count)
        #expect(piece.arrived <= handed, "arrived \(piece.arrived) ns, handed to the client at \(handed) ns")
    }
}
