import Foundation
import LlamaServer
import ModelSession
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Against the real llama.cpp server with SmolLM2-135M-Instruct, temperature 0.
@Suite("Real llama.cpp server", .serialized, .llamaServer)
struct RealServerTests {
    let options = GenerationOptions(temperature: 0, maximumResponseTokens: 16)

    func openAI(_ toolCalling: OpenAICompatibleModel.ToolCalling = .native) throws -> OpenAICompatibleModel {
        OpenAICompatibleModel(
            baseURL: try LlamaServerTrait.server().baseURL, modelName: "smollm2-135m", provider: "openai",
            toolCalling: toolCalling, timeout: .seconds(30))
    }

    func anthropic() throws -> AnthropicModel {
        AnthropicModel(
            baseURL: try LlamaServerTrait.server().baseURL, modelName: "smollm2-135m", timeout: .seconds(30))
    }

    @Test(
        "respond and stream through the OpenAI-compatible API, usage and timings reported",
        arguments: ["openai", "anthropic"])
    func respondAndStream(api: String) async throws {
        let model: any LanguageModel = api == "openai" ? try openAI() : try anthropic()
        let recorder = RecordingMiddleware()
        let session = LanguageModelSession(
            model: model, instructions: "You are a concise assistant.", middleware: [recorder])

        let response = try await session.respond(to: "What is the capital of France?", options: options)
        #expect(!response.content.isEmpty)
        let usage = try #require(response.usage)
        #expect((usage.inputTokens ?? 0) > 10)
        #expect((usage.outputTokens ?? 0) > 0)
        #expect(response.finishReason != nil)

        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "Name a color.", options: options) {
            snapshots.append(snapshot.content)
        }
        #expect(snapshots.count >= 2, "the answer streams in several chunks")
        #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $1.hasPrefix($0) })
        #expect(session.transcript.count == 4)
        if api == "openai" { #expect(recorder.serverTimings.count == 2) }
    }

    @Test(
        "the second turn of an appended conversation reuses the cached prefix",
        arguments: ["openai", "anthropic"])
    func secondTurnHitsCache(api: String) async throws {
        let model: any LanguageModel = api == "openai" ? try openAI() : try anthropic()
        let recorder = RecordingMiddleware()
        let session = LanguageModelSession(
            model: model,
            instructions: "You are a travel assistant. Answer in one sentence. "
                + String(repeating: "Be kind. ", count: 20),
            middleware: [recorder])
        _ = try await session.respond(to: "Suggest a city in Italy.", options: options)
        let second = try await session.respond(to: "And one in Spain?", options: options)

        let cached = try #require(second.usage?.cachedInputTokens)
        #expect(cached > 50, "second turn: \(String(describing: second.usage))")
        if api == "openai" {
            let timings = recorder.serverTimings
            #expect(timings.count == 2)
            #expect(timings.last!.cachedTokens > 50)
            #expect(timings.last!.promptTokens < timings.first!.promptTokens)
        }
    }

    @Test("a tool call through schema-constrained output runs the tool and the loop completes")
    func toolCallLoop() async throws {
        let weather = WeatherTool()
        let recorder = RecordingMiddleware()
        let session = LanguageModelSession(
            model: try openAI(.structuredOutput), tools: [weather],
            instructions: "You answer weather questions.",
            middleware: [recorder])
        let response = try await session.respond(
            to: "What is the weather in Paris?",
            options: GenerationOptions(temperature: 0, maximumResponseTokens: 40, toolChoice: .requiredOnce))

        #expect(weather.calls.value.count == 1)
        #expect(!weather.calls.value[0].isEmpty)
        #expect(response.toolRounds == 1)
        #expect(!response.content.isEmpty)
        let kinds = session.transcript.map { entry -> String in
            switch entry {
            case .prompt: "prompt"
            case .toolCalls(let calls): "toolCalls:" + calls.map(\.name).joined()
            case .toolOutput: "toolOutput"
            case .response: "response"
            }
        }
        #expect(kinds == ["prompt", "toolCalls:get_weather", "toolOutput", "response"])
        #expect(recorder.wrappedTools.withLock { $0 } == ["get_weather"])
        // The second request keeps the system prompt and the first exchange: the cache holds.
        #expect((recorder.serverTimings.last?.cachedTokens ?? 0) > 0)
    }

    @Test(
        "a closed port is a typed connection-refused error naming the URL",
        arguments: ["openai", "anthropic"])
    func connectionRefused(api: String) async throws {
        let port = try closedPort()
        let base = URL(string: "http://127.0.0.1:\(port)")!
        let model: any LanguageModel =
            api == "openai"
            ? OpenAICompatibleModel(baseURL: base, modelName: "m")
            : AnthropicModel(baseURL: base, modelName: "m")
        let started = ContinuousClock.now
        do {
            for try await _ in model.stream(ModelRequest(entries: [.prompt("hi")])) {}
            Issue.record("expected connectionRefused")
        } catch HTTPEndpoint.Error.connectionRefused(let url) {
            #expect(url.port == port)
        }
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test("an HTTP 400 carries the server's message", arguments: ["openai", "anthropic"])
    func httpStatusWithMessage(api: String) async throws {
        let model: any LanguageModel = api == "openai" ? try openAI() : try anthropic()
        let tooLong = String(repeating: "word ", count: 6000)
        do {
            for try await _ in model.stream(ModelRequest(entries: [.prompt(tooLong)], options: options)) {}
            Issue.record("expected httpStatus")
        } catch HTTPEndpoint.Error.httpStatus(let url, let status, let message) {
            #expect(status == 400)
            #expect(message.contains("context size"), "message: \(message)")
            #expect(url.path.hasSuffix(api == "openai" ? "/v1/chat/completions" : "/v1/messages"))
        }
    }

    /// A loopback port with nothing listening: bound, then closed.
    func closedPort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0
            }
        }
        try #require(ok)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
