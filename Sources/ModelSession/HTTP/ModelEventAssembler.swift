import Foundation

/// Turns one API's server-sent events into ``ModelEvent``s; one per request.
package protocol ModelEventAssembler: Sendable {
    /// The events `event` completes; throws ``HTTPEndpoint/Error`` on a malformed or error event.
    mutating func consume(_ event: ServerSentEvent) throws -> [ModelEvent]
    /// The events left at the end of the body; throws if the stream ended before its last event.
    mutating func finish() throws -> [ModelEvent]
    /// `gen_ai.response.id` and `gen_ai.response.model`, once an event carried them.
    var responseID: String? { get }
    var responseModel: String? { get }
    /// How the API cuts its stream into events.
    static var framing: StreamFraming { get }
}

extension ModelEventAssembler {
    package static var framing: StreamFraming { .serverSentEvents }
}

extension JSONDecoder {
    /// Decodes one event's JSON, or throws ``HTTPEndpoint/Error/malformedStream(url:reason:data:)``.
    static func decodeEvent<T: Decodable>(_ type: T.Type, from event: ServerSentEvent, url: URL) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(event.data.utf8))
        } catch {
            throw HTTPEndpoint.Error.malformedStream(
                url: url, reason: HTTPEndpoint.Error.serverText("\(error)", limit: 500),
                data: HTTPEndpoint.Error.serverText(event.data, limit: 300))
        }
    }
}

extension JSONSerialization {
    /// One event's JSON object, for an assembler that reads it member by member, or throws
    /// ``HTTPEndpoint/Error/malformedStream(url:reason:data:)``.
    package static func eventObject(_ event: ServerSentEvent, url: URL) throws -> [String: Any] {
        guard let object = try? jsonObject(with: Data(event.data.utf8)) as? [String: Any] else {
            throw HTTPEndpoint.Error.malformedStream(
                url: url, reason: "an event that is not a JSON object",
                data: HTTPEndpoint.Error.serverText(event.data, limit: 300))
        }
        return object
    }
}
