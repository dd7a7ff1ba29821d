import Foundation
import TestSupport
import Testing

/// `viewer/index.html` as a developer opens it: from a local server, loading `main.js` and the
/// modules it imports as they are in the checkout, with no build step.
@Suite("Viewer source page", .serialized)
struct ViewerSourcePageTests {
    @Test("viewer/index.html, served on loopback, loads its modules and asks for data")
    func sourcePageOpens() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let server = try StaticServer(root: repositoryRoot + "/viewer")
        defer { server.stop() }
        let dom = try Chromium.dumpDOM(url: "http://127.0.0.1:\(server.port)/index.html")
        // main.js ran: only it writes data-status, and it runs after every module it imports.
        #expect(dom.body("data-status") == "empty")
        #expect(dom.html.contains("No trace embedded"))
        // The source page carries no test driver.
        #expect(!dom.html.contains("selftest"))
    }
}

/// Python's `http.server` serving a folder on a free loopback port, stopped by its PID.
final class StaticServer {
    let port: Int
    private let process: Process
    private let directory: TemporaryDirectory

    init(root: String) throws {
        directory = try TemporaryDirectory()
        process = try startProgram(
            "/usr/bin/env", ["python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", root, "0"],
            outputIn: directory)
        // It prints "Serving HTTP on 127.0.0.1 port N (...)" once it listens.
        let deadline = Date().addingTimeInterval(30)
        var found: Int?
        while found == nil, process.isRunning, Date() < deadline {
            let out = (try? String(contentsOfFile: directory.path("out"), encoding: .utf8)) ?? ""
            if let range = out.range(of: " port ") {
                found = Int(out[range.upperBound...].prefix { $0.isNumber })
            } else {
                usleep(20_000)
            }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw ServerError(
                message: "python3 -m http.server did not start: "
                    + ((try? String(contentsOfFile: directory.path("err"), encoding: .utf8)) ?? ""))
        }
        port = found
    }

    /// SIGKILL: a child of the test process inherits its blocked signals, SIGTERM among them.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    struct ServerError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
