import Foundation
import Testing
import TestSupport

/// The Python programs under Tests/ProxyClients, run with the virtualenv of the official SDKs that
/// scripts/proxy-clients.sh installs (scripts/install-deps.sh calls it).
enum PythonClients {
    static let directory = packageRoot.appendingPathComponent("Tests/ProxyClients").path

    static func python() throws -> String {
        let venv = ProcessInfo.processInfo.environment["PROXY_CLIENTS_VENV"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".cache/sessiontrace/proxy-clients-venv").path
        let python = venv + "/bin/python"
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "the SDK virtualenv is missing: run scripts/proxy-clients.sh install")
        return python
    }

    /// Runs `script` with `arguments` and decodes the one JSON line it prints.
    static func run(_ script: String, _ arguments: [String]) throws -> [String: Any] {
        let result = try runProgram(try python(), [directory + "/" + script] + arguments)
        try #require(result.status == 0, "\(script) failed (\(result.status)): \(result.err)")
        let line = try #require(result.out.split(separator: "\n").last, "\(script) printed nothing")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}

/// The scripted OpenAI-compatible upstream (Tests/ProxyClients/scripted_upstream.py), on a free
/// loopback port, for tool calls (SmolLM2 emits none), exact bytes and faults.
final class ScriptedUpstream {
    let directory: TemporaryDirectory
    let process: Process
    let port: Int
    let scheme: String

    /// Over HTTPS when given a certificate and its key (PEM files).
    init(tls: (certificate: String, key: String)? = nil) throws {
        directory = try TemporaryDirectory()
        scheme = tls == nil ? "http" : "https"
        process = try startProgram(
            try PythonClients.python(),
            [PythonClients.directory + "/scripted_upstream.py"] + (tls.map { ["--tls", $0.certificate, $0.key] } ?? []),
            outputIn: directory)
        let deadline = Date().addingTimeInterval(20)
        var announced: Int?
        while announced == nil, Date() < deadline, process.isRunning {
            let out = (try? String(contentsOfFile: directory.path("out"), encoding: .utf8)) ?? ""
            announced = out.split(separator: "\n").first { $0.hasPrefix("port ") }.flatMap { Int($0.dropFirst(5)) }
            if announced == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        port = try #require(announced, "the scripted upstream did not start")
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    var url: String { "\(scheme)://127.0.0.1:\(port)" }
}
