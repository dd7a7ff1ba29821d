import CLTTngUST
import Foundation
import SessionTrace

#if canImport(Glibc)
import Glibc
#endif

/// Drives LTTng's command-line tools, for the tests, the benchmark and the demo.
///
/// ```swift
/// let daemon = try LTTngControl.ensureSessionDaemon()
/// defer { daemon.stop() }
/// let session = try LTTngControl.Session.create(outputDirectory: dir)
/// try session.start()
/// // ... trace through LTTngSink ...
/// try session.stop()
/// try session.destroy()
/// let events = try LTTngControl.readTrace(at: dir)
/// ```
///
/// Nothing here is on the emit path; these calls run `lttng`, `lttng-sessiond`, `pgrep` and
/// `babeltrace2` as child processes and wait for them.
public enum LTTngControl {
    /// What went wrong, with the command and what it printed.
    public enum Error: Swift.Error, CustomStringConvertible, Sendable {
        /// `tool` is not on `PATH`; `scripts/install-deps.sh` installs it.
        case toolNotFound(tool: String)
        /// `command` exited with `status`.
        case commandFailed(command: String, status: Int32, stderr: String)
        /// `lttng-sessiond` exited cleanly but no daemon was found running afterwards.
        case daemonNotRunning(command: String, stderr: String)
        /// Process `pid` did not register with the session daemon within `seconds`.
        case registrationTimedOut(pid: Int32, seconds: Double)
        /// The session started but this process's `session_trace` tracepoints stayed disabled.
        case tracepointsNotEnabled(session: String, seconds: Double)
        /// A line of `babeltrace2`'s output that is not an event line.
        case unreadableTraceLine(line: String, reason: String)

        public var description: String {
            switch self {
            case .toolNotFound(let tool):
                "\(tool) is not installed (run scripts/install-deps.sh)"
            case .commandFailed(let command, let status, let stderr):
                "`\(command)` exited with status \(status): \(stderr.trimmed)"
            case .daemonNotRunning(let command, let stderr):
                "`\(command)` returned but no lttng-sessiond is running: \(stderr.trimmed)"
            case .registrationTimedOut(let pid, let seconds):
                "process \(pid) did not register with lttng-sessiond within \(seconds) s"
            case .tracepointsNotEnabled(let session, let seconds):
                "session \(session) started, but session_trace tracepoints stayed disabled for \(seconds) s"
            case .unreadableTraceLine(let line, let reason):
                "cannot read babeltrace2 line (\(reason)): \(line)"
            }
        }
    }

    // MARK: - Session daemon

    /// The session daemon this process uses: one found running, or one started here.
    public struct SessionDaemon: Sendable {
        /// The daemon's PID if this process started it; nil if it was already running.
        public let startedPID: Int32?

