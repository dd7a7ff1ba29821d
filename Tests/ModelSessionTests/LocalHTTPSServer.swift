import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTPS server (Python's `ssl` module) with a self-signed certificate made for it
/// by `openssl` when it starts; it answers every request with `answer` and stops by itself
/// after a minute if the test does not stop it first.
final class LocalHTTPSServer {
    let port: Int
    /// The PEM certificate the server presents: its own certificate authority.
    let certificatePath: String
    private let directory: URL
    private let process: Process

    private static let script = """
        import socket, ssl, sys
        certificate, key, answer = sys.argv[1], sys.argv[2], open(sys.argv[3], "rb").read()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(60)
        print(listener.getsockname()[1], flush=True)
        while True:
            connection, _ = listener.accept()
            try:
                tls = context.wrap_socket(connection, server_side=True)
            except (ssl.SSLError, OSError):
                connection.close()
                continue
            request = b""
            while b"\\r\\n\\r\\n" not in request:
                request += tls.recv(65536)
            head, _, body = request.partition(b"\\r\\n\\r\\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\\r\\n")
                           if line.lower().startswith(b"content-length:")), 0)
            while len(body) < length:
                body += tls.recv(65536)
            tls.sendall(answer)
            tls.close()
        """

    init(answer: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "https-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificatePath = directory.appendingPathComponent("certificate.pem").path
        let keyPath = directory.appendingPathComponent("key.pem").path
        let answerPath = directory.appendingPathComponent("answer").path
        try answer.write(toFile: answerPath, atomically: true, encoding: .utf8)
        try Self.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", keyPath, "-out", certificatePath, "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1",
            ])

        process = Process()
        // Debian's python3 itself, not a wrapper script that would outlive a terminate().
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script, certificatePath, keyPath, answerPath]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no port from the server: \(line)"])
        }
        self.port = port
    }

    deinit {
        // The child inherits the test thread's signal mask, SIGTERM blocked: terminate() would not end it.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    var baseURL: URL { URL(string: "https://127.0.0.1:\(port)")! }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSLocalizedDescriptionKey: "\(executable) exited \(process.terminationStatus)"])
        }
    }
}
