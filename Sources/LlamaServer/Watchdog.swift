import Foundation
import ProcessSpawn

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
        let shellArguments = ["-c", script, "llama-watchdog", String(getpid()), logPath, server] + arguments
        // The spawning thread may block or ignore signals (test runners do); the watchdog and the
        // server must see SIGTERM. Their own process group lets stop() kill both as a last resort.
        do {
            return try ProcessSpawn.start("/bin/sh", shellArguments, ownProcessGroup: true)
        } catch {
            throw LlamaServer.Error.launchFailed(path: server, reason: error.description)
        }
    }
}
