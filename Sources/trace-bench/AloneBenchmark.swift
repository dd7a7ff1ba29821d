import SessionTrace
import SessionTraceLTTng

/// The paths `--alone` runs, each named for the row it gives in the default run: the instant (also
/// inside an open interval) and the request record, from the C loop and through a tracer, into an
/// enabled LTTng session.
enum AlonePath: String, CaseIterable {
    case cInstant = "c.lttng.enabled"
    case instant = "emit.lttng.enabled"
    case nestedInstant = "emit.lttng.nested"
    case cRequest = "c.lttng.request"
    case request = "emit.lttng.request"

    /// This path's bursts, as the default run times them.
    var bursts: Bursts {
        switch self {
        case .cInstant: .cInstants()
        case .instant: .instants(Tracer(sink: LTTngSink(), label: "trace-bench"))
        case .nestedInstant: .nestedInstants(Tracer(sink: LTTngSink(), label: "trace-bench"))
        case .cRequest: .cRequests()
        case .request: .requests(into: LTTngSink())
        }
    }

    /// This path alone, in the bursts of the default run and nothing else, so that a profiler or an
    /// instruction counter sees that path only (`benchmarks/instructions.sh`).
    func rows(events: Int) throws -> [BenchmarkRow] {
        let cost = try withSnapshotSession { burstCosts([bursts], events: events)[0].cpu }
        return [BenchmarkRow(metric: rawValue, value: cost, unit: BenchmarkRow.callerCostUnit)]
    }
}
