import CCurl
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A real llama.cpp server on a free loopback port, for tests, the demo and the benchmark.
///
/// ```swift
/// let server = try await LlamaServer.start()
/// defer { server.stop() }
/// let model = OpenAICompatibleModel(baseURL: server.baseURL, modelName: "smollm2")
/// ```
///
/// The server runs under a small shell watchdog that ends it when this process ends, so a
/// crashed test run does not leave a model server behind on a shared machine.
public final class LlamaServer: Sendable {
    /// Where the server listens, e.g. `http://127.0.0.1:41235`.
    public let baseURL: URL
    public let port: Int
    /// The watchdog's process id; ``stop()`` signals it and it ends the server.
    public let processID: pid_t
    /// The server's stdout and stderr.
    public let logPath: String
    public let configuration: Configuration

    /// `exited` once the watchdog was reaped: its id may belong to another process by then.
    private enum Phase { case running, exited, stopped }
    private let phase = Mutex(Phase.running)

    private init(baseURL: URL, port: Int, processID: pid_t, logPath: String, configuration: Configuration) {
        self.baseURL = baseURL
        self.port = port
        self.processID = processID
        self.logPath = logPath
        self.configuration = configuration
    }

    deinit { stop() }

    /// Finds the binary and the model, launches the server and waits until `/health` answers 200.
    ///
    /// Binary and model come from `SESSIONTRACE_LLAMA_SERVER` and `SESSIONTRACE_MODEL` when set,
    /// otherwise from `scripts/model-server.sh paths` in the package root.
    public static func start(configuration: Configuration = Configuration()) async throws -> LlamaServer {
        let paths = try ServerPaths.resolve(configuration)
        let logDirectory = try makeTemporaryDirectory()
        var lastError: Error?
        // A port picked free can be taken before the server binds it; a few tries cover that race.
        // The server's log is read before stop() removes it, so the error keeps its tail.
        for attempt in 1...3 {
            let port = try FreePort.pick()
            let logPath = "\(logDirectory)/llama-server-\(port)-\(attempt).log"
            let arguments = configuration.arguments(model: paths.model, port: port)
            let pid = try Watchdog.spawn(server: paths.server, arguments: arguments, logPath: logPath)
            let server = LlamaServer(
                baseURL: URL(string: "http://127.0.0.1:\(port)")!, port: port, processID: pid,
                logPath: logPath, configuration: configuration)
            do {
                try await server.waitUntilHealthy(timeout: configuration.startupTimeout)
                return server
            } catch let error as Error {
                server.stop()
                guard case .exitedEarly(_, let logTail) = error, logTail.contains("couldn't bind") else {
                    throw error
                }
                lastError = error
            }
        }
        throw lastError ?? Error.exitedEarly(status: -1, logTail: "")
    }

    /// Ends the server: SIGTERM to the watchdog, which ends llama-server and waits for it.
    ///
    /// Idempotent; blocks until the watchdog has exited. After 10 seconds both get SIGKILL
    /// through the watchdog's own process group.
    public func stop() {
        let previous = phase.withLock { phase in
            defer { phase = .stopped }
            return phase
        }
        if previous == .running { terminateWatchdog() }
        if previous != .stopped && !configuration.keepsLog {
            unlink(logPath)
            rmdir((logPath as NSString).deletingLastPathComponent)  // once its last log is gone
        }
    }

    private func terminateWatchdog() {
        kill(processID, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(10)
        var status: Int32 = 0
        while waitpid(processID, &status, WNOHANG) == 0 {
            if ContinuousClock.now > deadline {
                kill(-processID, SIGKILL)
                waitpid(processID, &status, 0)
                return
            }
            usleep(20_000)
        }
    }

    /// The last lines of the server's log, for error messages.
    public func logTail(lines: Int = 20) -> String {
        Self.tail(of: logPath, lines: lines)
    }

    private func waitUntilHealthy(timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        let healthURL = baseURL.appendingPathComponent("health")
        while ContinuousClock.now < deadline {
            var status: Int32 = 0
            if waitpid(processID, &status, WNOHANG) == processID {
                phase.withLock { $0 = .exited }
                throw Error.exitedEarly(status: status, logTail: logTail())
            }
            if Self.healthStatus(of: healthURL) == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Error.startupTimedOut(after: timeout, url: healthURL, logTail: logTail())
    }

    /// The HTTP status of a GET of `url` within two seconds, or nil without an answer.
    static func healthStatus(of url: URL) -> Int? {
        let status = ccurl_get_status(url.absoluteString, 2000)
        return status > 0 ? status : nil
    }

    static func tail(of path: String, lines: Int) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "" }
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
            .joined(separator: "\n")
    }

    private static func makeTemporaryDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/sessiontrace-llama-XXXXXX").utf8CString)
        guard let pointer = mkdtemp(&template) else {
            throw Error.launchFailed(path: NSTemporaryDirectory(), reason: "mkdtemp: errno \(errno)")
        }
        return String(cString: pointer)
    }
}
