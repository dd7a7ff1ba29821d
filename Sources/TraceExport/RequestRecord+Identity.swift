import Reproducible
import SessionTrace

extension RequestRecord {
    /// The fields that tie a request to its turn, its instructions and tools, and the server's
    /// answer, under the names both the JSON Lines and the Perfetto exports give them.
    var identityFields: [(String, OrderedJSON)] {
        [
            ("turn_id", .id(turnID)),
            ("instructions_fingerprint", .string(instructionsFingerprint)),
            ("tools_fingerprint", .string(toolsFingerprint)),
            ("cache_write_tokens", .int(cacheWriteTokens)),
            ("response_id", .string(responseID)),
            ("response_model", .string(responseModel)),
        ]
    }
}
