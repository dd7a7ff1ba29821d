import Foundation
import Testing
import TestSupport

/// "Memory is bounded per connection and in total": a huge request body or a huge whole response
/// crosses the proxy without the proxy process holding it, measured as the process's peak
/// resident size (`VmHWM` in /proc), as PeakMemory measures the test process's own.
@Suite(.serialized)
struct ProxyMemoryTests {
    static let huge = 256 << 20
    /// What the proxy may hold on top of its peak before: one request body up to the 32 MiB limit
    /// (while libmicrohttpd's buffer doubles, the old and new copies), or the 8 MiB of a whole
    /// response it reads, and libcurl's and libmicrohttpd's buffers. A proxy that held the
    /// 256 MiB would go past it.
    static let allowedGrowth = 80 << 20

    @Test func hugeRequestBodyIsRefusedWithoutBeingHeld() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let file = proxy.directory.path("huge-body")
        #expect(try runProgram("/usr/bin/truncate", ["-s", "\(Self.huge)", file]).status == 0)
        let before = try peakResidentBytes(of: proxy.process)
        let sent = try curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json",
            "--data-binary", "@" + file, proxy.openAIBaseURL + "/chat/completions",
        ])
        let growth = try peakResidentBytes(of: proxy.process) - before
        #expect(proxy.stop() == 0)
        print("proxy peak growth for a 256 MiB request body: \(growth >> 10) KiB")
        #expect(sent.out == "413")
        #expect(growth < Self.allowedGrowth, "the proxy's peak grew \(growth >> 20) MiB for a 256 MiB body")
        #expect(try storeRows(proxy.storePath, "select * from request").isEmpty)
    }

    @Test func hugeWholeResponseReachesTheClientWithoutBeingHeld() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url)
        let before = try peakResidentBytes(of: proxy.process)
        let received = try curl([
            "-o", "/dev/null", "-w", "%{size_download}", "-d",
            #"{"model":"scripted-huge","messages":[{"role":"user","content":"hi"}]}"#,
            proxy.openAIBaseURL + "/chat/completions",
        ])
        let growth = try peakResidentBytes(of: proxy.process) - before
        #expect(proxy.stop() == 0)
        print("proxy peak growth for a 256 MiB whole answer: \(growth >> 10) KiB")
        let answer = #"{"id":"chatcmpl-huge","object":"chat.completion","choices":[],"padding":""#.utf8.count + 2
        #expect(received.out == "\(Self.huge + answer)")
        #expect(growth < Self.allowedGrowth, "the proxy's peak grew \(growth >> 20) MiB for a 256 MiB answer")
        let row = try #require(try storeRows(proxy.storePath, "select * from request").first)
        // Past 8 MiB the proxy stops reading a whole body: forwarded whole, recorded as unread.
        #expect(row["error"] as? String == "malformed upstream stream: the body is not a JSON response")
    }

    /// In total: four clients at once each send a 20 MiB body to a slow stream, which holds its
    /// body while it lasts. With `--request-memory 64` three bodies fit and the fourth is answered
    /// 503 with Retry-After; the proxy's peak grows by the three bodies, not by four or by copies
    /// of them, and once the clients are gone it takes a body again. The route (`/v1/embeddings`)
    /// is passed through unrecorded, so only bodies held for forwarding count.
    @Test func bodiesHeldAtOnceStayWithinTheTotalBudget() throws {
        let upstream = try ScriptedUpstream()
        let proxy = try ProxyProcess(upstream: upstream.url, arguments: ["--request-memory", "64"])
        let file = proxy.directory.path("slow-body.json")
        let padding = String(repeating: "x", count: 20 << 20)
        try Data(#"{"model":"scripted-slow","stream":true,"padding":"\#(padding)"}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let before = try peakResidentBytes(of: proxy.process)
        var clients: [(Process, TemporaryDirectory)] = []
        for _ in 0..<4 {
            let output = try TemporaryDirectory()
            let client = try startProgram(
                "/usr/bin/curl",
                ["-sS", "--max-time", "4", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@" + file,
                 proxy.openAIBaseURL + "/embeddings"],
                outputIn: output)
            clients.append((client, output))
        }
        for (client, _) in clients { client.waitUntilExit() }
        let codes = try clients.map { try String(contentsOfFile: $0.1.path("out"), encoding: .utf8) }.sorted()
        let growth = try peakResidentBytes(of: proxy.process) - before
        let after = try curl(["-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@" + file,
                              "--max-time", "2", proxy.openAIBaseURL + "/embeddings"])
        #expect(proxy.stop() == 0)
        print("proxy peak growth for three 20 MiB bodies held at once: \(growth >> 10) KiB; codes \(codes)")
        // Three held until curl gave up on the slow stream (its head came: 200), one refused.
        #expect(codes == ["200", "200", "200", "503"])
        // The budget, and 16 MiB for the threads' stacks and libcurl's and libmicrohttpd's buffers:
        // a fourth body, or a copy of each, would pass it.
        #expect(growth < 80 << 20, "the proxy's peak grew \(growth >> 20) MiB for bodies within a 64 MiB budget")
        #expect(after.out == "200", "a body once the others were released")
    }

    /// `VmHWM` of a running process, in bytes.
    private func peakResidentBytes(of process: Process) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }
}
