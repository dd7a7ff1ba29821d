extension HandoffRecord {
    /// What changed between two requests of a session: an open set, so a recorder may name its own
    /// (`let kind: HandoffRecord.Kind = "temperature"`) and a reader keeps a word it does not know.
    public struct Kind: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The word the store, JSON Lines and the tracepoint hold.
        public var rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        /// The profile's name changed.
        public static let profile: Kind = "profile"
        /// The model changed (`provider/model`).
        public static let model: Kind = "model"
        /// The instructions changed (named by fingerprint, never by text).
        public static let instructions: Kind = "instructions"
        /// The tool definitions changed (named by tool names and fingerprint).
        public static let tools: Kind = "tools"

        public var description: String { rawValue }
    }
}
