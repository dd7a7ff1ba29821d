import SessionTrace
import SessionTraceLTTng

/// The cost of one `tracer.instant("bench")`: with no sink, into LTTng with no session, and
/// into an enabled LTTng session next to the same events emitted from plain C, with no interval
/// open (`emit.lttng.enabled`) and inside one (`emit.lttng.nested`), as most instants are.
///
/// The enabled session is a snapshot session (`withSnapshotSession(_:)`).
func lttngBenchmarks(events: Int) throws -> [BenchmarkRow] {
    var rows: [BenchmarkRow] = []
    let unit = BenchmarkRow.callerCostUnit
    // An instant no sink takes is a few instructions: one burst of all the events a round, so that
    // the clock reads around it do not weigh on the figure.
    let nullTracer = Tracer(sink: NullSink(), label: "trace-bench")
    let noSink = burstCosts([.instants(nullTracer)], events: events, burst: events)[0].cpu
    rows.append(BenchmarkRow(metric: "emit.nosink", value: noSink, unit: unit))

    let lttngTracer = Tracer(sink: LTTngSink(), label: "trace-bench")
    if LTTngSink().isEnabled(.instant) {
        printError("trace-bench: session_trace:instant is already enabled by another session")
    }
    let disabled = burstCosts([.instants(lttngTracer)], events: events, burst: events)[0].cpu
    rows.append(BenchmarkRow(metric: "emit.lttng.disabled", value: disabled, unit: unit))

    // C and Swift bursts in turn, so both see the same machine.
    let enabled = try withSnapshotSession {
        let paths: [Bursts] = [.cInstants(), .instants(lttngTracer), .nestedInstants(lttngTracer)]
        return burstCosts(paths, events: events).map(\.cpu)
    }
    rows.append(BenchmarkRow(metric: "c.lttng.enabled", value: enabled[0], unit: unit))
    for (metric, value) in [("emit.lttng.enabled", enabled[1]), ("emit.lttng.nested", enabled[2])] {
        rows.append(
            BenchmarkRow(
                metric: metric, value: value, unit: unit, reference: "c.lttng.enabled",
                referenceValue: enabled[0]))
    }
    return rows
}
