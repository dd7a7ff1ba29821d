import SessionTrace
import SessionTraceTesting
import Synchronization
import Testing

/// A tracer asks a sink whether to build an event with one load of the sink's ``EnabledWord``
/// where it has one, as LTTng's tracepoints do, and by a call where it has none: either way the
/// answer must follow the sink's as it changes.
@Suite("Enabled words")
struct EnabledWordTests {
    @Test("a tracer follows a sink's enabled word as it changes")
    func tracerFollowsTheWord() {
        let sink = SwitchableSink()
        let tracer = Tracer(sink: sink, clock: TestClock())
        #expect(sink.enabledWord(.instant) != nil)
        for (step, enabled) in [false, true, false, true].enumerated() {
            sink.set(enabled)
            #expect(tracer.isEnabled(.instant) == enabled)
            tracer.instant("step \(step)")
        }
        #expect(sink.instantNames == ["step 1", "step 3"])
    }

    @Test("a sink with no word is asked each time")
    func sinkWithoutAWordIsCalled() {
        let sink = SwitchableSink(exposesWord: false)
        let tracer = Tracer(sink: sink, clock: TestClock())
        #expect(sink.enabledWord(.instant) == nil)
        for (step, enabled) in [true, false, true].enumerated() {
            sink.set(enabled)
            #expect(tracer.isEnabled(.instant) == enabled)
            tracer.instant("step \(step)")
        }
        #expect(sink.instantNames == ["step 0", "step 2"])
    }

    /// A multiplex has a word only where one sink decides: one that always records, or the one
    /// sink that may. With two that may, the answer is theirs together, and comes from a call.
    @Test("a multiplex's word is the one that decides, or none when several do")
    func multiplexWords() {
        let first = SwitchableSink()
        let second = SwitchableSink()
        let never = MemorySink(enabledKinds: [])

        let alone = MultiplexSink([NullSink(), first, never])
        #expect(alone.enabledWord(.instant) != nil)
        let always = MultiplexSink([first, MemorySink()])
        #expect(always.enabledWord(.instant)?.isSet == true)
        #expect(MultiplexSink([NullSink(), never]).enabledWord(.instant)?.isSet == false)
        let both = MultiplexSink([first, NullSink(), second])
        #expect(both.enabledWord(.instant) == nil)

        let tracers = [alone, always, both].map { Tracer(sink: $0, clock: TestClock()) }
        for (a, b) in [(false, false), (true, false), (false, true), (true, true)] {
            first.set(a)
            second.set(b)
            #expect(tracers.map { $0.isEnabled(.instant) } == [a, true, a || b], "first \(a), second \(b)")
        }
    }

    @Test("a redacting tracer reads its sink's word through the redaction")
    func redactingTracerReadsTheWord() {
        let sink = SwitchableSink()
        let tracer = Tracer(sink: sink, clock: TestClock(), payloadRedaction: { _ in "[redacted]" })
        sink.set(false)
        #expect(!tracer.isEnabled(.instant))
        sink.set(true)
        #expect(tracer.isEnabled(.instant))
        tracer.instant("secret")
        #expect(sink.instantNames == ["[redacted]"])
    }
}

/// A sink enabled while its word is set, as a tracepoint is; it keeps the names of its instants.
/// With `exposesWord` false it answers only through `isEnabled`.
private final class SwitchableSink: TraceSink, @unchecked Sendable {
    private let word = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: 1)
    private let exposesWord: Bool
    private let names = Mutex<[String]>([])

    init(exposesWord: Bool = true) {
        self.exposesWord = exposesWord
        word.initialize(to: Atomic(0))
    }

    deinit { word.deallocate() }

    func set(_ enabled: Bool) { word.pointee.store(enabled ? 1 : 0, ordering: .relaxed) }

    func isEnabled(_ kind: TraceEventKind) -> Bool { word.pointee.load(ordering: .relaxed) != 0 }

    func enabledWord(_ kind: TraceEventKind) -> EnabledWord? {
        exposesWord ? EnabledWord(address: UnsafeRawPointer(word).assumingMemoryBound(to: Int32.self)) : nil
    }

    func record(_ event: consuming TraceEvent) {
        if case .instant(let instant) = event { names.withLock { $0.append(instant.name) } }
    }

    func flush() {}

    var instantNames: [String] { names.withLock { $0 } }
}
