import Foundation
import Testing

@testable import ModelSession

@Suite("Server-sent events and stream assembly")
struct StreamParsingTests {
    let url = URL(string: "http://127.0.0.1:9/v1/chat/completions")!

    /// Feeds `body` to a parser in chunks of `size` bytes, so lines split across chunks.
    func parse(
        _ body: String, chunkSize size: Int, limit: Int = 1 << 20, framing: StreamFraming = .serverSentEvents
    ) throws -> (events: [ServerSentEvent], pending: Bool) {
        var parser = ServerSentEventParser(maximumEventSize: limit, framing: framing)
        var events: [ServerSentEvent] = []
        let bytes = Array(body.utf8)
        for start in stride(from: 0, to: bytes.count, by: size) {
            events += try bytes[start..<min(start + size, bytes.count)].withUnsafeBytes {
                try parser.consume($0)
            }
        }
        return (events, parser.hasPendingInput)
    }

    @Test("events parse the same in any chunking, CRLF or LF, with comments", arguments: [1, 3, 7, 4096])
    func chunking(size: Int) throws {
        let body =
            ": ping\r\nevent: message_start\r\ndata: {\"a\":1}\r\n\r\ndata: line one\ndata: line two\n\ndata:[DONE]\n\n"
        let (events, pending) = try parse(body, chunkSize: size)
        #expect(
            events == [
                ServerSentEvent(event: "message_start", data: #"{"a":1}"#),
                ServerSentEvent(event: nil, data: "line one\nline two"),
                ServerSentEvent(event: nil, data: "[DONE]"),
            ])
        #expect(!pending)
    }

    @Test("a body cut inside an event leaves pending input")
    func truncatedBody() throws {
        #expect(try parse("data: {\"choices\":[{\"del", chunkSize: 5).pending)
        #expect(try parse("data: {}\n", chunkSize: 5).pending)
    }