        /// Stops the daemon if this process started it, by PID; a daemon found running is left
        /// alone, since another program may be tracing with it.
        public func stop() {
            guard let pid = startedPID else { return }
            kill(pid, SIGTERM)
            // Not our child after daemonizing: poll until it is gone, then insist.
            let deadline = ContinuousClock.now + .seconds(10)
            while kill(pid, 0) == 0, ContinuousClock.now < deadline { usleep(20_000) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
    }

    /// Returns the running session daemon, starting `lttng-sessiond --daemonize --no-kernel`
    /// if none runs; call ``SessionDaemon/stop()`` when done.
    public static func ensureSessionDaemon() throws -> SessionDaemon {
        if try sessionDaemonPID() != nil { return SessionDaemon(startedPID: nil) }
        let result = try run("lttng-sessiond", ["--daemonize", "--no-kernel"], check: false)
        // `--daemonize` returns once the daemon is ready; find it by name, since it forked.
        guard let pid = try sessionDaemonPID() else {
            if result.status != 0 {
                throw Error.commandFailed(command: result.command, status: result.status, stderr: result.stderr)
            }
            throw Error.daemonNotRunning(command: result.command, stderr: result.stderr)
        }
        // A non-zero status with a daemon running means another program started one first.
        return SessionDaemon(startedPID: result.status == 0 ? pid : nil)
    }

    /// The PID of the running `lttng-sessiond`, if any.
    public static func sessionDaemonPID() throws -> Int32? {
        let result = try run("pgrep", ["-x", "lttng-sessiond"], check: false)
        return result.stdout.split(separator: "\n").lazy.compactMap { Int32($0) }.first
    }

    /// Whether process `pid` is registered with the session daemon (`lttng list -u` shows it).
    public static func isRegistered(pid: Int32 = getpid()) throws -> Bool {
        let result = try run("lttng", ["list", "--userspace"], check: false)
        return result.status == 0 && result.stdout.contains("PID: \(pid) ")
    }

    /// Waits until process `pid` is registered with the session daemon.
    ///
    /// An application registers asynchronously; when the daemon started after it, that can
    /// take a moment, and a session started before then misses the first events.
    public static func waitUntilRegistered(pid: Int32 = getpid(), timeout: Duration = .seconds(15)) throws {
        let deadline = ContinuousClock.now + timeout
        while try !isRegistered(pid: pid) {
            guard ContinuousClock.now < deadline else {
                throw Error.registrationTimedOut(pid: pid, seconds: timeout.seconds)
            }
            usleep(50_000)
        }
    }

    // MARK: - Recording sessions

    /// One LTTng recording session with user-space events enabled.
    public struct Session: Sendable {
        public let name: String
        /// Where the trace is written (the snapshot output, for a snapshot session).
        public let outputDirectory: String
        /// The only process recorded, or nil for every process.
        public let trackedPID: Int32?
        public let eventPattern: String

        /// Creates a session writing to `outputDirectory`, with `events` enabled (all
        /// `session_trace` tracepoints by default) for the process `trackedPID` only (this
        /// process by default, so two programs tracing at once do not record each other).
        ///
        /// A `snapshot` session keeps events in memory, overwriting the oldest, and writes
        /// nothing unless asked: the benchmark uses one to measure emitting, not disk writes.
        public static func create(
            name: String = "session_trace_\(getpid())_\(UInt32.random(in: 0...UInt32.max))",
            outputDirectory: String,
            events: String = "session_trace:*",
            trackedPID: Int32? = getpid(),
            snapshot: Bool = false
        ) throws -> Session {
            var create = ["create", name, "--output=\(outputDirectory)"]
            if snapshot { create.append("--snapshot") }
            try run("lttng", create)
            let session = Session(
                name: name, outputDirectory: outputDirectory, trackedPID: trackedPID, eventPattern: events)
            do {
                if let pid = trackedPID {
                    try run("lttng", ["track", "--session=\(name)", "--userspace", "--vpid=\(pid)"])
                }
                try run("lttng", ["enable-event", "--session=\(name)", "--userspace", events])
            } catch {
                try? session.destroy()
                throw error
            }
            return session
        }

        /// Starts recording; when this process is the one recorded, returns only once its
        /// tracepoints are enabled, so the first event emitted after this call is recorded.
        public func start(timeout: Duration = .seconds(15)) throws {
            let tracesThisProcess = trackedPID == nil || trackedPID == getpid()
            if tracesThisProcess { try waitUntilRegistered(timeout: timeout) }
            try run("lttng", ["start", name])
            guard tracesThisProcess, eventPattern.hasPrefix("session_trace") else { return }
            let deadline = ContinuousClock.now + timeout
            while !TraceEventKindStates.anyEnabled() {
                guard ContinuousClock.now < deadline else {
                    throw Error.tracepointsNotEnabled(session: name, seconds: timeout.seconds)
                }
                usleep(10_000)
            }
        }

        /// Stops recording and waits until every recorded event is written out.
        public func stop() throws {
            try run("lttng", ["stop", name])
        }

        /// Destroys the session; the trace already written stays in ``outputDirectory``.
        public func destroy() throws {
            try run("lttng", ["destroy", name])
        }
    }

    // MARK: - Reading traces

    /// One event as `babeltrace2` prints it: its name and every field, context and payload.
    public struct TraceLine: Sendable, Hashable {
        /// `provider:event`, for example `session_trace:request`.
        public var name: String
        /// Field name to value: integers as written, strings unquoted and unescaped.
        public var fields: [String: String]

        public init(name: String, fields: [String: String]) {
            self.name = name
            self.fields = fields
        }
    }

    /// Reads every event of the trace under `directory` with `babeltrace2`, in time order.
    public static func readTrace(at directory: String) throws -> [TraceLine] {
        let result = try run("babeltrace2", ["--no-delta", directory])
        return try result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map {
            try BabeltraceLineParser.parse(String($0))
        }
    }

    // MARK: - Running tools

    /// What a finished command printed.
    struct CommandResult {
        var command: String
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `tool` (found on `PATH`) with `arguments` and waits for it to exit.
    ///
    /// Spawned with `posix_spawnp`, not `Process`: the child gets an empty signal mask and
    /// default handlers. It would otherwise inherit the mask of the calling thread (a Dispatch
    /// or Swift concurrency worker blocks nearly every signal), and `lttng-sessiond
    /// --daemonize` waits forever for the SIGUSR1 its forked daemon sends when it is ready.
    /// Output goes through files, not pipes, so a daemon that keeps inherited descriptors
    /// open cannot make this wait forever either.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], check: Bool = true) throws -> CommandResult {
        let command = ([tool] + arguments).joined(separator: " ")
        let base = FileManager.default.temporaryDirectory
            .appendingPathComponent("lttngcontrol-\(getpid())-\(UUID().uuidString)").path
        let outPath = base + ".out"
        let errPath = base + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGPIPE, SIGUSR1, SIGUSR2, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM] {
            sigaddset(&defaultSignals, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, tool, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            if spawned == ENOENT { throw Error.toolNotFound(tool: tool) }
            throw Error.commandFailed(
                command: command, status: -1, stderr: "cannot spawn: \(String(cString: strerror(spawned)))")
        }
        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) == -1 && errno == EINTR {}
        // Exit code if it exited, 128 + the signal if a signal ended it, as shells report it.
        let signal = waitStatus & 0x7f
        let status = signal == 0 ? (waitStatus >> 8) & 0xff : 128 + signal

        let result = CommandResult(
            command: command, status: status,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
        if check && result.status != 0 {
            throw Error.commandFailed(command: command, status: result.status, stderr: result.stderr)
        }
        return result
    }
}

/// Whether any `session_trace` tracepoint is enabled in this process.
enum TraceEventKindStates {
    static func anyEnabled() -> Bool {
        let sink = LTTngSink()
        return TraceEventKind.allCases.contains { sink.isEnabled($0) }
    }
}

/// Parses one line of `babeltrace2`'s default text output:
///
///     [12:00:00.000000001] host session_trace:chunk: { cpu_id = 1 }, { request_id = 7, ts = 9 }
enum BabeltraceLineParser {
    static func parse(_ line: String) throws -> LTTngControl.TraceLine {
        let chars = Array(line.unicodeScalars)
        // The event name is the word just before the first ": {".
        guard let marker = line.range(of: ": {") else {
            throw LTTngControl.Error.unreadableTraceLine(line: line, reason: "no event name")
        }
        let head = line[..<marker.lowerBound]
        let name = head.split(separator: " ").last.map(String.init) ?? ""
        var index = line.unicodeScalars.distance(
            from: line.unicodeScalars.startIndex, to: marker.lowerBound) + 2
        var fields: [String: String] = [:]
        // Then brace groups separated by ", ": stream context, event context, payload.
        while index < chars.count {
            if chars[index] == "{" {
                try parseStruct(chars, &index, into: &fields, line: line)
            } else {
                index += 1
            }
        }
        return LTTngControl.TraceLine(name: name, fields: fields)
    }

