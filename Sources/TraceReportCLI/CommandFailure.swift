import LTTngReader
import TraceAnalysis
import TraceExport
import TraceStore

/// Why reading a store, trace, rule file or export target stopped: one sentence for the user;
/// `trace-report` prints it and exits 2.
public enum CommandFailure: Error, Sendable {
    /// The command line is wrong.
    case usage(UsageError)
    /// The store or LTTng trace could not be read.
    case input(TraceInputError)
    /// Something else about the input, as one sentence.
    case message(String)

    /// The store could not be read.
    public static func input(_ error: StoreError) -> CommandFailure { .input(.store(error)) }

    /// An export could not be written or delivered.
    public static func export(_ error: ExportError) -> CommandFailure { .message(error.message) }

    /// An LTTng trace could not be imported into a store.
    public static func imported(_ error: LTTngImporter.Failure) -> CommandFailure {
        switch error {
        case .input(let input): .input(input)
        case .notWritten(let sentence): .message(sentence)
        }
    }
}

/// Options, or a budget, that did not make sense; `description` is one sentence for standard error.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
