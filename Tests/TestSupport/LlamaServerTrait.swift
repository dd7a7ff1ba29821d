import LlamaServer
import Testing

/// Starts one real llama.cpp server around a whole suite and stops it when the suite ends.
///
/// ```swift
/// @Suite(.serialized, .llamaServer) struct RealServerTests { ... LlamaServerTrait.current ... }
/// ```
public struct LlamaServerTrait: SuiteTrait, TestScoping {
    @TaskLocal public static var current: LlamaServer?

    public init() {}

    public func provideScope(
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
    public static func server() throws -> LlamaServer {
        try #require(current, "this test needs the .llamaServer suite trait")
    }
}

extension Trait where Self == LlamaServerTrait {
    public static var llamaServer: Self { LlamaServerTrait() }
}
