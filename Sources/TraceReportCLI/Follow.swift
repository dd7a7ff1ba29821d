import LTTngReader
import Reproducible
import TraceAnalysis
import TraceExport
import TraceModel
import TraceStore

#if canImport(Glibc)
import Glibc
#endif

/// `--follow`: a report redrawn as a recording grows, until the recording ends.
///
/// Follows a live LTTng session through `lttng-relayd`'s live protocol (the input is its
/// `net://RELAY/host/HOST/SESSION` URL) and stops when the session is destroyed; or follows a store
/// that a running program is writing, by polling the file and its write-ahead log, read-only, and
/// stops when the writer closes it (its `-wal` file goes) or stops without closing it (no process
/// has it open any more: crashed or killed), which it says. On a terminal each drawing replaces the
/// last; otherwise each is printed after the previous one, followed by a line of `─`. Each drawing
/// carries the notes on implausible values a report of the same input shows (``AnomalyNotes``).
enum Follow {
    static let option = OptionSpec.flag(
        "--follow", "redraw as a live LTTng session (net:// URL) or a store being written grows")

    /// How often a changed report is redrawn at most, and how often a quiet input is looked at.
    static let interval = Duration.milliseconds(250)

    /// Follows the input of `arguments`, drawing each report as `--json` asks: `text`, or `object`.
    static func run(
        _ arguments: ParsedArguments, context: CommandContext,
        text: (RecordedTrace) throws(CommandFailure) -> String,
        object: (RecordedTrace) throws(CommandFailure) -> OrderedJSON
    ) throws(CommandFailure) -> ReportExitStatus {
        let path: String
        do { path = try arguments.storePath() } catch { throw .usage(error) }
        let json = arguments.flag(CommonOptions.json)
        var drawing = Drawing(context: context)
        // Redacted before it is analysed, as every subcommand's input is (see `loadTrace`).
        func draw(_ trace: RecordedTrace) throws(CommandFailure) {
            let trace = RedactedTrace.redact(trace, with: context.redactor).trace
            try drawing.draw(
                json
                    ? AnomalyNotes.adding(trace.anomalies, to: object(trace)).serialized() + "\n"
                    : text(trace) + AnomalyNotes.text(trace.anomalies))
        }
        if LTTngTrace.isLiveURL(path) {
            try followLive(path, chunks: false, update: draw)
        } else if LTTngTrace.isTraceInput(path) {
            throw .message(
                "\(path) is an LTTng trace folder, read when complete; follow a live session by its net:// URL "
                    + "(lttng create --live, then net://RELAY/host/HOST/SESSION)")
        } else {
            try followStore(path, update: draw) { context.writeNote($0) }
        }
        return .success
    }

    /// Reads a live session until it is destroyed, calling `update` with the trace so far (and the
    /// implausible values read so far) whenever records arrived, at most once per ``interval``, and
    /// once at the end.
    static func followLive(
        _ url: String, chunks: Bool, update: (RecordedTrace) throws(CommandFailure) -> Void
    ) throws(CommandFailure) {
        let stream: LTTngRecordStream
        do { stream = try LTTngRecordStream(liveURL: url) } catch { throw .input(.lttng(error)) }
        var builder = RecordedTraceBuilder(keepsChunks: chunks)
        func current() -> RecordedTrace {
            var trace = builder.trace(path: url)
            trace.anomalies = stream.anomalies
            return trace
        }
        let clock = ContinuousClock()
        var lastDrawn = clock.now - interval
        var changed = true
        while true {
            let item: LTTngRecordStream.Item
            do { item = try stream.next() } catch { throw .input(.lttng(error)) }
            switch item {
            case .record(let event, let runID, let host):
                builder.add(event, runID: runID, host: host)
                changed = true
                if clock.now - lastDrawn >= interval {
                    try update(current())
                    lastDrawn = clock.now
                    changed = false
                }
            case .again:
                if changed {
                    try update(current())
                    lastDrawn = clock.now
                    changed = false
                }
                usleep(UInt32(interval.milliseconds * 400))
            case .end:
                try update(current())
                return
            }
        }
    }

    /// Polls the store at `path` until its writer closes it, calling `update` whenever it changed;
    /// tells `note` when the writer stopped without closing it.
    static func followStore(
        _ path: String, update: (RecordedTrace) throws(CommandFailure) -> Void, note: (String) -> Void
    ) throws(CommandFailure) {
        var last: [FileState?] = []
        while true {
            let state = [FileState(path), FileState(path + "-wal")]
            if state != last {
                last = state
                let trace: RecordedTrace
                do { trace = try TraceLoader.load(path: path, chunks: false) } catch { throw .input(error) }
                try update(trace)
            }
            // A store its writer closed has no write-ahead log beside it.
            if state[1] == nil { return }
            // No connection of this process is open now (the load's has closed), so the probe
            // cannot release a lock of ours.
            if !StoreReader.isOpenInAnotherProcess(path) {
                note(
                    "\(path): the program writing it stopped without closing it (crashed or killed); "
                        + "what it recorded last may be missing\n")
                return
            }
            usleep(UInt32(interval.milliseconds * 1000))
        }
    }

    /// What a file looks like from outside: enough to tell that it changed.
    private struct FileState: Equatable {
        var size: Int64
        var modified: Int64

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        }
    }

    /// Replaces the last drawing on a terminal; appends on a pipe or file.
    private struct Drawing {
        let context: CommandContext
        var last: String?

        init(context: CommandContext) { self.context = context }

        mutating func draw(_ text: String) {
            guard text != last else { return }
            last = text
            if context.outputIsTerminal {
                context.writeRedacted("\u{1B}[H\u{1B}[2J" + text)
            } else {
                context.writeRedacted(text + String(repeating: "─", count: 40) + "\n")
            }
        }
    }
}

extension Duration {
    fileprivate var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
