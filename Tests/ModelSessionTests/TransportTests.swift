import Foundation
import ModelSession
import Synchronization
import Testing

/// The HTTP path over real loopback sockets, with canned answers for the failure cases.
@Suite("HTTP transport with canned answers")
struct TransportTests {
    static let contentEvent =
        #"data: {"id":"chatcmpl-7","model":"smol-q4","choices":[{"index":0,"delta":{"content":"Hi"}}]}"#
        + "\n\n"
    static let finishEvent =
        #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"

    func events(
        from server: CannedHTTPServer, api: String = "openai", timeout: Duration = .seconds(5),
        deadline: Duration = .seconds(600), maximumEventSize: Int = 1 << 20
    ) async throws -> [(event: ModelEvent, at: Duration)] {
        let endpoint = HTTPEndpoint(
            baseURL: server.baseURL, timeout: timeout, deadline: deadline, maximumEventSize: maximumEventSize)
        let model: any LanguageModel =
            switch api {
            case "openai": OpenAICompatibleModel(endpoint: endpoint, modelName: "m")
            case "ollama": OllamaModel(endpoint: endpoint, modelName: "m")
            default: AnthropicModel(endpoint: endpoint, modelName: "m")
            }
        let start = ContinuousClock.now
        var received: [(ModelEvent, Duration)] = []
        for try await event in model.stream(ModelRequest(entries: [.prompt("hi")])) {
            received.append((event, ContinuousClock.now - start))
        }
        return received
    }

    /// The events apart from the connection's phases, which come first, once, at the first response byte.
    static func phasesApart(_ events: [ModelEvent]) -> (phases: ConnectionPhases?, rest: [ModelEvent]) {
        guard case .connectionPhases(let phases)? = events.first else { return (nil, events) }
        #expect(!events.dropFirst().contains { if case .connectionPhases = $0 { true } else { false } })
        return (phases, Array(events.dropFirst()))
    }

    @Test("events arrive as the server sends them, not when the body ends")
    func incremental() async throws {
        let server = try CannedHTTPServer([
            .send(CannedHTTPServer.eventStreamHeaders + Self.contentEvent), .pause(.milliseconds(600)),
            .send(Self.finishEvent),
        ])
        let received = try await events(from: server)
        let info = ResponseInfo(
            id: "chatcmpl-7", model: "smol-q4", serverAddress: "127.0.0.1", serverPort: server.port,
            streamed: true)
        let (phases, rest) = Self.phasesApart(received.map(\.event))
        #expect(rest == [.outputStarted, .contentDelta("Hi"), .responseInfo(info), .finished(reason: "stop")])
        // Plain HTTP on loopback: the phases in order, no TLS, the first byte before the pause.
        let measured = try #require(phases)
        #expect(measured.nameResolved <= measured.connected && measured.connected <= measured.requestSent)
        #expect(measured.requestSent <= measured.firstByte && measured.firstByte < .milliseconds(400))
        #expect(measured.tlsDone == nil)
        #expect(received[2].at < .milliseconds(400), "first token after \(received[2].at)")
        #expect(received[4].at >= .milliseconds(550))
    }

