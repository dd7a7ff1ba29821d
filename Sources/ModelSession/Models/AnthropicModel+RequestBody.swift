import Reproducible

extension AnthropicModel {
    /// The Messages body; consecutive entries of one role merge into one message of content
    /// blocks, since the API wants user and assistant to alternate.
    func requestBody(for request: ModelRequest) -> OrderedJSON {
        var messages: [(role: String, blocks: [OrderedJSON])] = []
        for entry in request.entries {
            let (role, block) = Self.block(for: entry)
            if messages.last?.role == role {
                messages[messages.count - 1].blocks += block
            } else {
                messages.append((role, block))
            }
        }
        var body: [(String, OrderedJSON)] = [
            ("model", .string(modelName)),
            ("max_tokens", .int(request.options.maximumResponseTokens ?? defaultMaximumResponseTokens)),
            ("stream", .bool(true)),
        ]
        if let instructions = request.instructions, !instructions.isEmpty {
            body.append(("system", .string(instructions)))
        }
        if let temperature = request.options.temperature {
            body.append(("temperature", .double(temperature)))
        }
        body.append(
            (
                "messages",
                .array(
                    messages.map { .object([("role", .string($0.role)), ("content", .array($0.blocks))]) })
            ))
        if !request.tools.isEmpty {
            let tools = request.tools.map { tool in
                OrderedJSON.object([
                    ("name", .string(tool.name)), ("description", .string(tool.description)),
                    (
                        "input_schema",
                        .rawIfValid(tool.parameters, fallback: .object([("type", .string("object"))]))
                    ),
                ])
            }
            body.append(("tools", .array(tools)))
            let choice = request.effectiveToolChoice
            let type = choice == .automatic ? "auto" : choice == .none ? "none" : "any"
            body.append(("tool_choice", .object([("type", .string(type))])))
        }
        return .object(body)
    }

    static func block(for entry: Transcript.Entry) -> (role: String, blocks: [OrderedJSON]) {
        func text(_ text: String) -> OrderedJSON {
            .object([("type", .string("text")), ("text", .string(text))])
        }
        switch entry {
        case .prompt(let prompt): return ("user", [text(prompt)])
        case .response(let response): return ("assistant", [text(response)])
        case .toolCalls(let calls):
            return (
                "assistant",
                calls.map { call in
                    .object([
                        ("type", .string("tool_use")), ("id", .string(call.id)), ("name", .string(call.name)),
                        (
                            "input",
                            .rawIfValid(call.arguments.isEmpty ? "{}" : call.arguments, fallback: .object([]))
                        ),
                    ])
                }
            )
        case .toolOutput(let output):
            return (
                "user",
                [
                    .object([
                        ("type", .string("tool_result")), ("tool_use_id", .string(output.callID)),
                        ("content", .string(output.content)),
                    ])
                ]
            )
        }
    }
}
