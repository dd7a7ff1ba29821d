extension ToolCallRecord {
    /// How a tool call ended: ``ok`` or ``error``.
    ///
    /// The tracer writes only these two, yet this is a struct and not an enum: a store or an LTTng
    /// trace written by another version may hold another word, and it must read, and copy through
    /// `trace-report import`, unchanged. Compare with the constants, never with the raw text.
    public struct Outcome: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The word the store, JSON Lines and the tracepoint hold.
        public var rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        /// The tool returned.
        public static let ok = Outcome(rawValue: "ok")
        /// The tool threw, or the client reported its result as an error.
        public static let error = Outcome(rawValue: "error")

        public var description: String { rawValue }
    }
}
