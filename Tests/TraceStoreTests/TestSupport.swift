import Foundation
import SessionTrace
import SessionTraceTesting
import Synchronization
import TestSupport
import Testing

@testable import TraceStore

/// A clock that advances 1 µs per reading, so times in a test are distinct and predictable.
func steppingClock() -> TestClock { TestClock(at: 1_000_000, wallClock: 1_750_000_000_000_000_000, step: 1_000) }

/// Every file in `directory`, by name, so a test can see that nothing appeared beside a store.
func fileNames(in directory: TemporaryDirectory) throws -> Set<String> {
    Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
}

/// The one integer that `sql` selects from the store at `path`.
func count(_ sql: String, in path: String) throws -> Int64 {
    var result: Int64 = 0
    try StoreReader(path: path).query(sql) { result = $0.int64(0) }
    return result
}

func fileBytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// A request with every field set, so a round trip compares every column.
func fullRequest(id: Int64, sessionID: Int64?, ts: Int64) -> RequestRecord {
    RequestRecord(
        requestID: id, sessionID: sessionID, parentID: sessionID, ts: ts, dur: 900_000_000,
        timeToFirstToken: 120_000_000, profile: "economy", provider: "llama.cpp", model: "smollm2-135m",
        inputTokens: 512, cachedInputTokens: 384, outputTokens: 79, promptBytes: 2_048, transcriptEntries: 6,
        reusedPrefixEntries: 4, finishReason: "stop", error: nil,
        serverTimings: ServerTimings(
            promptTokens: 128, cachedTokens: 384, promptDuration: 40_000_000, predictedTokens: 79,
            predictedDuration: 760_000_000),
        turnID: 41, instructionsFingerprint: "a1b2c3d4e5f60718", toolsFingerprint: "0f1e2d3c4b5a6978",
        cacheWriteTokens: 96, responseID: "chatcmpl-7", responseModel: "SmolLM2-135M-Instruct",
        serverAddress: "127.0.0.1", serverPort: 8_080, streamed: false, maxTokens: 256, temperature: 0.25)
}

/// `store-sink-helper` (`Tests/StoreSinkHelper`), which `swift build` builds with the package.
func storeSinkHelper() throws -> String { try builtProgram("store-sink-helper") }

/// A program running beside the test, which holds its standard input and output.
final class RunningProgram {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// What the program printed so far, appended to by the pipe's handler on its own thread.
    private let received = Received()

    private final class Received: Sendable {
        let text = Mutex("")
    }

    init(_ path: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        let received = received
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            received.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    /// Waits until the program has printed the line `line`.
    func waitForLine(_ line: String, timeout: Duration = .seconds(120)) throws {
        let deadline = ContinuousClock.now + timeout
        while !received.text.withLock({ $0.split(separator: "\n").contains(Substring(line)) }) {
            try #require(ContinuousClock.now < deadline, "no line \(line) from the program")
            try #require(process.isRunning, "the program ended before printing \(line)")
            usleep(5_000)
        }
    }

    func send(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the program to end: its status (the signal's number if one ended it) and output.
    /// A program still running after `timeout` is killed, and the test fails.
    func wait(timeout: Duration = .seconds(120)) -> (status: Int32, signaled: Bool, output: String) {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning {
            Issue.record("the program did not end within \(timeout); killed")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        let text = received.text.withLock { $0 + String(decoding: rest, as: UTF8.self) }
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, text)
    }
}
