import LTTngReader
import LTTngRecording
import LatencyGate
import TraceAnalysis

#if canImport(Glibc)
import Glibc
import Reproducible
#endif

/// `trace-report record [--lttng DIR] [--store PATH] -- COMMAND...`: runs a program under an LTTng
/// recording of its `session_trace` events, like `perf record`.
struct RecordCommand: ReportCommand {
    static let name = "record"
    static let abstract = "Run a program under an LTTng recording of its session_trace events."
    static let operands = "-- COMMAND [ARGUMENT...]"
    static let discussion = """
        Starts an LTTng session daemon if none runs (and stops it afterwards, by its PID), creates a
        recording session that enables session_trace:* with the vpid context and writes to DIR, runs
        COMMAND, then stops and destroys the session. Prints where the trace is and its summary; with
        --store, also writes the trace as a new store (as 'trace-report import' does). As perf
        record does, it records COMMAND and its children only: COMMAND is held before it starts
        until LTTng tracks its process, and each child is tracked as it appears (checked every
        20 ms; LTTng tracks by process id, so a child's events from before it was found are not
        recorded). --all-processes records every process of the machine that emits session_trace
        events while COMMAND runs; the runs stay apart in the report. Exit status: 0 when COMMAND
        succeeded, 1 when it failed (its status is printed), 2 when the recording could not be
        made. Needs the LTTng tools (lttng, lttng-sessiond) and the rights to run a session daemon.
        """
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let lttng = OptionSpec.value(
            "--lttng", "DIR", "where the trace goes (default: sessiontrace-PID in the current folder)")
        static let store = OptionSpec.value("--store", "PATH", "also write the trace as a new store")
        static let allProcesses = OptionSpec.flag(
            "--all-processes", "record every process that emits session_trace events, not COMMAND's alone")
    }

    static let options: [OptionSpec] = [
        Option.lttng,
        Option.store,
        Option.allProcesses,
        CommonOptions.json,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        let command = arguments.positionals
        guard !command.isEmpty else { throw .usage(UsageError("no command given; put it after --")) }
        let directory = absolute(arguments.value(Option.lttng) ?? "sessiontrace-\(getpid())")
        guard access(directory, F_OK) != 0 else {
            throw .message("\(directory) already exists; record writes a new trace folder")
        }
        let store = arguments.value(Option.store)
        if let store, access(store, F_OK) == 0 {
            throw .message("\(store) already exists; record writes a new store")
        }

        let status: Int32
        do {
            let daemon = try LTTngControl.ensureSessionDaemon()
            defer { daemon.stop() }
            status = try runInForeground(command) { pid in
                // COMMAND's process is tracked before it runs a line; nil: every process.
                let session = try LTTngControl.Session.create(
                    name: "trace_report_\(getpid())", outputDirectory: directory,
                    trackedPID: arguments.flag(Option.allProcesses) ? nil : pid)
                try session.start()
                return session
            }
        } catch {
            throw .message("the LTTng recording failed: \(error)")
        }

        let json = arguments.flag(CommonOptions.json)
        if !json { context.write("trace: \(directory)\n") }
        if status != 0 { context.writeNote("trace-report record: \(command[0]) exited with status \(status)\n") }
        let summary: SummaryReport
        do {
            // Redacted field by field as every report's input is, then written as it is.
            summary = SummaryReport.compute(trace: try LTTngTrace.load(path: directory, chunks: false))
                .redacted(by: context.redactor)
        } catch {
            context.writeNote("trace-report: \(error.description)\n")
            return .usageOrInput
        }
        if !json { context.writeRedacted(summary.text(sessionLimit: 20)) }
        var records: Int?
        if let store {
            do { records = try LTTngImporter.run(tracePath: directory, output: store) { _ in }.records } catch {
                throw .imported(error)
            }
            if !json { context.write("store: \(store) (\(records ?? 0) records)\n") }
        }
        if json {
            func path(_ text: String) -> OrderedJSON { .string(context.redactor.redact(text, field: "path").text) }
            context.writeRedacted(json: .object([
                ("trace", path(directory)), ("status", .int(Int64(status))),
                ("store", store.map(path) ?? .null), ("store_records", records.map { .int(Int64($0)) } ?? .null),
                ("summary", summary.json),
            ]))
        }
        return status == 0 ? .success : .findings
    }

    /// Runs `command` with this process's standard input, output and error, recorded by the session
    /// `record` starts for its PID, and waits for it; then stops and destroys the session. The
    /// command's shell stops itself before it runs the command, so the session tracks its process
    /// before any event. Interrupts from the terminal reach the command; this process waits them
    /// out, so that the recording is stopped and written whatever the command does.
    private static func runInForeground(
        _ command: [String], record: (pid_t) throws -> LTTngControl.Session
    ) throws -> Int32 {
        let ignored = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]
        let previous = ignored.map { signal($0, SIG_IGN) }
        defer { for (signalNumber, handler) in zip(ignored, previous) { signal(signalNumber, handler) } }
        let pid = try LTTngControl.spawn("/bin/sh", ["-c", "kill -STOP $$; exec \"$@\"", "sh"] + command, output: nil)
        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, WUNTRACED) == -1 && errno == EINTR {}
        // Stopped, as asked; anything else is an exit before the command ran.
        guard waitStatus & 0xff == 0x7f else { return LTTngControl.exitCode(waitStatus) }
        let session: LTTngControl.Session
        do { session = try record(pid) } catch {
            kill(pid, SIGKILL)
            _ = LTTngControl.waitForExit(pid)
            throw error
        }
        defer { try? session.destroy() }
        kill(pid, SIGCONT)
        let status = session.trackedPID == nil ? LTTngControl.waitForExit(pid) : session.recordDescendants(of: pid)
        try session.stop()
        return status
    }

    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self) + "/" + path
    }
}
