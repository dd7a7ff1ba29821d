import Foundation
import ProcessSpawn

#if canImport(Glibc)
import Glibc
#endif

/// Drives LTTng's command-line tools: for `trace-report record`, the tests, the benchmark and
/// the demo. Not part of any product's API.
///
/// ```swift
/// let daemon = try LTTngControl.ensureSessionDaemon()
/// defer { daemon.stop() }
/// let session = try LTTngControl.Session.create(outputDirectory: dir)
/// try session.start(until: { LTTngSink().isEnabled(.request) })
/// // ... trace through LTTngSink ...
/// try session.stop()
/// try session.destroy()
/// let trace = try LTTngTrace.load(path: dir)      // TraceAnalysis reads it
/// ```
///
/// Nothing here is on the emit path; these calls run `lttng`, `lttng-sessiond`, `lttng-relayd`
/// and `pgrep` as child processes.
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
        /// `lttng-relayd` did not accept connections on its live port within `seconds`.
        case relayNotListening(port: Int, seconds: Double)
        /// A command that did not finish in time; it was killed.
        case commandTimedOut(command: String, seconds: Double)

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
            case .relayNotListening(let port, let seconds):
                "lttng-relayd did not listen on port \(port) within \(seconds) s"
            case .commandTimedOut(let command, let seconds):
                "`\(command)` did not finish within \(seconds) s and was stopped"
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
            // Not our child after daemonizing, so no waitpid: poll until it is gone, then insist.
            let deadline = ContinuousClock.now + .seconds(10)
            while isRunning(pid), ContinuousClock.now < deadline { usleep(20_000) }
            if isRunning(pid) { kill(pid, SIGKILL) }
        }
    }

    /// Whether `pid` exists and is not a zombie waiting for its parent to reap it.
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return true }
        // The state follows the parenthesized command name: "1234 (name) Z ...".
        return !stat[stat.index(after: end)...].hasPrefix(" Z")
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

    /// The PID of the running `lttng-sessiond`, if any; a zombie left by a stopped one is not.
    public static func sessionDaemonPID() throws -> Int32? {
        let result = try run("pgrep", ["-x", "lttng-sessiond"], check: false)
        return result.stdout.split(separator: "\n").lazy.compactMap { Int32($0) }.first(where: isRunning)
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
        /// Where the trace is written (the snapshot output, for a snapshot session); nil when it
        /// streams to a relay daemon, which decides.
        public let outputDirectory: String?
        /// The only process recorded, or nil for every process.
        public let trackedPID: Int32?
        public let eventPattern: String

        /// Creates a session writing to `outputDirectory`, with `events` enabled (all
        /// `session_trace` tracepoints by default) for the process `trackedPID` only (this
        /// process by default, so two programs tracing at once do not record each other).
        ///
        /// With `recordsProcessID` every record carries the `vpid` context, so a reader can tell
        /// the processes of one trace apart. A `snapshot` session keeps events in memory, overwriting the oldest, and
        /// writes nothing unless asked: the benchmark uses one to measure emitting, not disk
        /// writes. With `relay`, the session streams to that relay daemon instead of writing a
        /// folder, as a live session when `live` is true (readable while it records).
        public static func create(
            name: String = "session_trace_\(getpid())_\(UInt32.random(in: 0...UInt32.max))",
            outputDirectory: String?,
            events: String = "session_trace:*",
            trackedPID: Int32? = getpid(),
            snapshot: Bool = false,
            relay: RelayDaemon? = nil,
            live: Bool = false,
            channel: Channel? = nil,
            recordsProcessID: Bool = true
        ) throws -> Session {
            var create = ["create", name]
            if let relay {
                create += ["--ctrl-url=tcp://127.0.0.1:\(relay.controlPort)",
                           "--data-url=tcp://127.0.0.1:\(relay.dataPort)"]
                // Live sessions flush what they hold every 100 ms, so a viewer sees records promptly.
                if live { create.append("--live=100000") }
            } else if let outputDirectory {
                create.append("--output=\(outputDirectory)")
            }
            if snapshot { create.append("--snapshot") }
            try run("lttng", create)
            let session = Session(
                name: name, outputDirectory: relay == nil ? outputDirectory : nil, trackedPID: trackedPID,
                eventPattern: events)
            do {
                var enable = ["enable-event", "--session=\(name)", "--userspace", events]
                if let channel {
                    try run("lttng", channel.arguments(session: name))
                    enable.append("--channel=\(channel.name)")
                }
                if let pid = trackedPID {
                    try run("lttng", ["track", "--session=\(name)", "--userspace", "--vpid=\(pid)"])
                }
                try run("lttng", enable)
                if recordsProcessID {
                    try run(
                        "lttng",
                        ["add-context", "--session=\(name)", "--userspace", "--type=vpid"]
                            + (channel.map { ["--channel=\($0.name)"] } ?? []))
                }
            } catch {
                try? session.destroy()
                throw error
            }
            return session
        }

        /// Starts recording. To record this process itself, pass `isEnabled`, a check of its own
        /// tracepoints: the call then returns only once the process is registered with the session
        /// daemon and `isEnabled` answers true, so the first event emitted after it is recorded.
        /// A program started after this call needs no wait: LTTng-UST holds it at start-up until
        /// it has registered and learnt of the session.
        public func start(timeout: Duration = .seconds(15), until isEnabled: (() -> Bool)? = nil) throws {
            guard let isEnabled else {
                try run("lttng", ["start", name])
                return
            }
            try waitUntilRegistered(timeout: timeout)
            try run("lttng", ["start", name])
            let deadline = ContinuousClock.now + timeout
            while !isEnabled() {
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

        /// Waits for child `pid` to exit while recording its descendants too: every `interval` it
        /// looks for processes descended from `pid` (`/proc/PID/stat`'s parent) and adds each new one
        /// to the session's process tracker, as `pid` itself was added when the session was created.
        /// LTTng tracks processes by id only, so a descendant's events from before it was found (at
        /// most about `interval` after it started) are not recorded. Returns `pid`'s exit code as
        /// ``LTTngControl/waitForExit(_:)`` does.
        public func recordDescendants(of pid: pid_t, interval: Duration = .milliseconds(20)) -> Int32 {
            var tracked: Set<pid_t> = [pid]
            while true {
                if let status = LTTngControl.waitForExit(pid, timeout: interval) { return status }
                for child in LTTngControl.descendants(of: pid) where tracked.insert(child).inserted {
                    _ = try? run("lttng", ["track", "--session=\(name)", "--userspace", "--vpid=\(child)"], check: false)
                }
            }
        }
    }

    /// The processes descended from `root`, read from each `/proc/PID/stat`'s parent field.
    static func descendants(of root: pid_t) -> Set<pid_t> {
        var parent: [pid_t: pid_t] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // `PID (COMMAND) STATE PPID ...`: the command may hold spaces and parentheses.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let ppid = pid_t(fields[1]) { parent[pid] = ppid }
        }
        var found: Set<pid_t> = []
        for pid in parent.keys {
            var chain: [pid_t] = []
            var next = pid
            while let up = parent[next], up > 1, chain.count < 64 {
                chain.append(next)
                if up == root || found.contains(up) {
                    found.formUnion(chain)
                    break
                }
                next = up
            }
        }
        return found
    }

    /// A user-space channel with room for bursts, for recordings that must lose nothing.
    public struct Channel: Sendable {
        public var name = "session_trace"
        public var subbufferSize = "4M"
        public var subbufferCount = 8
        /// Blocks an emitting thread instead of discarding when the buffers are full; the traced
        /// program must run with `LTTNG_UST_ALLOW_BLOCKING=1` for LTTng to honour it.
        public var blocking = false

        public init(subbufferSize: String = "4M", subbufferCount: Int = 8, blocking: Bool = false) {
            self.subbufferSize = subbufferSize
            self.subbufferCount = subbufferCount
            self.blocking = blocking
        }

        func arguments(session: String) -> [String] {
            ["enable-channel", "--session=\(session)", "--userspace", "--subbuf-size=\(subbufferSize)",
             "--num-subbuf=\(subbufferCount)"] + (blocking ? ["--blocking-timeout=inf"] : []) + [name]
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
    /// Output goes through files, not pipes, so a daemon that keeps inherited descriptors open
    /// cannot make this wait forever; a command still running after `timeout` (an `lttng destroy`
    /// waiting on a stuck consumer, say) is killed and reported.
    @discardableResult
    static func run(
        _ tool: String, _ arguments: [String], check: Bool = true, timeout: Duration = .seconds(60)
    ) throws -> CommandResult {
        let command = ([tool] + arguments).joined(separator: " ")
        let base = FileManager.default.temporaryDirectory
            .appendingPathComponent("lttngcontrol-\(getpid())-\(UUID().uuidString)").path
        let outPath = base + ".out"
        let errPath = base + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let pid = try spawn(tool, arguments, output: (outPath, errPath))
        guard let status = waitForExit(pid, timeout: timeout) else {
            kill(pid, SIGKILL)
            _ = waitForExit(pid)
            throw Error.commandTimedOut(command: command, seconds: timeout.seconds)
        }
        let result = CommandResult(
            command: command, status: status,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
        if check && result.status != 0 {
            throw Error.commandFailed(command: command, status: result.status, stderr: result.stderr)
        }
        return result
    }

    /// Starts `tool` (found on `PATH`) and returns its PID without waiting.
    ///
    /// Standard input is `/dev/null` and output goes to the files `output` names, or, without
    /// them, the child shares this process's standard input, output and error. The child gets an
    /// empty signal mask and default handlers (see `ProcessSpawn`): `lttng-sessiond --daemonize`
    /// waits for the SIGUSR1 its forked daemon sends when it is ready.
    public static func spawn(
        _ tool: String, _ arguments: [String], output: (stdout: String, stderr: String)?
    ) throws -> pid_t {
        do {
            return try ProcessSpawn.start(tool, arguments, output: output)
        } catch {
            if error.code == ENOENT { throw Error.toolNotFound(tool: tool) }
            throw Error.commandFailed(
                command: ([tool] + arguments).joined(separator: " "), status: -1, stderr: "cannot spawn: \(error)")
        }
    }

    /// Waits for child `pid` to exit; returns its exit code, or 128 + the signal that ended it,
    /// as shells report it.
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) == -1 && errno == EINTR {}
        return exitCode(waitStatus)
    }

    /// Waits up to `timeout` for child `pid` to exit; returns its exit code as
    /// ``waitForExit(_:)`` does, or nil if it is still running.
    static func waitForExit(_ pid: pid_t, timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        var pause: useconds_t = 1_000
        var waitStatus: Int32 = 0
        while true {
            let reaped = waitpid(pid, &waitStatus, WNOHANG)
            if reaped == pid { return exitCode(waitStatus) }
            if reaped == -1 && errno != EINTR { return exitCode(waitStatus) }
            guard ContinuousClock.now < deadline else { return nil }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    /// A `waitpid` status as shells report it: the exit code, or 128 + the signal that ended it.
    public static func exitCode(_ waitStatus: Int32) -> Int32 {
        let signal = waitStatus & 0x7f
        return signal == 0 ? (waitStatus >> 8) & 0xff : 128 + signal
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
