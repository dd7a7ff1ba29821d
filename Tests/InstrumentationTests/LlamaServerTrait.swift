import LlamaServer
import Testing

/// Starts one real llama.cpp server around a whole suite and stops it when the suite ends.
///
/// ```swift
/// @Suite(.serialized, .llamaServer) struct RealServerTests { ... LlamaServerTrait.current ... }
/// ```
struct LlamaServerTrait: SuiteTrait, TestScoping {
    @TaskLocal static var current: LlamaServer?

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server: LlamaServer
        do {
            server = try await LlamaServer.start()
        } catch {
            Issue.record("cannot start the llama.cpp server for \(test.name): \(error)")
            throw error
        }
        defer { server.stop() }
        try await Self.$current.withValue(server) { try await function() }
    }

    /// The suite's server; fails the test clearly when it runs outside the trait.
    static func server() throws -> LlamaServer {
        try #require(current, "this test needs the .llamaServer suite trait")
    }
}

extension Trait where Self == LlamaServerTrait {
    static var llamaServer: Self { LlamaServerTrait() }
}
