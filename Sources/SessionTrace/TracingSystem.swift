import Synchronization

/// The process-wide default tracer, for libraries that are not handed one.
///
/// An application sets it once, at start-up, as it would `LoggingSystem.bootstrap`; libraries read
/// it through ``Tracer/current``, which prefers the tracer of the scope the task is in. Until it is
/// set, the default records nothing (a tracer over ``NullSink``). Code that can take a tracer as an
/// argument should: the default is a convenience.
///
/// ```swift
/// let tracer = Tracer(sink: try StoreSink(path: "run.sqlite"), label: "nightly")
/// TracingSystem.bootstrap(tracer)
/// ```
public enum TracingSystem {
    private static let bootstrapped = Mutex<Tracer?>(nil)
    private static let unset = Tracer(sink: NullSink())

    /// Makes `tracer` the process-wide default. Call it once, at start-up: a second call is a
    /// programming error and stops the process (a precondition, as `InstrumentationSystem.bootstrap`
    /// does), so no library can take the application's tracer away unnoticed.
    public static func bootstrap(_ tracer: Tracer) {
        let first = bootstrapped.withLock { current in
            guard current == nil else { return false }
            current = tracer
            return true
        }
        precondition(first, "TracingSystem.bootstrap was called twice; set the default tracer once, at start-up")
    }

    /// The tracer given to ``bootstrap(_:)``, or one that records nothing before it is called.
    public static var tracer: Tracer { bootstrapped.withLock { $0 } ?? unset }
}
