import Foundation
import SessionTrace
import SessionTraceTesting
import TestSupport
import Testing
import TraceStore

/// A store copied while its sink wrote (a `-wal` log beside it, no `-shm`) into a directory the
/// reader cannot write to, read by the built `trace-report`.
@Suite("reading in a read-only directory")
struct ReadOnlyDirectoryTests {
    /// `program` and `arguments` as a user who cannot write where root can: `nobody`, when the
    /// tests run as root (which ignores directory permissions).
    private func asReader(_ program: String, _ arguments: [String]) -> (String, [String]) {
        getuid() == 0
            ? ("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", program] + arguments)
            : (program, arguments)
    }

    @Test func aCopiedLogStoreIsReadWholeAndNothingAppearsBesideIt() throws {
        let directory = try TemporaryDirectory()
        let live = directory.path("live.sqlite")
        let sink = try StoreSink(path: live)
        let clock = storeClock()
        let tracer = Tracer(sink: sink, clock: clock, label: "copied", commandLine: "test")
        for index in 0..<30 { request(tracer, session: nil, at: 6_000_000_000 + Int64(index) * 1_000_000_000) }
        sink.flush()
        let copy = directory.path("copy")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
        let store = copy + "/store.sqlite"
        try FileManager.default.copyItem(atPath: live, toPath: store)
        try FileManager.default.copyItem(atPath: live + "-wal", toPath: store + "-wal")
        sink.close()
        for file in [store, store + "-wal"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: copy)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy) }
        let before = try FileManager.default.contentsOfDirectory(atPath: copy).sorted()
        let bytes = try [store, store + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }

        let (touch, touchArguments) = asReader("/usr/bin/touch", [copy + "/probe"])
        #expect(try runProgram(touch, touchArguments).status != 0, "the directory must be read-only to the reader")

        let (program, arguments) = asReader(try builtBinary(), ["summary", "--json", store])
        let result = try runProgram(program, arguments)
        #expect(result.status == 0, "\(result.err)")
        #expect(try parseJSON(result.out)["requests"] as? Int == 30)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy).sorted() == before)
        #expect(try [store, store + "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == bytes)
    }
}
