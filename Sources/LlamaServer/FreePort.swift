#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel for a free loopback TCP port by binding port 0.
enum FreePort {
    static func pick() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw LlamaServer.Error.noFreePort(reason: "socket: errno \(errno)") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(socketFD, socketAddress, length) == 0
                    && getsockname(socketFD, socketAddress, &length) == 0
            }
        }
        guard bound else { throw LlamaServer.Error.noFreePort(reason: "bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
