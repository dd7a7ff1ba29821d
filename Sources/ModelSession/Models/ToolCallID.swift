import Reproducible

/// Ids for tool calls that a backend reports without one (llama.cpp's JSON-schema emulation in
/// ``StructuredToolCalling``, a server that leaves `id` out): the same call in the same response
/// always gets the same id, so a recorded run and its transcript agree, and calls of different
/// responses differ as their response ids do.
enum ToolCallID {
    /// `call_` and 16 hex digits of a 64-bit FNV-1a hash of the response id, the call's index
    /// in the response, its tool name and its arguments.
    static func make(responseID: String?, index: Int, name: String, arguments: String) -> String {
        "call_" + FNV1a.hex("\(responseID ?? "")\u{0}\(index)\u{0}\(name)\u{0}\(arguments)")
    }
}
