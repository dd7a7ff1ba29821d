import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An `lttng-relayd` this process started on loopback: the daemon that gathers the traces of
/// sessions on many hosts, and serves live sessions to viewers.
///
/// ```swift
/// let relay = try RelayDaemon.start(outputDirectory: gathered)
/// defer { relay.stop() }
/// let session = try LTTngControl.Session.create(outputDirectory: nil, relay: relay, live: true)
/// // trace-report timeline --follow relay.liveURL(session: session.name)
/// ```
///
/// Traces arrive under `outputDirectory/HOSTNAME/SESSION-DATE-TIME/`, one folder per traced host.
public struct RelayDaemon: Sendable {
    public let pid: pid_t
    public let controlPort: Int
    public let dataPort: Int
    public let livePort: Int
    public let outputDirectory: String

    /// Starts `lttng-relayd` in the foreground as a child, on three free loopback ports, writing
    /// what it receives under `outputDirectory`; returns once its live port accepts connections.
    public static func start(outputDirectory: String, timeout: Duration = .seconds(15)) throws -> RelayDaemon {
        let ports = try freePorts(3)
        let log = outputDirectory + ".relayd.log"
        let pid = try LTTngControl.spawn(
            "lttng-relayd",
            ["--control-port=tcp://127.0.0.1:\(ports[0])", "--data-port=tcp://127.0.0.1:\(ports[1])",
             "--live-port=tcp://127.0.0.1:\(ports[2])", "--output=\(outputDirectory)"],
            output: (log, log + ".err"))
        let relay = RelayDaemon(
            pid: pid, controlPort: ports[0], dataPort: ports[1], livePort: ports[2],
            outputDirectory: outputDirectory)
        let deadline = ContinuousClock.now + timeout
        while !accepts(port: ports[2]) {
            guard ContinuousClock.now < deadline, LTTngControl.isRunning(pid) else {
                relay.stop()
                throw LTTngControl.Error.relayNotListening(port: ports[2], seconds: timeout.seconds)
            }
            usleep(20_000)
        }
        return relay
    }

    /// The URL a live viewer attaches to for `session`, recorded on `host` (this host by default).
    public func liveURL(session: String, host: String = RelayDaemon.hostName()) -> String {
        "net://127.0.0.1:\(livePort)/host/\(host)/\(session)"
    }

    /// Stops the daemon by its PID and reaps it.
    public func stop() {
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(10)
        while LTTngControl.isRunning(pid), ContinuousClock.now < deadline { usleep(20_000) }
        if LTTngControl.isRunning(pid) { kill(pid, SIGKILL) }
        _ = LTTngControl.waitForExit(pid)
    }

    /// This host's name, as LTTng names the traces it sends.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    }

    /// Loopback ports the kernel reports free, held open together so they differ.
    private static func freePorts(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socketFD >= 0 else { throw LTTngControl.Error.relayNotListening(port: 0, seconds: 0) }
            sockets.append(socketFD)
            var address = loopback(port: 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0
                }
            }
            guard bound else { throw LTTngControl.Error.relayNotListening(port: 0, seconds: 0) }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }

    private static func accepts(port: Int) -> Bool {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return false }
        defer { close(socketFD) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
