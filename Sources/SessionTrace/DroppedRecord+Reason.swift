extension DroppedRecord {
    /// Why events were lost: an open set, since each sink has its own reasons and a reader keeps a
    /// word it does not know.
    public struct Reason: RawRepresentable, Sendable, Hashable, Comparable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        /// The word the store, JSON Lines and the tracepoint hold.
        public var rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        /// The sink's queue was full, so the event was refused rather than block the caller.
        public static let queueFull: Reason = "queue_full"
        /// SQLite failed to write the event.
        public static let sqliteError: Reason = "sqlite_error"
        /// The store stayed locked by another connection past the writer's waiting.
        public static let busy: Reason = "busy"
        /// The event came after the sink was closed.
        public static let closed: Reason = "closed"
        /// LTTng discarded the event (its ring buffer was full), as the trace's packets count it.
        public static let discarded: Reason = "discarded"
        /// The recording proxy forwarded a model request whose body it could not read (not a JSON
        /// object), so the request is not in the trace.
        public static let unreadableRequest: Reason = "unreadable_request"

        public var description: String { rawValue }

        /// By the raw word, so counts list in one order everywhere.
        public static func < (lhs: Reason, rhs: Reason) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}
