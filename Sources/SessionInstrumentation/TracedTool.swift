import Foundation
import ModelSession
import SessionTrace
import Similarity

/// A tool whose every call is recorded as a `tool_call` nested under the request that asked
/// for it: name, the arguments' fingerprint and sketch (`ArgumentSketch`), sizes, duration,
/// outcome, and the output's fingerprint and similarity sketch (`OutputSketch`). Text is not
/// recorded unless payload capture is on.
///
/// Sessions get one through ``TracingMiddleware``; code with its own session type wraps a tool
/// directly: `TracedTool(searchTool, tracer: tracer)`.
public struct TracedTool<Base: Tool>: Tool {
    /// The wrapped tool's arguments, so the session decodes the model's JSON as it would for `base`.
    public typealias Arguments = Base.Arguments

    /// The wrapped tool, which every call goes to unchanged.
    public let base: Base
    let tracer: Tracer
    let recorder: SessionRecorder?
    let options: TracingOptions

    /// Wraps `base`; its calls nest under the request and session in the task's `TraceContext`, if any.
    public init(_ base: Base, tracer: Tracer, options: TracingOptions = .init()) {
        self.init(base, tracer: tracer, recorder: nil, options: options)
    }

    init(_ base: Base, tracer: Tracer, recorder: SessionRecorder?, options: TracingOptions) {
        self.base = base
        self.tracer = tracer
        self.recorder = recorder
        self.options = options
    }

    /// The wrapped tool's name, unchanged: the session finds tools by the name the model calls.
    public var name: String { base.name }
    /// The wrapped tool's description, unchanged.
    public var description: String { base.description }
    /// The wrapped tool's parameter schema, unchanged.
    public var parameters: JSONSchema { base.parameters }

    /// Calls `base` and records a ``ToolCallRecord`` when it returns or throws; its output or error
    /// passes through unchanged. With `.toolCall` disabled it only calls `base`.
    public func call(arguments: Arguments) async throws -> String {
        guard tracer.isEnabled(.toolCall) else { return try await base.call(arguments: arguments) }
        let encoded = (try? Self.encoder.encode(arguments)) ?? Data()
        // Nil ids fall back to the task's context: a tool wrapped by hand nests where it is called.
        return try await tracer.withToolCall(
            base.name, callID: ToolCallRequest.current?.id, requestID: recorder?.lastRequestID,
            sessionID: recorder?.sessionID,
            argumentsFingerprint: Fingerprint.of(Fingerprint.normalizedArguments(encoded)),
            argumentsBytes: Int64(encoded.count), argumentsSketch: ArgumentSketch.of(String(decoding: encoded, as: UTF8.self))
        ) { call in
            if options.capturePayloads {
                tracer.capturePayload(.toolArguments, String(decoding: encoded, as: UTF8.self), parentID: call.id)
            }
            let output = try await base.call(arguments: arguments)
            call.setOutput(
                bytes: Int64(output.utf8.count), fingerprint: Fingerprint.of(output), sketch: OutputSketch.of(output))
            if options.capturePayloads { tracer.capturePayload(.toolOutput, output, parentID: call.id) }
            return output
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
