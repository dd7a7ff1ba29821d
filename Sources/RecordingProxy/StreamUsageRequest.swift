import Foundation

/// Asks the upstream for a streamed chat completion's (or completion's) token counts when the
/// client did not.
///
/// OpenAI-compatible servers report usage in a stream only when `stream_options.include_usage`
/// is true, in one extra chunk (`"choices": []`) before `[DONE]`. The proxy adds the option to a
/// streamed request that has no `stream_options` at all, and ``UsageChunkFilter`` takes the
/// extra chunk out again, so the client sees what it asked for.
enum StreamUsageRequest {
    /// The member added, as bytes: right after the body's opening brace, so that nothing else in
    /// the client's body (numbers, escapes, key order) is re-encoded.
    private static let member = Array(#""stream_options":{"include_usage":true},"#.utf8)

    /// The body with the option added; nil when the request does not stream or already names
    /// `stream_options` (a client that set `include_usage` to false is left as it is).
    static func addingIncludeUsage(to body: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              object["stream"] as? Bool == true, object["stream_options"] == nil, !object.isEmpty,
              let brace = body.firstIndex(where: { !isJSONWhitespace($0) }), body[brace] == UInt8(ascii: "{")
        else { return nil }
        var rewritten: [UInt8] = []
        rewritten.reserveCapacity(body.count + member.count)
        rewritten.append(contentsOf: body[...brace])
        rewritten.append(contentsOf: member)
        rewritten.append(contentsOf: body[(brace + 1)...])
        return rewritten
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
