import Foundation
import Testing
import TestSupport

/// The built `trace-proxy`, started on a free loopback port in front of `upstream`, recording to a
/// store in its own temporary directory; stopped with SIGTERM, as a user stops it.
final class ProxyProcess {
    let directory: TemporaryDirectory
    let process: Process
    let port: Int
    let storePath: String

    /// Starts the proxy and waits until it says where it listens.
    init(upstream: String, arguments: [String] = []) throws {
        directory = try TemporaryDirectory()
        storePath = directory.path("proxy.sqlite")
        process = try startProgram(
            try builtProgram("trace-proxy"), ["--upstream", upstream, "--store", storePath] + arguments,
            outputIn: directory)
        let deadline = Date().addingTimeInterval(20)
        var announced: Int?
        while announced == nil, Date() < deadline, process.isRunning {
            let out = (try? String(contentsOfFile: directory.path("out"), encoding: .utf8)) ?? ""
            // "trace-proxy: listening on http://127.0.0.1:PORT, forwarding to …"
            announced = out.split(separator: "\n").first { $0.contains("listening on http://") }
                .flatMap { $0.split(separator: ",").first?.split(separator: ":").last }
                .flatMap { Int($0) }
            if announced == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        let errors = (try? String(contentsOfFile: directory.path("err"), encoding: .utf8)) ?? ""
        port = try #require(announced, "trace-proxy did not start: \(errors)")
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The proxy's base URL for OpenAI clients (`…/v1`) and for Anthropic ones (no `/v1`).
    var openAIBaseURL: String { "http://127.0.0.1:\(port)/v1" }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Sends SIGTERM and waits for the proxy to drain and exit; its status.
    @discardableResult
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What the proxy printed on standard output.
    var output: String { (try? String(contentsOfFile: directory.path("out"), encoding: .utf8)) ?? "" }
}

/// The kinds of the findings `trace-report check --json` reports for `store`.
func findingKinds(_ store: String) throws -> [String] {
    let check = try runProgram(try builtProgram("trace-report"), ["check", "--json", store])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(check.out.utf8)) as? [String: Any])
    return (report["findings"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
}

/// Rows of the proxy's store, read with the sqlite3 program a user would read it with.
func storeRows(_ store: String, _ query: String) throws -> [[String: Any]] {
    let result = try runProgram("/usr/bin/sqlite3", ["-json", store, query])
    try #require(result.status == 0, "sqlite3 failed: \(result.err)")
    let text = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty { return [] }
    return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
}

/// The payloads of the proxy's store in the order they were captured: each one's kind and text.
func capturedPayloads(_ store: String) throws -> [(kind: String?, text: String?)] {
    try storeRows(store, "select kind, text from payload order by payload_id").map {
        ($0["kind"] as? String, $0["text"] as? String)
    }
}

/// The captured response text of the request `row` of `store`: one text, or none.
func responseTexts(_ store: String, of row: [String: Any]) throws -> [String?] {
    let id = try #require(row["request_id"] as? Int)
    return try storeRows(store, "select text from payload where kind = 'response' and parent_id = \(id)")
        .map { $0["text"] as? String }
}

/// Runs curl, the reference client, and returns what it printed: `arguments` then the URL.
func curl(_ arguments: [String]) throws -> ProgramResult {
    try runProgram("/usr/bin/curl", ["-sS", "--no-buffer"] + arguments)
}