    /// Ollama's native API over a socket: a JSON Lines answer streams line by line, and an
    /// answer that is an event stream is not taken for one.
    @Test("Ollama's JSON Lines arrive line by line; another content type is an error")
    func ollamaJSONLines() async throws {
        let headers = "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nConnection: close\r\n\r\n"
        let server = try CannedHTTPServer([
            .send(headers + #"{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}"# + "\n"),
            .pause(.milliseconds(600)),
            .send(#"{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","#
                + #""load_duration":2000000,"prompt_eval_count":3,"prompt_eval_duration":5000000}"# + "\n"),
        ])
        let received = try await events(from: server, api: "ollama")
        let (_, rest) = Self.phasesApart(received.map(\.event))
        #expect(rest.prefix(2) == [.outputStarted, .contentDelta("Hi")])
        #expect(received[2].at < .milliseconds(400), "first token after \(received[2].at)")
        let timings = rest.compactMap { if case .serverTimings(let timings) = $0 { timings } else { nil } }
        #expect(timings.map(\.queueMilliseconds) == [2] && timings.map(\.promptMilliseconds) == [5])
        #expect(rest.last == .finished(reason: "stop"))

        let eventStream = try CannedHTTPServer([.send(CannedHTTPServer.eventStreamHeaders + Self.contentEvent)])
        await #expect(throws: HTTPEndpoint.Error.self) { try await events(from: eventStream, api: "ollama") }
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
        #expect(
            Self.phasesApart(try await events(from: slowButSteady, timeout: .seconds(1)).map(\.event)).rest.count == 7,
            "outputStarted, 4 deltas, responseInfo, finished")

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

    @Test("a server that keeps the stream alive with comments and never answers ends at the deadline")
    func keepAliveForever() async throws {
        // A comment every 200 ms, well inside the idle timeout, for far longer than the deadline.
        let server = try CannedHTTPServer(
            [.send(CannedHTTPServer.eventStreamHeaders)]
                + Array(repeating: [.send(": keep-alive\n\n"), .pause(.milliseconds(200))], count: 100).flatMap { $0 })
        let start = ContinuousClock.now
        do {
            _ = try await events(from: server, timeout: .seconds(1), deadline: .seconds(2))
            Issue.record("expected deadlineExceeded")
        } catch HTTPEndpoint.Error.deadlineExceeded(let url, let after) {
            #expect(url.port == server.port)
            #expect(after == .seconds(2))
            #expect(HTTPEndpoint.Error.deadlineExceeded(url: url, after: after).description.contains("deadline"))
        }
        let waited = ContinuousClock.now - start
        // Ended by the deadline, not by the 20 s the server would go on for (a loose bound).
        #expect(waited >= .milliseconds(1900) && waited < .seconds(10), "ended after \(waited)")
    }

    @Test("cancelling the consumer ends the request at once")
    func cancellation() async throws {
        let server = try CannedHTTPServer([
            .send(CannedHTTPServer.eventStreamHeaders + Self.contentEvent), .pause(.seconds(5)),
            .send(Self.finishEvent),
        ])
        let model = OpenAICompatibleModel(baseURL: server.baseURL, modelName: "m", timeout: .seconds(10))
        let firstEvent = AsyncStream<Void>.makeStream()
        let received = Mutex<[ModelEvent]>([])
        let consumer = Task {
            for try await event in model.stream(ModelRequest(entries: [.prompt("hi")])) {
                received.withLock { $0.append(event) }
                firstEvent.continuation.yield()
            }
        }
        for await _ in firstEvent.stream { break }
        let start = ContinuousClock.now
        consumer.cancel()
        _ = try? await consumer.value
        #expect(ContinuousClock.now - start < .seconds(1))
        // What the first chunk held may still arrive (it was read before the cancel); the finish,
        // sent 5 s later, must not.
        let events = received.withLock { $0 }
        #expect(!events.contains { if case .finished = $0 { true } else { false } }, "\(events)")
    }

    /// The error `server`'s answer ends in, through the `api` backend.
    func failure(
        from server: CannedHTTPServer, api: String = "openai", maximumEventSize: Int = 1 << 20
    ) async throws -> HTTPEndpoint.Error {
        do {
            let received = try await events(from: server, api: api, maximumEventSize: maximumEventSize)
            throw ExpectedFailure(received: received.map(\.event))
        } catch let error as HTTPEndpoint.Error {
            return error
        }
    }

    struct ExpectedFailure: Error {
        var received: [ModelEvent]
    }

    @Test("a 4xx with a JSON error body carries its message", arguments: ["openai", "anthropic"])
    func clientErrorStatus(api: String) async throws {
        let body =
            #"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too big"}}"#
        let server = try CannedHTTPServer([
            .send(
                "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        ])
        let error = try await failure(from: server, api: api)
        #expect(error == .httpStatus(url: error.url, status: 400, message: "max_tokens: too big"))
        #expect(error.url.path == (api == "openai" ? "/v1/chat/completions" : "/v1/messages"))
    }

    @Test("the Messages API's response facts, and a status error's, arrive before the stream ends")
    func responseFacts() async throws {
        let events = """
            event: message_start
            data: {"type":"message_start","message":{"id":"msg_01","model":"smol-q4",\
            "usage":{"input_tokens":3}}}

            event: message_stop
            data: {"type":"message_stop"}


            """
        let server = try CannedHTTPServer([.send(CannedHTTPServer.eventStreamHeaders + events)])
        #expect(
            Self.phasesApart(try await self.events(from: server, api: "anthropic").map(\.event)).rest == [
                .responseInfo(
                    ResponseInfo(
                        id: "msg_01", model: "smol-q4", serverAddress: "127.0.0.1", serverPort: server.port,
                        streamed: true)),
                .usage(TokenUsage(inputTokens: 3)), .finished(reason: "end_turn"),
            ])

        let failing = try CannedHTTPServer([.send("HTTP/1.1 503 Unavailable\r\nContent-Length: 0\r\n\r\n")])
        let model = OpenAICompatibleModel(baseURL: failing.baseURL, modelName: "m")
        var received: [ModelEvent] = []
        await #expect(throws: HTTPEndpoint.Error.self) {
            for try await event in model.stream(ModelRequest(entries: [.prompt("hi")])) {
                received.append(event)
            }
        }
        #expect(
            Self.phasesApart(received).rest == [
                .responseInfo(
                    ResponseInfo(serverAddress: "127.0.0.1", serverPort: failing.port, streamed: true))
            ])
    }

    @Test("a 429 carries its Retry-After", arguments: ["openai", "anthropic"])
    func rateLimited(api: String) async throws {
        let body = #"{"error":{"message":"slow down"}}"#
        let server = try CannedHTTPServer([
            .send(
                "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        ])
        let error = try await failure(from: server, api: api)
        #expect(error == .rateLimited(url: error.url, retryAfter: .seconds(7), message: "slow down"))
        #expect(error.description.contains("retry after 7.0 seconds"), "\(error)")

        let withoutHeader = try CannedHTTPServer([
            .send("HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\n\r\n")
        ])
        let second = try await failure(from: withoutHeader, api: api)
        #expect(second == .rateLimited(url: second.url, retryAfter: nil, message: ""))

        // An HTTP date (RFC 9110) a minute from now.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: Date().addingTimeInterval(60))
        let withDate = try CannedHTTPServer([
            .send("HTTP/1.1 429 Too Many Requests\r\nRetry-After: \(date)\r\nContent-Length: 0\r\n\r\n")
        ])
        let third = try await failure(from: withDate, api: api)
        guard case .rateLimited(_, let wait?, _) = third else {
            Issue.record("no Retry-After read from \(date): \(third)")
            return
        }
        #expect(wait > .seconds(50) && wait <= .seconds(61), "\(wait)")
    }

    @Test("a 200 that is not an event stream says what it is", arguments: ["openai", "anthropic"])
    func wrongContentType(api: String) async throws {
        let page = "<html><body>\n<h1>Sign in to the proxy</h1>\n</body></html>\n"
        let server = try CannedHTTPServer([
            .send(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\n\r\n"
                    + page)
        ])
        let error = try await failure(from: server, api: api)
        #expect(
            error
                == .unexpectedContentType(
                    url: error.url, contentType: "text/html; charset=utf-8",
                    body: "<html><body> <h1>Sign in to the proxy</h1> </body></html>"))
        #expect(error.description.hasPrefix("expected text/event-stream from"))
    }

    @Test("a connection reset in the middle of a stream is a truncated stream")
    func reset() async throws {
        let server = try CannedHTTPServer([
            .send(CannedHTTPServer.eventStreamHeaders + Self.contentEvent), .pause(.milliseconds(100)),
            .reset,
        ])
        let error = try await failure(from: server)
        guard case .truncatedStream(_, let reason) = error else {
            Issue.record("expected truncatedStream, got \(error)")
            return
        }
        #expect(reason.contains("the connection was lost"), "\(reason)")
    }

    @Test("server text with escape sequences is kept neutralised")
    func escapeSequences() async throws {
        let body = "\u{1B}]0;owned\u{7}\u{1B}[2J\u{1B}[31mdown\u{1B}[0m\r\n"
        let server = try CannedHTTPServer([
            .send("HTTP/1.1 502 Bad Gateway\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        ])
        let error = try await failure(from: server)
        #expect(error == .httpStatus(url: error.url, status: 502, message: "␛]0;owned␇␛[2J␛[31mdown␛[0m"))
        #expect(!error.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    /// 200 MiB in 64 KiB writes, far past every limit: a client that kept it would show.
    static let hugeSize = 200 << 20
    static let block = String(repeating: "x", count: 64 << 10)

    @Test("an event line past the limit ends the request at the limit, memory flat")
    func hugeLine() async throws {
        let server = try CannedHTTPServer([
            .send(CannedHTTPServer.eventStreamHeaders + "data: "),
            .sendRepeated(Self.block, times: Self.hugeSize / Self.block.utf8.count),
        ])
        var error: HTTPEndpoint.Error?
        let growth = try await PeakMemory.growth { error = try await failure(from: server) }
        #expect(
            error
                == .eventTooLarge(
                    url: server.baseURL.appendingPathComponent("v1/chat/completions"), limit: 1 << 20))
        #expect(server.bytesSent < 32 << 20, "the client stopped reading: \(server.bytesSent) bytes sent")
        #expect(growth < 48 << 20, "peak memory rose by \(growth) bytes")
    }

    @Test("the event limit is configurable and counts an event's data lines together")
    func configuredEventLimit() async throws {
        let line = "data: " + String(repeating: "y", count: 1000) + "\n"
        let server = try CannedHTTPServer([
            .send(
                CannedHTTPServer.eventStreamHeaders + Self.contentEvent + String(repeating: line, count: 5)
                    + "\n")
        ])
        let error = try await failure(from: server, maximumEventSize: 4096)
        #expect(error == .eventTooLarge(url: error.url, limit: 4096))
    }

    @Test("an error body past 64 KiB is cut there and not read on, memory flat")
    func hugeErrorBody() async throws {
        let server = try CannedHTTPServer([
            .send("HTTP/1.1 500 Internal Server Error\r\nContent-Length: \(Self.hugeSize)\r\n\r\n"),
            .sendRepeated(Self.block, times: Self.hugeSize / Self.block.utf8.count),
        ])
        var error: HTTPEndpoint.Error?
        let growth = try await PeakMemory.growth { error = try await failure(from: server) }
        guard case .httpStatus(_, 500, let message) = error else {
            Issue.record("expected httpStatus 500, got \(String(describing: error))")
            return
        }
        #expect(message.hasSuffix("… [body cut at 65536 bytes]"))
        #expect(server.bytesSent < 32 << 20, "the client stopped reading: \(server.bytesSent) bytes sent")
        #expect(growth < 48 << 20, "peak memory rose by \(growth) bytes")
    }
}
