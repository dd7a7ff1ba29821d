import TraceModel

/// Places each record of an LTTng trace in its run: the tracker of the LTTng importer.
///
/// A store stamps every row with the run whose `run` record its writer received last. An LTTng
/// trace has no such column, and one trace can hold several processes, so a record goes to:
/// 1. the run last recorded by the same process, when the trace has the `vpid` context;
/// 2. else the run its id names, when the trace holds that run (`Tracer.makeID` puts the run's id
///    in the upper 32 bits of every id it makes);
/// 3. else, in a trace without the `vpid` context, the run last recorded in the same trace, as the
///    store's writer would place it (with the context, that run may be another process's);
/// 4. else, once the whole trace is read, the run its id names, recorded or not (a session started
///    after the program made its tracer holds no `run` record): ``placeLate(id:)``.
struct RunTracker {
    private struct Process: Hashable {
        var trace: UInt64
        var vpid: Int64
    }

    private var currentByProcess: [Process: Int64] = [:]
    private var currentByTrace: [UInt64: Int64] = [:]
    /// Every run recorded so far.
    private(set) var recordedRuns: Set<Int64> = []

    static func runID(of id: Int64) -> Int64 { id & ~0xFFFF_FFFF }

    /// The run of a record, or nil when it can only be told once the whole trace is read.
    mutating func place(_ decoded: SessionTraceDecoder.Decoded, trace: UInt64, vpid: Int64?) -> Int64? {
        if case .run(let run) = decoded.event {
            recordedRuns.insert(run.runID)
            currentByTrace[trace] = run.runID
            if let vpid { currentByProcess[Process(trace: trace, vpid: vpid)] = run.runID }
            return run.runID
        }
        if let vpid, let run = currentByProcess[Process(trace: trace, vpid: vpid)] { return run }
        if let id = decoded.id, recordedRuns.contains(Self.runID(of: id)) { return Self.runID(of: id) }
        return vpid == nil ? currentByTrace[trace] : nil
    }

    /// The run of a record ``place(_:trace:vpid:)`` could not place, after the whole trace.
    func placeLate(id: Int64?) -> Int64 {
        id.map(Self.runID(of:)) ?? 0
    }
}
