import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Launches llama-server under a shell that ends it when our process or a SIGTERM ends.
enum Watchdog {
    /// `$1` is our process id, `$2` the log file, the rest the server and its arguments.
    static let script = """
        parent=$1; log=$2; shift 2
        "$@" >"$log" 2>&1 &
        child=$!
        trap 'kill $child 2>/dev/null; wait $child; exit 0' TERM INT HUP
        while kill -0 "$parent" 2>/dev/null && kill -0 "$child" 2>/dev/null; do
            sleep 1 & wait $!
        done
        kill $child 2>/dev/null
        wait $child
        exit 1
        """

    static func spawn(server: String, arguments: [String], logPath: String) throws -> pid_t {
        let argv =
            ["/bin/sh", "-c", script, "llama-watchdog", String(getpid()), logPath, server]
            + arguments
        var cStrings = argv.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        cStrings.append(nil)
        // The spawning thread may block or ignore signals (test runners do); the watchdog and the
        // server must see SIGTERM. Their own process group lets stop() kill both as a last resort.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", nil, &attributes, cStrings, environ)
        guard result == 0 else {
            throw LlamaServer.Error.launchFailed(path: server, reason: String(cString: strerror(result)))
        }
        return pid
    }
}
