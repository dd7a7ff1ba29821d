import TraceModel
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

extension TraceLoader {
    /// Loads every record of the store at `path`, or of the LTTng trace in the folder `path`
    /// (see ``LTTngTrace``), grouped by run.
    ///
    /// - Parameter chunks: false to skip streamed-chunk rows, which can outnumber requests by far.
    /// - Throws: ``TraceInputError`` when the input is missing, not a recording, damaged or too
    ///   new; its `description` is one sentence for the user.
    public static func load(path: String, chunks: Bool = true) throws(TraceInputError) -> RecordedTrace {
        if LTTngTrace.isTraceInput(path) {
            do { return try LTTngTrace.load(path: path, chunks: chunks) } catch { throw .lttng(error) }
        }
        do { return try load(StoreReader(path: path), chunks: chunks) } catch { throw .store(error) }
    }
}
