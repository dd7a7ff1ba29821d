import TraceModel

/// Why an LTTng trace could not be read; `description` is one sentence naming the trace.
public enum LTTngTraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing at `path`.
    case notFound(path: String)
    /// No folder at or below `path` holds a CTF trace (a `metadata` file and its streams).
    case noTrace(path: String)
    /// The trace holds no `session_trace` event: the provider was not enabled, or the program
    /// recorded nothing while the session ran.
    case noSessionTraceEvents(path: String, otherEvents: Int)
    /// babeltrace2 could not read the trace: a truncated or damaged stream or metadata file.
    case damaged(path: String, reason: String)
    /// The trace was recorded by newer `session_trace` tracepoints than this reader knows.
    case newerTracepoints(path: String, found: Int, supported: Int)
    /// A `session_trace` event lacks a field without which it means nothing.
    case missingField(path: String, event: String, field: String)
    /// A live session could not be reached through lttng-relayd.
    case liveUnavailable(url: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let path):
            "\(path) does not exist"
        case .noTrace(let path):
            "\(path) is neither a SessionTrace store nor a folder holding an LTTng trace (no CTF metadata file in it)"
        case .noSessionTraceEvents(let path, let otherEvents):
            "\(path) is an LTTng trace without session_trace events (\(otherEvents) events of other providers); "
                + "record with lttng enable-event -u 'session_trace:*'"
        case .damaged(let path, let reason):
            "\(path) is a damaged LTTng trace (\(reason))"
        case .newerTracepoints(let path, let found, let supported):
            "\(path) was recorded with session_trace tracepoints of version \(found), newer than this tool's "
                + "\(supported); upgrade SessionTrace"
        case .missingField(let path, let event, let field):
            "\(path) has \(event) events without the field \(field), so they cannot be read"
        case .liveUnavailable(let url, let reason):
            "cannot follow the live session \(url) (\(reason))"
        }
    }
}
