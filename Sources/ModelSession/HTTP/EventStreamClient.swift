import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Posts a JSON body and streams the server-sent events of the answer as they arrive.
///
/// URLSession's data delegate (FoundationNetworking on Linux, backed by libcurl) hands over
/// bytes as they come off the socket, which `URLSession.data(for:)` would buffer until the end.
/// One URLSession per request: its delegate belongs to that request alone.
struct EventStreamClient: Sendable {
    let endpoint: HTTPEndpoint

    func events(path: String, body: Data) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let url = endpoint.url(for: path)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        for (name, value) in endpoint.headers { request.setValue(value, forHTTPHeaderField: name) }
        let timeout = endpoint.timeout
        // FoundationNetworking truncates the interval to whole seconds (0.5 s would time out at
        // once), so it is rounded up to at least one second. It is an idle timeout: a long
        // generation that keeps sending does not time out.
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        request.timeoutInterval = max(1, seconds.rounded(.up))

        let (stream, continuation) = AsyncThrowingStream<ServerSentEvent, any Error>.makeStream()
        let delegate = EventStreamDelegate(url: url, timeout: timeout, continuation: continuation)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.timeoutInterval
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in task.cancel() }
        task.resume()
        session.finishTasksAndInvalidate()
        return stream
    }
}

/// Feeds one request's bytes through the event parser into the stream's continuation.
final class EventStreamDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var parser = ServerSentEventParser()
        var status = 0
        var errorBody = Data()
    }
    private let state = Mutex(State())
    private let url: URL
    private let timeout: Duration
    private let continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation

    init(
        url: URL, timeout: Duration,
        continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation
    ) {
        self.url = url
        self.timeout = timeout
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        state.withLock { $0.status = status }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let events = state.withLock { state -> [ServerSentEvent] in
            guard (200..<300).contains(state.status) else {
                state.errorBody.append(data)
                return []
            }
            return state.parser.consume(data)
        }
        for event in events { continuation.yield(event) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation.finish(throwing: mapped(error))
            return
        }
        let outcome = state.withLock { state -> Result<ServerSentEvent?, HTTPEndpoint.Error> in
            guard (200..<300).contains(state.status) else {
                return .failure(
                    .httpStatus(
                        url: url, status: state.status,
                        message: HTTPEndpoint.Error.message(fromBody: state.errorBody)))
            }
            if state.parser.hasPendingInput {
                return .failure(.truncatedStream(url: url, reason: "the body ended inside an event"))
            }
            return .success(state.parser.finish())
        }
        switch outcome {
        case .success(let last):
            if let last { continuation.yield(last) }
            continuation.finish()
        case .failure(let error):
            continuation.finish(throwing: error)
        }
    }

    private func mapped(_ error: any Error) -> any Error {
        let code = (error as NSError).code
        switch code {
        case NSURLErrorCancelled: return CancellationError()
        case NSURLErrorCannotConnectToHost: return HTTPEndpoint.Error.connectionRefused(url: url)
        case NSURLErrorTimedOut: return HTTPEndpoint.Error.timedOut(url: url, after: timeout)
        case NSURLErrorNetworkConnectionLost:
            return HTTPEndpoint.Error.truncatedStream(url: url, reason: "the connection was lost")
        default: return HTTPEndpoint.Error.transport(url: url, description: error.localizedDescription)
        }
    }
}
