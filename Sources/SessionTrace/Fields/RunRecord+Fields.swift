extension RunRecord: TableRecord {
    /// The run's fields, in the store's column order.
    package static let table = RecordTable<RunRecord>(
        .run, blank: RunRecord(runID: 0, ts: 0, wallClockStart: 0, host: "", commandLine: "", toolVersion: ""),
        fields: [
            .integer(
                "runID", "run_id", unit: .identifier, "the run's id (upper 32 bits of every id the run makes)",
                get: { $0.runID }, set: { $0.runID = $1 }),
            .integer(
                "ts", "ts", unit: .timestamp, "monotonic time at the start of the run",
                get: { $0.ts }, set: { $0.ts = $1 }),
            .integer(
                "wallClockStart", "wall_clock_start", unit: .wallClock, "wall-clock time at `ts`",
                get: { $0.wallClockStart }, set: { $0.wallClockStart = $1 }),
            .text("host", "host", freeText: true, "host name", get: { $0.host }, set: { $0.host = $1 }),
            .text(
                "commandLine", "command_line", freeText: true, "the traced program's command line",
                get: { $0.commandLine }, set: { $0.commandLine = $1 }),
            .optionalText(
                "gitRevision", "git_revision", freeText: true, "the source revision, if given",
                get: { $0.gitRevision }, set: { $0.gitRevision = $1 }),
            .optionalText(
                "label", "label", freeText: true, "a label for the run, for example `nightly`",
                get: { $0.label }, set: { $0.label = $1 }),
            .text(
                "toolVersion", "tool_version", freeText: false, "the SessionTrace version that recorded it",
                get: { $0.toolVersion }, set: { $0.toolVersion = $1 }),
        ])
}
