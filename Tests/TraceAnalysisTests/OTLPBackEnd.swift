import Foundation
import TestSupport
import Testing

/// The Python of the virtualenv `scripts/phoenix.sh install` makes: Arize Phoenix, and with it
/// the official OTLP protobuf definitions (`opentelemetry-proto`) and `protobuf`.
enum OTLPBackEnd {
    static let script = packageRoot.appendingPathComponent("scripts/phoenix.sh").path

    static var venv: String {
        ProcessInfo.processInfo.environment["PHOENIX_VENV"]
            ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/sessiontrace/phoenix-venv"
    }

    /// The virtualenv's python, installing it first when it is missing (CI installs it through
    /// scripts/install-deps.sh).
    static func python() throws -> String {
        let python = venv + "/bin/python"
        if !FileManager.default.isExecutableFile(atPath: venv + "/bin/phoenix") {
            let result = try runProgram("/bin/bash", [script, "install"])
            try #require(result.status == 0, "scripts/phoenix.sh install failed: \(result.err)")
        }
        return python
    }

    /// Runs `source` with the virtualenv's python and `arguments`; its standard output.
    static func runPython(_ source: String, _ arguments: [String]) throws -> String {
        let result = try runProgram(try python(), ["-c", source] + arguments)
        try #require(result.status == 0, "python failed: \(result.err)")
        return result.out
    }
}

/// A real Arize Phoenix on a free loopback port, started and stopped by scripts/phoenix.sh.
final class Phoenix {
    let directory: TemporaryDirectory
    let port: Int

    init() throws {
        _ = try OTLPBackEnd.python()
        directory = try TemporaryDirectory()
        let result = try runProgram("/bin/bash", [OTLPBackEnd.script, "start", directory.path("phoenix")])
        try #require(result.status == 0, "Phoenix did not start: \(result.err)")
        port = try #require(Int(result.out.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    deinit { _ = try? runProgram("/bin/bash", [OTLPBackEnd.script, "stop", directory.path("phoenix")]) }

    var url: String { "http://127.0.0.1:\(port)" }
}
