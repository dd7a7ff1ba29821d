import Foundation
import ModelSession
import Testing

/// The HTTP path over real loopback sockets, with canned answers for the failure cases.
@Suite("HTTP transport with canned answers")
struct TransportTests {
    static let contentEvent = #"data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}"# + "\n\n"
    static let finishEvent =
        #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"

    func events(
        from server: CannedHTTPServer, timeout: Duration = .seconds(5)
    ) async throws -> [(event: ModelEvent, at: Duration)] {
        let model = OpenAICompatibleModel(baseURL: server.baseURL, modelName: "m", timeout: timeout)
        let start = ContinuousClock.now
        var received: [(ModelEvent, Duration)] = []
        for try await event in model.stream(ModelRequest(entries: [.prompt("hi")])) {
            received.append((event, ContinuousClock.now - start))
        }
        return received
    }

    @Test("events arrive as the server sends them, not when the body ends")
    func incremental() async throws {
        let server = try CannedHTTPServer([
            .send(CannedHTTPServer.eventStreamHeaders + Self.contentEvent), .pause(.milliseconds(600)),
            .send(Self.finishEvent),
        ])
        let received = try await events(from: server)
        #expect(received.map(\.event) == [.outputStarted, .contentDelta("Hi"), .finished(reason: "stop")])
        #expect(received[1].at < .milliseconds(400), "first token after \(received[1].at)")
        #expect(received[2].at >= .milliseconds(550))
    }

    @Test("a body cut inside an event is a truncated stream")
    func cutInsideEvent() async throws {
        let server = try CannedHTTPServer([
            .send(CannedHTTPServer.eventStreamHeaders + Self.contentEvent + #"data: {"choi"#)
        ])
        await #expect(
            throws: HTTPEndpoint.Error.truncatedStream(
                url: server.baseURL.appendingPathComponent("v1/chat/completions"),
                reason: "the body ended inside an event")
        ) { try await events(from: server) }
    }

    @Test("a body without its final event is a truncated stream")
    func missingEnd() async throws {
        let server = try CannedHTTPServer([.send(CannedHTTPServer.eventStreamHeaders + Self.contentEvent)])
        do {
            _ = try await events(from: server)
            Issue.record("expected truncatedStream")
        } catch HTTPEndpoint.Error.truncatedStream(let url, let reason) {
            #expect(url.port == server.port)
            #expect(reason.contains("[DONE]"))
        }
    }

    @Test("an event that is not JSON is a malformed stream")
    func malformed() async throws {
        let server = try CannedHTTPServer([
            .send(CannedHTTPServer.eventStreamHeaders + "data: <html>oops</html>\n\n")
        ])
        do {
            _ = try await events(from: server)
            Issue.record("expected malformedStream")
        } catch HTTPEndpoint.Error.malformedStream(_, _, let data) {
            #expect(data == "<html>oops</html>")
        }
    }

    @Test("a 5xx with a plain body reports status and body")
    func serverErrorStatus() async throws {
        let server = try CannedHTTPServer([
            .send(
                "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 15\r\nConnection: close\r\n\r\nLoading model\r\n"
            )
        ])
        do {
            _ = try await events(from: server)
            Issue.record("expected httpStatus")
        } catch HTTPEndpoint.Error.httpStatus(_, let status, let message) {
            #expect(status == 503)
            #expect(message == "Loading model")
        }
    }

    @Test("a server that stalls is a timeout; a stream that keeps sending is not")
    func stall() async throws {
        var steps: [CannedHTTPServer.Step] = [.send(CannedHTTPServer.eventStreamHeaders)]
        for _ in 0..<4 { steps += [.send(Self.contentEvent), .pause(.milliseconds(400))] }
        let slowButSteady = try CannedHTTPServer(steps + [.send(Self.finishEvent)])
        #expect(try await events(from: slowButSteady, timeout: .seconds(1)).count == 6, "outputStarted, 4 deltas, finished")

        let server = try CannedHTTPServer([.pause(.seconds(3))])
        let start = ContinuousClock.now
        do {
            _ = try await events(from: server, timeout: .seconds(1))
            Issue.record("expected timedOut")
        } catch HTTPEndpoint.Error.timedOut(let url, let after) {
            #expect(url.port == server.port)
            #expect(after == .seconds(1))
        }
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(900) && waited < .milliseconds(2500), "timed out after \(waited)")
    }

    @Test("cancelling the consumer ends the request at once")
    func cancellation() async throws {
        let server = try CannedHTTPServer([
            .send(CannedHTTPServer.eventStreamHeaders + Self.contentEvent), .pause(.seconds(5)),
            .send(Self.finishEvent),
        ])
        let model = OpenAICompatibleModel(baseURL: server.baseURL, modelName: "m", timeout: .seconds(10))
        let firstEvent = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var count = 0
            for try await _ in model.stream(ModelRequest(entries: [.prompt("hi")])) {
                count += 1
                firstEvent.continuation.yield()
            }
            return count
        }
        for await _ in firstEvent.stream { break }
        let start = ContinuousClock.now
        consumer.cancel()
        let count = try? await consumer.value
        #expect(count ?? 2 <= 2, "outputStarted and the first delta at most, nothing after the cancel")
        #expect(ContinuousClock.now - start < .seconds(1))
    }
}
