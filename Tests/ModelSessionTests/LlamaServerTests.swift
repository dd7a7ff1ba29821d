import Foundation
import Testing

@testable import LlamaServer

#if canImport(Glibc)
import Glibc
#endif

@Suite("LlamaServer launcher")
struct LlamaServerTests {
    @Test("a missing binary says how to build it")
    func missingBinary() async throws {
        do {
            _ = try await LlamaServer.start(configuration: .init(serverPath: "/nonexistent/llama-server"))
            Issue.record("expected binaryMissing")
        } catch let error as LlamaServer.Error {
            guard case .binaryMissing(let path) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == "/nonexistent/llama-server")
            #expect(error.description.contains("scripts/model-server.sh build"))
        }
    }

    @Test("a missing model is its own error")
    func missingModel() async throws {
        await #expect(throws: LlamaServer.Error.modelMissing(path: "/nonexistent/model.gguf")) {
            _ = try await LlamaServer.start(
                configuration: .init(serverPath: "/bin/true", modelPath: "/nonexistent/model.gguf"))
        }
    }

    @Test("the paths script's output parses, spaces in paths included")
    func parsesPaths() throws {
        let paths = try ServerPaths.parse("SERVER=/a b/llama-server MODEL=/c d/m.gguf\n", script: "s")
        #expect(paths.server == "/a b/llama-server")
        #expect(paths.model == "/c d/m.gguf")
        #expect(throws: LlamaServer.Error.self) { try ServerPaths.parse("nothing", script: "s") }
        #expect(ServerPaths.packageRoot() != nil)
    }

    @Test("a server that exits during startup reports its log")
    func exitsEarly() async throws {
        do {
            _ = try await LlamaServer.start(configuration: .init(extraArguments: ["--no-such-flag"]))
            Issue.record("expected exitedEarly")
        } catch LlamaServer.Error.exitedEarly(_, let logTail) {
            #expect(logTail.contains("no-such-flag"))
        }
    }

    @Test("start answers /health on a loopback port; stop ends the process and frees the port")
    func startAndStop() async throws {
        let server = try await LlamaServer.start()
        #expect(server.baseURL.host == "127.0.0.1")
        let health = server.baseURL.appendingPathComponent("health")
        #expect(LlamaServer.healthStatus(of: health) == 200)

        let started = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(kill(server.processID, 0) == -1, "the watchdog is gone")
        #expect(LlamaServer.healthStatus(of: health) == nil, "nothing answers on the port")
        server.stop()  // idempotent
    }
}
