#if canImport(Glibc)
import Glibc
#endif

/// Starts child processes with `posix_spawnp`, the one place the package sets one up.
///
/// Not `Foundation.Process`: the child gets an empty signal mask and default handlers for the
/// signals daemons and shells rely on. It would otherwise inherit the mask of the calling thread
/// (a Dispatch or Swift concurrency worker, or a test runner, blocks nearly every signal):
/// `lttng-sessiond --daemonize` would wait forever for the SIGUSR1 its forked daemon sends when
/// ready, and a shell would never see the SIGTERM that should end it.
public enum ProcessSpawn {
    /// `posix_spawnp` failed; `code` is its error number (`ENOENT`: no such program).
    public struct Failure: Error, CustomStringConvertible {
        /// The error number `posix_spawnp` returned.
        public let code: Int32
        /// `strerror`'s sentence for ``code``.
        public var description: String { String(cString: strerror(code)) }
    }

    /// The signals the child starts with default handlers for.
    static let defaultSignals = [SIGPIPE, SIGUSR1, SIGUSR2, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM]

    /// Starts `program` (looked up on `PATH` unless it contains a `/`) with `arguments` and
    /// returns its process id without waiting.
    ///
    /// With `output`, standard input is `/dev/null` and standard output and error go to the two
    /// files (created or truncated, mode 0600); without it the child shares this process's. With
    /// `ownProcessGroup` the child leads a new process group, so that one `kill(-pid, …)` ends it
    /// and whatever it starts.
    public static func start(
        _ program: String, _ arguments: [String], output: (stdout: String, stderr: String)? = nil,
        ownProcessGroup: Bool = false
    ) throws(Failure) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let output {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output.stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, output.stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        guard result == 0 else { throw Failure(code: result) }
        return pid
    }
}
