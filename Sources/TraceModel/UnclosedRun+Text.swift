import Reproducible
import TraceStore

extension UnclosedRun: CustomStringConvertible {
    /// One sentence: `run.sqlite: run 47360866 nightly ended without closing (crashed or killed);
    /// events after 14:39:02.123 UTC may be missing`.
    public var description: String {
        let name = "run " + ShortID.run(runID) + (label.map { " " + $0 } ?? "")
        let after = lastEvent.map { "events after \(Self.clockTime($0)) UTC" } ?? "its events"
        return "\(path): \(name) ended without closing (crashed or killed); \(after) may be missing"
    }
}

extension UnclosedRun {
    /// The note as a report's JSON shows it: the sentence, and the last event's time (ISO 8601, UTC).
    public var json: OrderedJSON {
        .object([
            ("store", .string(path)), ("run_id", .id(runID)), ("last_event", .string(lastEventISO8601)),
            ("message", .string(description)),
        ])
    }
}
