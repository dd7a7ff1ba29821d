import Foundation
import SessionTrace
import SessionTraceTesting
import Synchronization
import TestSupport
import Testing

@testable import TraceStore

#if canImport(Glibc)
import Glibc
#endif

/// A tracer's payload redaction runs where the sink chooses: a store redacts on its writer
/// thread, so the caller pays for queueing alone, and still writes nothing unredacted.
@Suite("Store redaction off the caller's thread")
struct StoreRedactionTests {
    /// A redaction that masks "hunter2" and notes each thread it ran on.
    final class ThreadNotingRedaction: Sendable {
        let threads = Mutex<[pthread_t]>([])

        func redact(_ text: String) -> String {
            threads.withLock { $0.append(pthread_self()) }
            return text.replacing("hunter2", with: "[R]")
        }

        var threadsSeen: Set<pthread_t> { Set(threads.withLock { $0 }) }
    }

    /// Records a run, two requests with a secret in their errors (boxed in an event, and unboxed as
    /// the middleware records them), an instant and a captured payload.
    private func recordSecrets(_ tracer: Tracer) {
        tracer.record(
            .request(RequestRecord(requestID: tracer.makeID(), ts: tracer.now(), dur: 5, error: "key hunter2 refused")),
            kind: .request)
        tracer.record(request: RequestRecord(requestID: tracer.makeID(), ts: tracer.now(), dur: 5, error: "hunter2 expired"))
        tracer.instant("login", metadata: ["password": "hunter2"])
        tracer.capturePayload(.prompt, "my password is hunter2", parentID: nil)
        tracer.flush()
    }

    @Test func aStoreRedactsOnItsWriterThreadAndWritesNoSecret() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let store = try StoreSink(path: path)
        let redaction = ThreadNotingRedaction()
        let caller = pthread_self()
        let tracer = Tracer(
            sink: store, clock: steppingClock(), label: "hunter2 run", payloadRedaction: redaction.redact)
        recordSecrets(tracer)

        #expect(!redaction.threadsSeen.isEmpty)
        #expect(!redaction.threadsSeen.contains(caller), "the store redacted on the caller's thread")
        store.close()
        // No file beside the store, its -wal included, holds the secret.
        for name in try fileNames(in: directory) {
            #expect(try fileBytes(directory.path(name)).range(of: Data("hunter2".utf8)) == nil, "\(name)")
        }
        let reader = try StoreReader(path: path)
        #expect(try reader.payloads().map(\.text) == ["my password is [R]"])
        #expect(try reader.requests().map(\.error) == ["key [R] refused", "[R] expired"])
        #expect(try reader.instants().map { $0.metadata["password"] } == [.string("[R]")])
        #expect(try reader.runs().map(\.label) == ["[R] run"])
    }

    /// Beside a sink that writes at once, the store still redacts on its own thread; the other
    /// sink gets its events redacted on the caller's.
    @Test func aMultiplexLetsEachSinkRedactWhereItCan() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let store = try StoreSink(path: path)
        let memory = MemorySink()
        let redaction = ThreadNotingRedaction()
        let caller = pthread_self()
        let tracer = Tracer(
            sink: MultiplexSink([memory, store]), clock: steppingClock(), payloadRedaction: redaction.redact)
        recordSecrets(tracer)
        store.close()

        #expect(redaction.threadsSeen.contains(caller))
        #expect(redaction.threadsSeen.count == 2, "one thread for the memory sink, the writer's for the store")
        #expect(!memory.recorded.contains { "\($0)".contains("hunter2") })
        #expect(try fileBytes(path).range(of: Data("hunter2".utf8)) == nil)
        #expect(try StoreReader(path: path).requests().map(\.error) == ["key [R] refused", "[R] expired"])
    }

    /// Events recorded into the store itself, not through a redacting tracer, are kept as given.
    @Test func theStoreItselfStillKeepsWhatItIsGiven() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let store = try StoreSink(path: path)
        let tracer = Tracer(sink: store, clock: steppingClock(), payloadRedaction: { $0.replacing("hunter2", with: "[R]") })
        store.record(.request(RequestRecord(requestID: tracer.makeID(), ts: 1, dur: 5, error: "plain hunter2")))
        tracer.record(
            .request(RequestRecord(requestID: tracer.makeID(), ts: 2, dur: 5, error: "traced hunter2")), kind: .request)
        store.close()
        #expect(try StoreReader(path: path).requests().map(\.error) == ["plain hunter2", "traced [R]"])
    }
}
