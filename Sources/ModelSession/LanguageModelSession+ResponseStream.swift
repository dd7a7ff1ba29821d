extension LanguageModelSession {
    /// Snapshots of a growing answer. Each iteration (or `collect()`) makes one request.
    ///
    /// ```swift
    /// for try await snapshot in session.streamResponse(to: "Plan my day") { print(snapshot.content) }
    /// ```
    ///
    /// When the model calls a tool, the next model call's snapshots start from empty content.
    public struct ResponseStream: AsyncSequence, Sendable {
        public typealias Element = Snapshot

        /// The answer so far.
        public struct Snapshot: Sendable, Hashable {
            public var content: String
        }

        let run: @Sendable (_ onSnapshot: @escaping @Sendable (Snapshot) -> Void) async throws -> Response

        /// Runs the request to its end and returns the response.
        public func collect() async throws -> Response {
            try await run { _ in }
        }

        public func makeAsyncIterator() -> AsyncThrowingStream<Snapshot, any Error>.AsyncIterator {
            let run = self.run
            let (stream, continuation) = AsyncThrowingStream<Snapshot, any Error>.makeStream()
            let task = Task {
                do {
                    _ = try await run { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
            return stream.makeAsyncIterator()
        }
    }
}
