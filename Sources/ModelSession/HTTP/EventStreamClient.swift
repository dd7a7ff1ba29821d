import Foundation

/// Posts a JSON body and streams the model events of the answer as its server-sent events
/// arrive, over libcurl (``CurlTransport``).
struct EventStreamClient: Sendable {
    let endpoint: HTTPEndpoint

    /// Posts `body` to `path` and streams what `assembler` makes of the answer; cancelling the
    /// consumer stops the transfer.
    func modelEvents(
        path: String, body: Data, assembler: some ModelEventAssembler
    ) -> AsyncThrowingStream<ModelEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ModelEvent, any Error>.makeStream()
        let transfer: EventStreamTransfer
        do {
            transfer = try EventStreamTransfer(
                endpoint: endpoint, path: path, body: body, assembler: assembler, continuation: continuation)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        guard let transport = CurlTransport.shared else {
            continuation.finish(throwing: HTTPEndpoint.Error.transport(
                url: transfer.url, description: "libcurl could not start"))
            return stream
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { transport.cancel(transfer) }
        }
        transport.submit(transfer)
        return stream
    }
}
