/// The short ids text reports show, and that `--run` and `--session` accept besides full ids.
///
/// `Tracer` makes every id of a run from 31 random bits in the upper half, the same for the whole
/// run, and a sequence number in the lower half. A run's short id is its upper half in hex, eight
/// digits (`run 47360866`); a session's, request's or tool call's is its sequence number after
/// `#` (`#5`), unique within its run. `--json`, JSON Lines and exports carry the full ids, as
/// decimal strings.
public enum ShortID {
    /// `47360866` for run id 5131298059614945280.
    public static func run(_ runID: Int64) -> String {
        let hex = String(UInt64(bitPattern: runID) >> 32, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }

    /// `#5` for a session, request or tool call whose id ends in sequence number 5.
    public static func record(_ id: Int64) -> String { "#" + String(id & 0xFFFF_FFFF) }

    /// True when `wanted` names run `runID`: its full id, or its short id with or without `run `.
    public static func matchesRun(_ runID: Int64, _ wanted: String) -> Bool {
        let text = wanted.hasPrefix("run ") ? String(wanted.dropFirst(4)) : wanted
        return text == String(runID) || text.lowercased() == run(runID)
    }

    /// True when `wanted` is `id` in full or its short id, with or without its `#` (`#5`, `5`: an
    /// unquoted `#` starts a shell comment).
    public static func matchesRecord(_ id: Int64, _ wanted: String) -> Bool {
        wanted == String(id) || wanted == record(id) || "#" + wanted == record(id)
    }
}
