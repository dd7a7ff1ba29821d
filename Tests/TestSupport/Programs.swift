import Foundation
import Synchronization
import Testing

/// The package's root, found from this file, so tests reach `tracefiles/` and the built programs.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A built executable of the package, which `swift build --build-tests` makes before `swift test`.
public func builtProgram(_ name: String) throws -> String {
    let path = packageRoot.appendingPathComponent(".build/debug/\(name)").path
    try #require(FileManager.default.isExecutableFile(atPath: path), "build \(name) first: swift build")
    return path
}

/// What a finished program printed.
public struct ProgramResult: Sendable {
    /// The exit status, or the number of the signal that ended the program.
    public var status: Int32
    public var out: String
    public var err: String
    /// The signal that ended the program, if one did (then ``status`` is its number too).
    public var signal: Int32?
}

/// Runs `program` to its end from the package root, with `environment` added to this process's
/// and `input`, when given, on its standard input.
///
/// Input and output go through files, not pipes: a chatty child cannot block on a full pipe while
/// we wait, and a child that exits before reading all its input ends no write with SIGPIPE.
public func runProgram(
    _ program: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil
) throws -> ProgramResult {
    let directory = try TemporaryDirectory()
    var inputPath: String?
    if let input {
        inputPath = directory.path("in")
        try Data(input.utf8).write(to: URL(fileURLWithPath: directory.path("in")))
    }
    let process = try startProgram(
        program, arguments, environment: environment, inputFrom: inputPath, outputIn: directory)
    process.waitUntilExit()
    return ProgramResult(
        status: process.terminationStatus,
        out: String(decoding: try Data(contentsOf: directory.url.appendingPathComponent("out")), as: UTF8.self),
        err: String(decoding: try Data(contentsOf: directory.url.appendingPathComponent("err")), as: UTF8.self),
        signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
}

/// Starts `program` without waiting; its output goes to `out` and `err` in `directory`, and its
/// standard input comes from the file `inputFrom` when given.
public func startProgram(
    _ program: String, _ arguments: [String], environment: [String: String] = [:], inputFrom input: String? = nil,
    outputIn directory: TemporaryDirectory
) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let outURL = directory.url.appendingPathComponent("out")
    let errURL = directory.url.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    if let input { process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input)) }
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    try process.run()
    return process
}

/// A fresh directory under the system's temporary directory, removed when the value goes away,
/// or when the test process exits if a `static` holds it (a fixture made once per process).
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sessiontrace-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        _ = removesRemainingDirectoriesAtExit
        remainingDirectories.withLock { _ = $0.insert(url) }
    }

    deinit {
        remainingDirectories.withLock { _ = $0.remove(url) }
        try? FileManager.default.removeItem(at: url)
    }

    /// The directory's own path.
    public var path: String { url.path }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Every ``TemporaryDirectory`` not yet deinitialised.
private let remainingDirectories = Mutex<Set<URL>>([])

/// Removes the directories still there when the process exits; installed by the first directory.
private let removesRemainingDirectoriesAtExit: Void = {
    atexit {
        for url in remainingDirectories.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
}()