    /// Parses `{ key = value, ... }` starting at the `{`; nested values are kept as text.
    private static func parseStruct(
        _ chars: [Unicode.Scalar], _ index: inout Int, into fields: inout [String: String], line: String
    ) throws {
        index += 1  // past "{"
        while index < chars.count {
            skipSpaces(chars, &index)
            guard index < chars.count else { break }
            if chars[index] == "}" { index += 1; return }
            if chars[index] == "," { index += 1; continue }
            var key = ""
            while index < chars.count, chars[index] != " ", chars[index] != "=" {
                key.unicodeScalars.append(chars[index]); index += 1
            }
            skipSpaces(chars, &index)
            guard index < chars.count, chars[index] == "=" else {
                throw LTTngControl.Error.unreadableTraceLine(line: line, reason: "no '=' after \(key)")
            }
            index += 1
            skipSpaces(chars, &index)
            fields[key] = try parseValue(chars, &index, line: line)
        }
        throw LTTngControl.Error.unreadableTraceLine(line: line, reason: "unterminated '{'")
    }

    private static func parseValue(_ chars: [Unicode.Scalar], _ index: inout Int, line: String) throws -> String {
        guard index < chars.count else { return "" }
        if chars[index] == "\"" { return try parseString(chars, &index, line: line) }
        if chars[index] == "{" || chars[index] == "[" {
            // A compound value: keep its text, balanced, for the caller to inspect.
            let start = index
            var depth = 0
            repeat {
                switch chars[index] {
                case "{", "[": depth += 1
                case "}", "]": depth -= 1
                case "\"": _ = try parseString(chars, &index, line: line); index -= 1
                default: break
                }
                index += 1
            } while depth > 0 && index < chars.count
            return String(String.UnicodeScalarView(chars[start..<index]))
        }
        var value = ""
        while index < chars.count, chars[index] != ",", chars[index] != "}" {
            value.unicodeScalars.append(chars[index]); index += 1
        }
        return value.trimmed
    }

    /// A quoted string; babeltrace2 escapes `"`, `\` and control characters with a backslash.
    private static func parseString(_ chars: [Unicode.Scalar], _ index: inout Int, line: String) throws -> String {
        index += 1  // past the opening quote
        var value = ""
        while index < chars.count {
            let c = chars[index]
            index += 1
            if c == "\"" { return value }
            guard c == "\\", index < chars.count else { value.unicodeScalars.append(c); continue }
            let escaped = chars[index]
            index += 1
            switch escaped {
            case "n": value += "\n"
            case "t": value += "\t"
            case "r": value += "\r"
            case "v": value += "\u{0B}"
            case "f": value += "\u{0C}"
            case "a": value += "\u{07}"
            case "b": value += "\u{08}"
            case "\\": value += "\\"
            case "\"": value += "\""
            default: value.unicodeScalars.append("\\"); value.unicodeScalars.append(escaped)
            }
        }
        throw LTTngControl.Error.unreadableTraceLine(line: line, reason: "unterminated string")
    }

    private static func skipSpaces(_ chars: [Unicode.Scalar], _ index: inout Int) {
        while index < chars.count, chars[index] == " " { index += 1 }
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
