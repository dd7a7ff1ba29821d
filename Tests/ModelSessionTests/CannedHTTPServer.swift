import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP server that answers every request with canned bytes, for the failures a
/// real model server does not produce on demand: truncated and malformed streams, stalls,
/// resets, endless lines and bodies.
final class CannedHTTPServer: Sendable {
    /// One step of an answer: bytes to send, or a pause.
    enum Step: Sendable {
        case send(String)
        /// `text` sent `times` times over, without building it whole: a huge body in little memory.
        case sendRepeated(String, times: Int)
        case pause(Duration)
        /// Ends the connection with a TCP reset instead of a close.
        case reset
    }

    let port: Int
    private let listenFD: Int32
    private let sent = Atomic(0)

    init(_ steps: [Step]) throws {
        let listenFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var reuse: Int32 = 1
        setsockopt(listenFD, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listenFD, $0, length) == 0 && getsockname(listenFD, $0, &length) == 0
                    && listen(listenFD, 8) == 0
            }
        }
        guard listening else { throw POSIXError(.EADDRINUSE) }
        self.listenFD = listenFD
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listenFD, nil, nil)
                if connection < 0 { return }  // closed by deinit
                serve(connection, steps)
            }
        }
    }

    deinit {
        shutdown(listenFD, Int32(SHUT_RDWR))
        close(listenFD)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The bytes of answers that reached the socket so far: how much a client let the server send.
    var bytesSent: Int { sent.load(ordering: .relaxed) }

    private func serve(_ connection: Int32, _ steps: [Step]) {
        defer { close(connection) }
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Headers and a Content-Length body; enough for the JSON posts under test.
        while true {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return }
            request += buffer[0..<count]
            let text = String(decoding: request, as: UTF8.self)
            guard let headerEnd = text.range(of: "\r\n\r\n") else { continue }
            let length =
                text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            if text.utf8.count - text[..<headerEnd.upperBound].utf8.count >= length { break }
        }
        for step in steps {
            switch step {
            case .send(let text):
                guard send(Array(text.utf8), on: connection) else { return }
            case .sendRepeated(let text, let times):
                let bytes = Array(text.utf8)
                for _ in 0..<times { guard send(bytes, on: connection) else { return } }
            case .pause(let duration):
                let (seconds, attoseconds) = duration.components
                usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
            case .reset:
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(
                    connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                return
            }
        }
    }

    /// Writes all of `bytes`; false once the client has gone (no SIGPIPE).
    private func send(_ bytes: [UInt8], on connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            offset += written
            sent.add(written, ordering: .relaxed)
        }
        return true
    }

    static let eventStreamHeaders =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
}
