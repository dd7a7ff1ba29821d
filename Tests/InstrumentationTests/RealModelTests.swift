import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LlamaServer
import ModelSession
import SessionInstrumentation
import SessionTrace
import Synchronization
import TestSupport
import Testing
import TraceAnalysis
import TraceStore

/// The middleware against SmolLM2-135M on a real llama.cpp server, recorded into a real store
/// and read back: the figures the Foundation Models instrument shows, measured for real.
@Suite("Tracing a real model", .serialized, .llamaServer)
struct RealModelTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func model() throws -> OpenAICompatibleModel {
        OpenAICompatibleModel(
            baseURL: try LlamaServerTrait.server().baseURL, modelName: "SmolLM2-135M-Instruct",
            toolCalling: .structuredOutput)
    }

    /// Runs `body` with a tracer writing to a fresh store, then reads the store back.
    func recorded(_ body: (Tracer) async throws -> Void) async throws -> (StoreReader, Int64) {
        let path = directory.path("trace.sqlite")
        let sink = try StoreSink(path: path)
        let tracer = Tracer(sink: sink)
        try await body(tracer)
        sink.close()
        return (try StoreReader(path: path), tracer.runID)
    }

    /// A client that is not ours: one plain HTTP chat completion, traced with `withRequest` as the
    /// README shows, records the server's own token counts and finish reason.
    @Test func aPlainHTTPClientTracedWithWithRequestRecordsWhatTheServerReported() async throws {
        struct Reply: Decodable {
            struct Choice: Decodable { var finish_reason: String? }
            struct Usage: Decodable { var prompt_tokens: Int64; var completion_tokens: Int64 }
            var choices: [Choice]
            var usage: Usage
        }
        let endpoint = try LlamaServerTrait.server().baseURL.appendingPathComponent("v1/chat/completions")
        var body = URLRequest(url: endpoint)
        body.httpMethod = "POST"
        body.setValue("application/json", forHTTPHeaderField: "Content-Type")
        body.httpBody = Data(
            (#"{"model":"SmolLM2-135M-Instruct","max_tokens":8,"temperature":0,"#
                + #""messages":[{"role":"user","content":"Name a fruit."}]}"#).utf8)
        var served: Reply?
        let (reader, runID) = try await recorded { tracer in
            try await tracer.withInterval("AskOnce") { _ in
                served = try await tracer.withRequest(provider: "openai", model: "SmolLM2-135M-Instruct") {
                    request in
                    let (data, _) = try await URLSession.shared.data(for: body)
                    request.firstToken()
                    let reply = try JSONDecoder().decode(Reply.self, from: data)
                    request.finish(
                        usage: RequestUsage(
                            inputTokens: reply.usage.prompt_tokens, outputTokens: reply.usage.completion_tokens),
                        finishReason: reply.choices.first?.finish_reason)
                    return reply
                }
            }
        }
        let reply = try #require(served)
        let request = try #require(try reader.requests(runID: runID).first)
        let interval = try #require(try reader.intervals(runID: runID).first)
        #expect(request.outputTokens == reply.usage.completion_tokens && reply.usage.completion_tokens > 0)
        #expect(request.inputTokens == reply.usage.prompt_tokens)
        #expect(request.finishReason == reply.choices.first?.finish_reason && request.finishReason != nil)
        #expect(request.timeToFirstToken.map { $0 > 0 && $0 <= request.dur } == true)
        #expect(request.parentID == interval.intervalID)
        #expect(request.error == nil)
    }

    @Test func requestsCarryRealTimingsTokensAndCacheFigures() async throws {
        let model = try model()
        let (reader, runID) = try await recorded { tracer in
            let session = LanguageModelSession(
                model: model, label: "chat", instructions: "You are a helpful assistant. Answer briefly.",
                middleware: [TracingMiddleware(tracer: tracer)])
            let options = GenerationOptions(temperature: 0, maximumResponseTokens: 40)
            _ = try await session.respond(to: "Name three fruits.", options: options)
            _ = try await session.streamResponse(to: "Which one is yellow?", options: options).collect()
        }
        let requests = try reader.requests(runID: runID).sorted { $0.ts < $1.ts }
        try #require(requests.count == 2)
        for request in requests {
            let ttft = try #require(request.timeToFirstToken)
            #expect(ttft > 0)
            #expect(ttft < request.dur)
            let output = try #require(request.outputTokens)
            #expect(output > 0)
            #expect(output == request.serverTimings?.predictedTokens)
            #expect(request.inputTokens ?? 0 > 0)
            #expect(request.provider == "openai" && request.model == "SmolLM2-135M-Instruct")
            #expect(request.error == nil)
            try expectWaitSplitsIntoParts(request, ttft: ttft)
        }
        // The second turn appends to the first: the server serves the shared prefix from its cache.
        #expect(requests[1].reusedPrefixEntries == 1)
        #expect(requests[1].cachedInputTokens ?? 0 > 0)
        #expect(requests[1].serverTimings?.cachedTokens ?? 0 > 0)
        #expect(try reader.sessions(runID: runID).map(\.label) == ["chat"])
    }

    /// The client's phases from libcurl and the server's prompt time from llama.cpp, joined: the
    /// milestones keep their order inside the wait, and the five parts add up to the measured time
    /// to first token. llama.cpp reports no queue: "not reported", not 0.
    private func expectWaitSplitsIntoParts(_ request: RequestRecord, ttft: Int64) throws {
        let phases = try #require(request.clientPhases)
        #expect(phases.nameResolved <= phases.connected && phases.connected <= phases.requestSent)
        #expect(phases.requestSent <= phases.firstByte && phases.firstByte <= ttft)
        #expect(phases.tlsDone == nil, "plain HTTP on loopback has no TLS")
        #expect(request.serverQueueDuration == nil)
        let parts = try #require(TTFTSplit.Parts(request))
        #expect(parts.queue == nil)
        #expect(parts.connect == phases.requestSent)
        #expect(parts.prompt == request.serverTimings.map { min($0.promptDuration, ttft - phases.requestSent) })
        let sum = [parts.connect, parts.queue, parts.prompt, parts.toFirstByte, parts.afterFirstByte]
            .compactMap { $0 }.reduce(0, +)
        #expect(sum == ttft)
        #expect(parts.named.allSatisfy { $0.value.map { $0 >= 0 } ?? true })
    }

    @Test func aRollingWindowBreaksTheCacheAndTheDropShows() async throws {
        let model = try model()
        let window = Mutex(false)
        let (reader, runID) = try await recorded { tracer in
            let session = LanguageModelSession(label: "windowed", middleware: [TracingMiddleware(tracer: tracer)]) {
                let rolling = window.withLock { $0 }
                return Profile("chat") { Instructions("You are a helpful assistant. Answer in one sentence.") }
                    .model(model).temperature(0).maximumResponseTokens(40)
                    .historyTransform { rolling ? Transcript.lastPrompts(1, of: $0) : $0 }
            }
            for prompt in ["Tell me about apples.", "And about pears?", "And about plums?"] {
                _ = try await session.respond(to: prompt)
            }
            window.withLock { $0 = true }
            _ = try await session.respond(to: "And about cherries?")
        }
        let requests = try reader.requests(runID: runID).sorted { $0.ts < $1.ts }
        try #require(requests.count == 4)
        let appended = try #require(requests[2].cachedInputTokens)
        let rewritten = try #require(requests[3].cachedInputTokens)
        #expect(appended > 0)
        #expect(requests[3].reusedPrefixEntries == 0)
        #expect(rewritten < appended, "cached tokens fell after the history rewrite")
    }

    @Test func aToolCallIsRecordedUnderItsRequest() async throws {
        let model = try model()
        let (reader, runID) = try await recorded { tracer in
            let session = LanguageModelSession(
                model: model, label: "tools", tools: [NotesSearch()],
                instructions: "You look things up in the user's notes.",
                middleware: [TracingMiddleware(tracer: tracer)])
            _ = try await session.respond(
                to: "What do my notes say about the launch?",
                options: GenerationOptions(temperature: 0, maximumResponseTokens: 64, toolChoice: .requiredOnce))
        }
        let requests = try reader.requests(runID: runID).sorted { $0.ts < $1.ts }
        let calls = try reader.toolCalls(runID: runID)
        try #require(requests.count == 2)
        try #require(calls.count == 1)
        let call = calls[0]
        #expect(call.name == "search_notes")
        #expect(call.requestID == requests[0].requestID)
        #expect(call.sessionID == requests[0].sessionID)
        #expect(call.outcome == .ok)
        #expect(call.argumentsBytes > 0 && call.outputBytes > 0)
        #expect(call.argumentsFingerprint.count == 16)
        #expect(call.ts >= requests[0].ts + requests[0].dur && call.ts + call.dur <= requests[1].ts)
        // Response facts: the server's id and model, where the request went, what it asked for.
        let port = try #require(try LlamaServerTrait.server().baseURL.port)
        for request in requests {
            let id = request.responseID ?? ""
            #expect(id.hasPrefix("chatcmpl-"), "response id \(id)")
            #expect(request.responseModel?.isEmpty == false)
            #expect(request.serverAddress == "127.0.0.1" && request.serverPort == Int64(port))
            #expect(request.streamed == true && request.maxTokens == 64 && request.temperature == 0)
        }
        #expect(requests[0].responseID != requests[1].responseID)
        // JSON-schema tool emulation gives no call id: the one made for the call is recorded.
        #expect(call.callID?.hasPrefix("call_") == true, "\(String(describing: call.callID))")
    }

    @Test func aDynamicProfileSwitchRecordsAHandoff() async throws {
        let model = try model()
        let economy = Mutex(false)
        let (reader, runID) = try await recorded { tracer in
            let session = LanguageModelSession(label: "planner", middleware: [TracingMiddleware(tracer: tracer)]) {
                let isEconomy = economy.withLock { $0 }
                return Profile(isEconomy ? "economy" : "standard") { Instructions("You plan days. Be brief.") }
                    .economyMode(isEnabled: isEconomy, maximumResponseTokens: 24, promptWindow: 1)
                    .model(model).temperature(0).maximumResponseTokens(48)
            }
            _ = try await session.respond(to: "Plan my morning.")
            economy.withLock { $0 = true }
            _ = try await session.respond(to: "Now the afternoon.")
        }
        let requests = try reader.requests(runID: runID).sorted { $0.ts < $1.ts }
        let handoffs = try reader.handoffs(runID: runID)
        #expect(requests.map(\.profile) == ["standard", "economy"])
        try #require(handoffs.count == 1)
        #expect(handoffs[0].kind == .profile)
        #expect(handoffs[0].from == "standard" && handoffs[0].to == "economy")
        #expect(handoffs[0].sessionID == requests[1].sessionID)
        #expect(handoffs[0].ts >= requests[0].ts + requests[0].dur && handoffs[0].ts <= requests[1].ts)
        #expect(requests[1].outputTokens ?? 99 <= 24)
    }
}

struct NotesSearch: Tool {
    struct Arguments: Codable, Sendable { var query: String }
    var name: String { "search_notes" }
    var description: String { "Searches the user's notes for a topic." }
    var parameters: JSONSchema { .object([.init("query", .string(description: "words to look for", maxLength: 40))]) }
    func call(arguments: Arguments) async throws -> String {
        "Task: launch prep. Finish the launch checklist by 11:00."
    }
}
