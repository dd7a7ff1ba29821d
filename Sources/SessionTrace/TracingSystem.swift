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

    /// Makes `tracer` the process-wide default. Only the first call takes effect, so a library
    /// cannot take the application's tracer away; it returns whether this call did.
    @discardableResult
    public static func bootstrap(_ tracer: Tracer) -> Bool {
        bootstrapped.withLock { current in
            guard current == nil else { return false }
            current = tracer
            return true
        }
    }

    /// The tracer given to ``bootstrap(_:)``, or one that records nothing before it is called.
    public static var tracer: Tracer { bootstrapped.withLock { $0 } ?? unset }
}
