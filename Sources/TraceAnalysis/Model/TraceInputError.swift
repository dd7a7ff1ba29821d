import TraceStore

/// Why a recording could not be read: a store's error or an LTTng trace's; `description` is one
/// sentence naming the input.
public enum TraceInputError: Error, Sendable, Hashable, CustomStringConvertible {
    case store(StoreError)
    case lttng(LTTngTraceError)

    public var description: String {
        switch self {
        case .store(let error): error.description
        case .lttng(let error): error.description
        }
    }
}
