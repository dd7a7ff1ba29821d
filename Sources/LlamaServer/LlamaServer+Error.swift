import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension LlamaServer {
    /// Why the server could not be started; each case says what to do or shows the log tail.
    public enum Error: Swift.Error, CustomStringConvertible, Sendable, Hashable {
        case binaryMissing(path: String)
        case modelMissing(path: String)
        /// Neither the environment nor `scripts/model-server.sh paths` named the files.
        case pathsUnknown(reason: String)
        case noFreePort(reason: String)
        case launchFailed(path: String, reason: String)
        /// The server exited before `/health` answered (e.g. the port was taken or the model
        /// failed to load); `status` is the watchdog's wait status.
        case exitedEarly(status: Int32, logTail: String)
        case startupTimedOut(after: Duration, url: URL, logTail: String)

        public var description: String {
            switch self {
            case .binaryMissing(let path):
                return "llama-server not found at \(path); run `scripts/model-server.sh build` first "
                    + "(or set SESSIONTRACE_LLAMA_SERVER)"
            case .modelMissing(let path):
                return "model not found at \(path); run `scripts/model-server.sh build` first "
                    + "(or set SESSIONTRACE_MODEL)"
            case .pathsUnknown(let reason):
                return "cannot locate llama-server and the model: \(reason); set SESSIONTRACE_LLAMA_SERVER "
                    + "and SESSIONTRACE_MODEL or run from the package"
            case .noFreePort(let reason):
                return "no free loopback port: \(reason)"
            case .launchFailed(let path, let reason):
                return "cannot launch \(path): \(reason)"
            case .exitedEarly(let status, let logTail):
                return "llama-server exited during startup (wait status \(status)); log tail:\n\(logTail)"
            case .startupTimedOut(let after, let url, let logTail):
                return "llama-server did not answer 200 on \(url) within \(after); log tail:\n\(logTail)"
            }
        }
    }
}
