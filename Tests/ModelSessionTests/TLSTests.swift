import Foundation
import ModelSession
import Testing

/// HTTPS through the transport against a local server with a self-signed certificate.
@Suite("HTTPS with a configured certificate authority", .serialized)
struct TLSTests {
    static let answer =
        CannedHTTPServer.eventStreamHeaders + TransportTests.contentEvent + TransportTests.finishEvent

    func stream(from server: LocalHTTPSServer, caBundlePath: String?) async throws -> [ModelEvent] {
        let endpoint = HTTPEndpoint(
            baseURL: server.baseURL, timeout: .seconds(10), caBundlePath: caBundlePath)
        var events: [ModelEvent] = []
        for try await event in OpenAICompatibleModel(endpoint: endpoint, modelName: "m")
            .stream(ModelRequest(entries: [.prompt("hi")]))
        {
            events.append(event)
        }
        return events
    }

    @Test("the server's certificate authority given by configuration is trusted")
    func trustedByConfiguration() async throws {
        let server = try LocalHTTPSServer(answer: Self.answer)
        let events = try await stream(from: server, caBundlePath: server.certificatePath)
        let info = ResponseInfo(
            id: "chatcmpl-7", model: "smol-q4", serverAddress: "127.0.0.1", serverPort: server.port,
            streamed: true)
        let (phases, rest) = TransportTests.phasesApart(events)
        #expect(rest == [.outputStarted, .contentDelta("Hi"), .responseInfo(info), .finished(reason: "stop")])
        // The handshake is a phase of its own, between the connection and the request sent.
        let measured = try #require(phases)
        let tls = try #require(measured.tlsDone)
        #expect(measured.connected <= tls && tls <= measured.requestSent && measured.requestSent <= measured.firstByte)
    }

    @Test("without that configuration the self-signed certificate is refused")
    func refusedWithoutConfiguration() async throws {
        let server = try LocalHTTPSServer(answer: Self.answer)
        do {
            _ = try await stream(from: server, caBundlePath: nil)
            Issue.record("expected a certificate error")
        } catch HTTPEndpoint.Error.transport(let url, let description) {
            #expect(url.scheme == "https")
            #expect(description.lowercased().contains("certificate"), "\(description)")
        }
    }
}
