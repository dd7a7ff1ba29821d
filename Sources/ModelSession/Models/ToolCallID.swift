/// Ids for tool calls that a backend reports without one (llama.cpp's JSON-schema emulation in
/// ``StructuredToolCalling``, a server that leaves `id` out): the same call in the same response
/// always gets the same id, so a recorded run and its transcript agree, and calls of different
/// responses differ as their response ids do.
enum ToolCallID {
    /// `call_` and 16 hex digits of a 64-bit FNV-1a hash of the response id, the call's index
    /// in the response, its tool name and its arguments.
    static func make(responseID: String?, index: Int, name: String, arguments: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(responseID ?? "")\u{0}\(index)\u{0}\(name)\u{0}\(arguments)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return "call_" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
