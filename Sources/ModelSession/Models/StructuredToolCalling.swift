import Foundation
import Reproducible

/// Tool calls carried in schema-constrained JSON, for models whose chat template has no tools.
///
/// Why, measured against llama.cpp's server with SmolLM2-135M-Instruct: the server renders
/// `tools` only through the model's chat template, and SmolLM2's has none, so `tools` is
/// silently dropped and even `tool_choice: "required"` yields plain text; a `response_format`
/// or grammar together with `tools` is refused ("Cannot specify grammar with tools"). Without
/// `tools`, `response_format` with a JSON schema constrains the reply reliably. Given the tool's
/// output, the 135M model asks for the same tool again, so callers use
/// ``ToolChoice/requiredOnce``: that round is sent without a schema and streams plain text.
///
/// The system prompt lists the tools; `response_format` constrains the reply to
/// `{"tool": name, "arguments": {...}}` (one variant per tool, arguments by its schema) or
/// `{"answer": text}`. Past tool calls replay as the assistant's JSON, tool outputs as user
/// messages, so any chat template renders them.
enum StructuredToolCalling {
    static func instructions(for tools: [ToolDefinition]) -> String {
        var text = """
            You can use tools. To call a tool, reply with only JSON: {"tool": "<tool name>", "arguments": {...}}.
            To answer the user, reply with only JSON: {"answer": "<your answer>"}, unless asked for plain text.
            Tools:
            """
        for tool in tools {
            text += "\n- \(tool.name): \(tool.description) Arguments (JSON schema): \(tool.parameters)"
        }
        return text
    }

    /// The `response_format` for a round, or nil when the reply is plain text (``ToolChoice/none``).
    static func responseSchema(for tools: [ToolDefinition], choice: ToolChoice) -> OrderedJSON? {
        let answer = OrderedJSON.object([
            ("type", .string("object")),
            ("properties", .object([("answer", .object([("type", .string("string"))]))])),
            ("required", .array([.string("answer")])), ("additionalProperties", .bool(false)),
        ])
        let calls = tools.map { tool in
            OrderedJSON.object([
                ("type", .string("object")),
                (
                    "properties",
                    .object([
                        ("tool", .object([("const", .string(tool.name))])),
                        (
                            "arguments",
                            .rawIfValid(tool.parameters, fallback: .object([("type", .string("object"))]))
                        ),
                    ])
                ),
                ("required", .array([.string("tool"), .string("arguments")])),
                ("additionalProperties", .bool(false)),
            ])
        }
        let variants: [OrderedJSON]
        switch choice {
        case .none: return nil
        case .automatic: variants = calls + [answer]
        case .required, .requiredOnce: variants = calls
        }
        return .object([
            ("type", .string("json_schema")),
            (
                "json_schema",
                .object([
                    ("name", .string("reply")), ("strict", .bool(true)),
                    ("schema", .object([("oneOf", .array(variants))])),
                ])
            ),
        ])
    }

    static func message(for entry: Transcript.Entry) -> OrderedJSON {
        switch entry {
        case .prompt, .response:
            return OpenAICompatibleModel.nativeMessage(for: entry)
        case .toolCalls(let calls):
            let text = calls.map { call in
                OrderedJSON.object([
                    ("tool", .string(call.name)),
                    ("arguments", .rawIfValid(call.arguments, fallback: .object([]))),
                ]).compact()
            }.joined(separator: "\n")
            return .object([("role", .string("assistant")), ("content", .string(text))])
        case .toolOutput(let output):
            return .object([
                ("role", .string("user")),
                ("content", .string("Tool \(output.toolName) returned: \(output.content)")),
            ])
        }
    }

    /// The model's complete reply as events: a tool call, or the answer's text. A reply that
    /// is not the expected JSON (cut off by the token limit) passes through as text. The call's
    /// id is made from `responseID` and the call (``ToolCallID``): the reply carries none.
    static func events(fromReply reply: String, responseID: String?) -> [ModelEvent] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any] else {
            return reply.isEmpty ? [] : [.contentDelta(reply)]
        }
        if let name = object["tool"] as? String {
            let arguments =
                object["arguments"].flatMap {
                    try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])
                }.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            let id = ToolCallID.make(responseID: responseID, index: 0, name: name, arguments: arguments)
            return [.toolCall(ToolCallRequest(id: id, name: name, arguments: arguments))]
        }
        if let answer = object["answer"] as? String { return [.contentDelta(answer)] }
        return [.contentDelta(reply)]
    }
}