    @Test("a line or an event's data over the limit is refused, in any chunking", arguments: [1, 7, 4096])
    func eventSizeLimit(size: Int) throws {
        let limit = 32
        let atLimit = "data: " + String(repeating: "x", count: limit - 6) + "\n\n"
        #expect(try parse(atLimit, chunkSize: size, limit: limit).events.count == 1)
        #expect(throws: ServerSentEventParser.TooLarge.self, "one long line with its end") {
            try parse("data: " + String(repeating: "x", count: limit) + "\n\n", chunkSize: size, limit: limit)
        }
        #expect(throws: ServerSentEventParser.TooLarge.self, "a long line that never ends") {
            try parse(String(repeating: "x", count: 10 * limit), chunkSize: size, limit: limit)
        }
        #expect(throws: ServerSentEventParser.TooLarge.self, "short data lines adding up") {
            try parse(String(repeating: "data: 0123456789\n", count: 4) + "\n", chunkSize: size, limit: limit)
        }
        #expect(
            try parse(String(repeating: ": comment\n", count: 100), chunkSize: size, limit: limit).events
                .isEmpty)
    }

    @Test("server text keeps no control characters, bidirectional overrides or runs of white space")
    func serverText() {
        #expect(
            HTTPEndpoint.Error.serverText("\u{1B}[31mred\u{7}\u{7F}\u{9B}2J")
                == "\u{241B}[31mred\u{2407}\u{2421}\u{FFFD}2J")
        #expect(HTTPEndpoint.Error.serverText("  <h1>Bad\r\n\tGateway</h1>\n") == "<h1>Bad Gateway</h1>")
        #expect(HTTPEndpoint.Error.serverText("abc\u{202E}fed\u{2066}") == "abc\u{FFFD}fed\u{FFFD}")
        #expect(HTTPEndpoint.Error.serverText("café ☕️", limit: 100) == "café ☕️")
        #expect(HTTPEndpoint.Error.serverText(String(repeating: "a", count: 50), limit: 10) == "aaaaaaaaaa…")
        #expect(
            HTTPEndpoint.Error.message(fromBody: Array(#"{"error":{"message":"bad\u001b[0m"}}"#.utf8))
                == "bad\u{241B}[0m")
    }

    func assemble(_ body: String, structured: Bool = false) throws -> [ModelEvent] {
        var assembler = OpenAIStreamAssembler(url: url, expectsStructuredOutput: structured)
        var events: [ModelEvent] = []
        for event in try parse(body, chunkSize: 11).events { events += try assembler.consume(event) }
        return events + (try assembler.finish())
    }

    @Test("llama.cpp chat chunks: content, usage with cached tokens, timings, finish reason")
    func openAIContentUsageTimings() throws {
        let body = """
            data: {"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}]}

            data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"Par"}}]}

            data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"is"}}]}

            data: {"choices":[{"finish_reason":"stop","index":0,"delta":{}}]}

            data: {"choices":[],"usage":{"completion_tokens":2,"prompt_tokens":25,"total_tokens":27,\
            "prompt_tokens_details":{"cached_tokens":20}},"timings":{"cache_n":20,"prompt_n":5,"prompt_ms":11.5,\
            "prompt_per_token_ms":2.3,"prompt_per_second":434.7,"predicted_n":2,"predicted_ms":19.5,\
            "predicted_per_token_ms":9.75,"predicted_per_second":102.5}}

            data: [DONE]


            """
        #expect(
            try assemble(body) == [
                .outputStarted, .contentDelta("Par"), .contentDelta("is"),
                .usage(TokenUsage(inputTokens: 25, cachedInputTokens: 20, outputTokens: 2)),
                .serverTimings(
                    ServerTimingsReport(
                        promptTokens: 5, cachedTokens: 20, promptMilliseconds: 11.5, predictedTokens: 2,
                        predictedMilliseconds: 19.5, predictedPerSecond: 102.5)),
                .finished(reason: "stop"),
            ])
    }

    /// The legacy completions API, as llama.cpp's `/v1/completions` writes it: each choice has its
    /// `text` where a chat chunk has a delta, and the last chunk carries the usage and timings.
    @Test("legacy completion chunks: text, usage, timings, finish reason")
    func openAICompletionText() throws {
        let body = """
            data: {"choices":[{"text":" Par","index":0,"logprobs":null,"finish_reason":null}],\
            "object":"text_completion"}

            data: {"choices":[{"text":"","index":0,"logprobs":null,"finish_reason":null}],"object":"text_completion"}

            data: {"choices":[{"text":"is","index":0,"logprobs":null,"finish_reason":"length"}],\
            "object":"text_completion","usage":{"completion_tokens":2,"prompt_tokens":5,"total_tokens":7},\
            "timings":{"cache_n":0,"prompt_n":5,"prompt_ms":24.4,"prompt_per_token_ms":4.9,\
            "prompt_per_second":205.2,"predicted_n":2,"predicted_ms":13.1,"predicted_per_token_ms":6.6,\
            "predicted_per_second":152.7}}

            data: [DONE]


            """
        #expect(
            try assemble(body) == [
                .outputStarted, .contentDelta(" Par"), .contentDelta("is"),
                .usage(TokenUsage(inputTokens: 5, cachedInputTokens: nil, outputTokens: 2)),
                .serverTimings(
                    ServerTimingsReport(
                        promptTokens: 5, cachedTokens: 0, promptMilliseconds: 24.4, predictedTokens: 2,
                        predictedMilliseconds: 13.1, predictedPerSecond: 152.7)),
                .finished(reason: "length"),
            ])
    }

    /// vLLM with `--enable-per-request-metrics`, in its documented format: the `metrics` object
    /// beside the usage of the last chunk. Its queue time is the one a server reports; its time
    /// to first token (prefill and first decode) stands for the prompt's time.
    @Test("vLLM chunks: per-request metrics give the server's queue and prompt times")
    func vLLMPerRequestMetrics() throws {
        let body = """
            data: {"id":"chatcmpl-abc123","object":"chat.completion.chunk","model":"meta-llama/Llama-3.1-8B-Instruct",\
            "choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}

            data: {"id":"chatcmpl-abc123","object":"chat.completion.chunk","model":"meta-llama/Llama-3.1-8B-Instruct",\
            "choices":[{"index":0,"delta":{},"finish_reason":"stop"}],\
            "usage":{"prompt_tokens":42,"completion_tokens":128,"total_tokens":170,"prompt_tokens_details":{"cached_tokens":32}},\
            "metrics":{"time_to_first_token_ms":85.2,"generation_time_ms":1240.5,"queue_time_ms":12.3,\
            "mean_itl_ms":9.1,"tokens_per_second":103.2}}

            data: [DONE]


            """
        #expect(
            try assemble(body) == [
                .outputStarted, .contentDelta("Hi"),
                .usage(TokenUsage(inputTokens: 42, cachedInputTokens: 32, outputTokens: 128)),
                .serverTimings(
                    ServerTimingsReport(
                        promptTokens: 10, cachedTokens: 32, promptMilliseconds: 85.2, predictedTokens: 128,
                        predictedMilliseconds: 1240.5, predictedPerSecond: 103.2, queueMilliseconds: 12.3)),
                .finished(reason: "stop"),
            ])
    }

    /// A reasoning model's thinking, as llama.cpp and DeepSeek stream it (`reasoning_content`)
    /// and as vLLM and OpenRouter do (`reasoning`): output, so it starts the output, and apart from
    /// the answer's content.
    @Test(
        "reasoning deltas start the output and stay apart from the content",
        arguments: ["reasoning_content", "reasoning"])
    func openAIReasoningDeltas(field: String) throws {
        let body = """
            data: {"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}]}

            data: {"choices":[{"finish_reason":null,"index":0,"delta":{"\(field)":"The user"}}]}

            data: {"choices":[{"finish_reason":null,"index":0,"delta":{"\(field)":" asks."}}]}

            data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"Paris"}}]}

            data: {"choices":[{"finish_reason":"stop","index":0,"delta":{}}]}

            data: [DONE]


            """
        #expect(
            try assemble(body) == [
                .outputStarted, .reasoningDelta("The user"), .reasoningDelta(" asks."), .contentDelta("Paris"),
                .finished(reason: "stop"),
            ])
    }

    @Test("tool call fragments assemble by index")
    func openAIToolCallDeltas() throws {
        let body = """
            data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function",\
            "function":{"name":"get_weather","arguments":""}}]}}]}

            data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":"}}]}}]}

            data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","function":{"name":"time","arguments":"{}"}}]}}]}

            data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\"Oslo\\"}"}}]}}]}

            data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

            data: [DONE]


            """
        #expect(
            try assemble(body) == [
                .outputStarted,
                .toolCall(ToolCallRequest(id: "call_a", name: "get_weather", arguments: #"{"city":"Oslo"}"#)),
                .toolCall(ToolCallRequest(id: "call_b", name: "time", arguments: "{}")),
                .finished(reason: "tool_calls"),
            ])
    }

    @Test("structured output turns the JSON reply into a tool call or an answer")
    func structuredReply() throws {
        func body(_ reply: String, id: String = "chatcmpl-9") -> String {
            let escaped = reply.replacingOccurrences(of: "\"", with: "\\\"")
            return
                "data: {\"id\":\"\(id)\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\(escaped)\"},"
                + "\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
        }
        let reply = #"{"tool": "get_weather", "arguments": {"city": "Paris"}}"#
        let toolEvents = try assemble(body(reply), structured: true)
        #expect(toolEvents.first == .outputStarted)
        guard case .toolCall(let call) = toolEvents.dropFirst().first else {
            Issue.record("expected a tool call, got \(toolEvents)")
            return
        }
        #expect(call.name == "get_weather")
        #expect(call.arguments == #"{"city":"Paris"}"#)
        #expect(toolEvents.last == .finished(reason: "tool_calls"))
        // The reply carries no id: one is made from the response and the call, the same every time.
        #expect(call.id.hasPrefix("call_") && call.id.count == 21)
        #expect(try assemble(body(reply), structured: true) == toolEvents)
        #expect(try assemble(body(reply, id: "chatcmpl-10"), structured: true) != toolEvents)
        #expect(
            try assemble(body(#"{"answer": "It is sunny."}"#), structured: true).prefix(2)
                == [.outputStarted, .contentDelta("It is sunny.")])
        #expect(
            try assemble(body(#"{"answ"#), structured: true).dropFirst().first == .contentDelta(#"{"answ"#))
    }

    @Test("the response id and the answering model come from the chunks and message_start")
    func responseIdentity() throws {
        var openAI = OpenAIStreamAssembler(url: url)
        for event in try parse(
            #"data: {"id":"chatcmpl-1","model":"smol","choices":[{"index":0,"delta":{"content":"a"}}]}"#
                + "\n\n"
                + #"data: {"id":"chatcmpl-1","model":"smol","choices":[],"usage":{"prompt_tokens":1}}"#
                + "\n\n",
            chunkSize: 9
        ).events { _ = try openAI.consume(event) }
        #expect(openAI.responseID == "chatcmpl-1" && openAI.responseModel == "smol")
        var anthropic = AnthropicStreamAssembler(url: url)
        for event in try parse(
            "event: message_start\n"
                + #"data: {"type":"message_start","message":{"id":"msg_1","model":"claude-x"}}"# + "\n\n",
            chunkSize: 9
        ).events { _ = try anthropic.consume(event) }
        #expect(anthropic.responseID == "msg_1" && anthropic.responseModel == "claude-x")
    }

    @Test("malformed JSON, an error object and a missing end are typed errors")
    func openAIErrors() throws {
        #expect(throws: HTTPEndpoint.Error.self) { try assemble("data: {not json\n\n") }
        do {
            _ = try assemble(#"data: {"error":{"code":500,"message":"slot unavailable"}}"# + "\n\n")
            Issue.record("expected serverError")
        } catch HTTPEndpoint.Error.serverError(let errorURL, let message) {
            #expect(errorURL == url)
            #expect(message == "slot unavailable")
        }
        do {
            _ = try assemble(#"data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}"# + "\n\n")
            Issue.record("expected truncatedStream")
        } catch HTTPEndpoint.Error.truncatedStream(let errorURL, _) {
            #expect(errorURL == url)
        }
    }

    func assembleAnthropic(_ body: String) throws -> [ModelEvent] {
        var assembler = AnthropicStreamAssembler(url: url)
        var events: [ModelEvent] = []
        for event in try parse(body, chunkSize: 13).events { events += try assembler.consume(event) }
        return events + (try assembler.finish())
    }

    @Test("Anthropic events: text, tool_use input, cache usage, stop reason")
    func anthropicEvents() throws {
        let body = """
            event: message_start
            data: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":5,"cache_read_input_tokens":100,\
            "cache_creation_input_tokens":7,"output_tokens":0}}}

            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking."}}

            event: ping
            data: {"type":"ping"}

            event: content_block_stop
            data: {"type":"content_block_stop","index":0}

            event: content_block_start
            data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"tu_1","name":"get_weather"}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Oslo\\"}"}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":1}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":12}}

            event: message_stop
            data: {"type":"message_stop"}


            """
        #expect(
            try assembleAnthropic(body) == [
                .outputStarted, .contentDelta("Checking."),
                .toolCall(ToolCallRequest(id: "tu_1", name: "get_weather", arguments: #"{"city": "Oslo"}"#)),
                .usage(
                    TokenUsage(
                        inputTokens: 112, cachedInputTokens: 100, outputTokens: 12,
                        cacheCreationInputTokens: 7)),
                .finished(reason: "tool_use"),
            ])
    }

    /// Extended thinking: a `thinking` block's `thinking_delta`s, then its `signature_delta`, then
    /// the text block.
    @Test("Anthropic thinking deltas start the output as reasoning; the signature is not text")
    func anthropicThinking() throws {
        let body = """
            event: message_start
            data: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":9,"output_tokens":0}}}

            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me add."}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":0}

            event: content_block_start
            data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"4"}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":1}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":30}}

            event: message_stop
            data: {"type":"message_stop"}


            """
        #expect(
            try assembleAnthropic(body) == [
                .outputStarted, .reasoningDelta("Let me add."), .contentDelta("4"),
                .usage(TokenUsage(inputTokens: 9, outputTokens: 30)),
                .finished(reason: "end_turn"),
            ])
    }

    @Test("Anthropic error event and missing message_stop are typed errors")
    func anthropicErrors() throws {
        do {
            _ = try assembleAnthropic(
                "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"
            )
            Issue.record("expected serverError")
        } catch HTTPEndpoint.Error.serverError(_, let message) {
            #expect(message == "Overloaded")
        }
        #expect(throws: HTTPEndpoint.Error.self) {
            try assembleAnthropic(
                "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n")
        }
    }

    @Test("request bodies: native tools, structured tools, Anthropic blocks with merged roles")
    func requestBodies() throws {
        let base = URL(string: "http://127.0.0.1:9")!
        let output = ToolOutput(callID: "c1", toolName: "get_weather", content: "Sunny")
        let request = ModelRequest(
            instructions: "Be brief.",
            entries: [
                .prompt("Weather?"),
                .toolCalls([ToolCallRequest(id: "c1", name: "get_weather", arguments: #"{"city":"Oslo"}"#)]),
                .toolOutput(output),
            ],
            tools: [WeatherTool().definition],
            options: GenerationOptions(temperature: 0, maximumResponseTokens: 20))

        let native = OpenAICompatibleModel(baseURL: base, modelName: "m").requestBody(for: request).compact()
        #expect(native.contains(#""tool_calls":[{"id":"c1","type":"function""#))
        #expect(native.contains(#""role":"tool","tool_call_id":"c1","content":"Sunny""#))
        #expect(native.contains(#""tool_choice":"auto""#))
        #expect(native.contains(#""stream_options":{"include_usage":true}"#))

        let structured = OpenAICompatibleModel(baseURL: base, modelName: "m", toolCalling: .structuredOutput)
            .requestBody(for: request).compact()
        #expect(!structured.contains(#""tools""#))
        #expect(structured.contains(#""response_format":{"type":"json_schema""#))
        #expect(structured.contains(#"{\"tool\":\"get_weather\",\"arguments\":{\"city\":\"Oslo\"}}"#))
        #expect(structured.contains("Tool get_weather returned: Sunny"))

        let anthropic = AnthropicModel(baseURL: base, modelName: "m").requestBody(for: request).compact()
        #expect(anthropic.contains(#""system":"Be brief.""#))
        #expect(
            anthropic.contains(#"{"type":"tool_use","id":"c1","name":"get_weather","input":{"city":"Oslo"}}"#)
        )
        #expect(anthropic.contains(#""input_schema":{"type":"object""#))
        for body in [native, structured, anthropic] {
            #expect((try? JSONSerialization.jsonObject(with: Data(body.utf8))) != nil, "valid JSON: \(body)")
        }
    }
}
