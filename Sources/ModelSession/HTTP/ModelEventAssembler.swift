import Foundation

/// Turns one API's server-sent events into ``ModelEvent``s; one per request.
protocol ModelEventAssembler: Sendable {
    /// The events `event` completes; throws ``HTTPEndpoint/Error`` on a malformed or error event.
    mutating func consume(_ event: ServerSentEvent) throws -> [ModelEvent]
    /// The events left at the end of the body; throws if the stream ended before its last event.
    mutating func finish() throws -> [ModelEvent]
}

extension EventStreamClient {
    /// Posts `body` and streams the assembled model events; cancelling the consumer cancels the request.
    func modelEvents(
        path: String, body: Data, assembler: some ModelEventAssembler
    ) -> AsyncThrowingStream<ModelEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ModelEvent, any Error>.makeStream()
        let task = Task {
            var assembler = assembler
            do {
                for try await event in events(path: path, body: body) {
                    for modelEvent in try assembler.consume(event) { continuation.yield(modelEvent) }
                }
                try Task.checkCancellation()
                for modelEvent in try assembler.finish() { continuation.yield(modelEvent) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

extension JSONDecoder {
    /// Decodes one event's JSON, or throws ``HTTPEndpoint/Error/malformedStream(url:reason:data:)``.
    static func decodeEvent<T: Decodable>(_ type: T.Type, from event: ServerSentEvent, url: URL) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(event.data.utf8))
        } catch {
            throw HTTPEndpoint.Error.malformedStream(
                url: url, reason: "\(error)", data: String(event.data.prefix(300)))
        }
    }
}
