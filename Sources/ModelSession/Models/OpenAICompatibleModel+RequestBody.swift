import Reproducible

extension OpenAICompatibleModel {
    /// The chat completions body: stable member order, so an appended conversation renders to an
    /// appended prompt and the server's prompt cache stays warm.
    func requestBody(for request: ModelRequest) -> OrderedJSON {
        let structured = toolCalling == .structuredOutput && !request.tools.isEmpty
        var messages: [OrderedJSON] = []
        var system = request.instructions ?? ""
        if structured {
            system += (system.isEmpty ? "" : "\n\n") + StructuredToolCalling.instructions(for: request.tools)
        }
        if !system.isEmpty {
            messages.append(.object([("role", .string("system")), ("content", .string(system))]))
        }
        for entry in request.entries {
            messages.append(
                structured ? StructuredToolCalling.message(for: entry) : Self.nativeMessage(for: entry))
        }

        var body: [(String, OrderedJSON)] = [("model", .string(modelName)), ("messages", .array(messages))]
        body.append(("stream", .bool(true)))
        body.append(("stream_options", .object([("include_usage", .bool(true))])))
        if let temperature = request.options.temperature {
            body.append(("temperature", .double(temperature)))
        }
        if let tokens = request.options.maximumResponseTokens { body.append(("max_tokens", .int(tokens))) }
        let choice = request.effectiveToolChoice
        if structured {
            if let schema = StructuredToolCalling.responseSchema(for: request.tools, choice: choice) {
                body.append(("response_format", schema))
            }
        } else if !request.tools.isEmpty {
            body.append(("tools", .array(request.tools.map(Self.nativeTool))))
            let name = choice == .automatic ? "auto" : choice == .none ? "none" : "required"
            body.append(("tool_choice", .string(name)))
        }
        return .object(body)
    }

    static func nativeTool(_ tool: ToolDefinition) -> OrderedJSON {
        .object([
            ("type", .string("function")),
            (
                "function",
                .object([
                    ("name", .string(tool.name)), ("description", .string(tool.description)),
                    (
                        "parameters",
                        .rawIfValid(tool.parameters, fallback: .object([("type", .string("object"))]))
                    ),
                ])
            ),
        ])
    }

    static func nativeMessage(for entry: Transcript.Entry) -> OrderedJSON {
        switch entry {
        case .prompt(let text):
            return .object([("role", .string("user")), ("content", .string(text))])
        case .response(let text):
            return .object([("role", .string("assistant")), ("content", .string(text))])
        case .toolCalls(let calls):
            let toolCalls = calls.map { call in
                OrderedJSON.object([
                    ("id", .string(call.id)), ("type", .string("function")),
                    (
                        "function",
                        .object([("name", .string(call.name)), ("arguments", .string(call.arguments))])
                    ),
                ])
            }
            return .object([
                ("role", .string("assistant")), ("content", .null), ("tool_calls", .array(toolCalls)),
            ])
        case .toolOutput(let output):
            return .object([
                ("role", .string("tool")), ("tool_call_id", .string(output.callID)),
                ("content", .string(output.content)),
            ])
        }
    }
}
