import CLTTngUST
import SessionTrace

/// Events in bursts: `emit(count)` records `count` of them and is timed; `settle()` then waits,
/// untimed, until the sink has them all.
struct Bursts {
    var emit: (Int) -> Void
    var settle: () -> Void = {}

    /// The C reference of ``instants(_:)``: what a hand-written C program pays to emit the same
    /// instants (`st_reference_instant_loop`).
    static func cInstants() -> Bursts { Bursts { count in st_reference_instant_loop(Int64(count)) } }

    /// The C reference of ``requests(into:payloadRedaction:)`` into LTTng: the same request records
    /// from a C loop (`st_reference_request_loop`).
    static func cRequests() -> Bursts { Bursts { count in st_reference_request_loop(Int64(count)) } }

    /// `tracer.instant("bench")`, as a traced program marks a point in time.
    static func instants(_ tracer: Tracer) -> Bursts {
        Bursts { count in for _ in 0..<count { tracer.instant("bench") } }
    }

    /// ``instants(_:)`` inside an open interval, where a traced program marks most of its points:
    /// each instant reads a context that names the tracer, and takes the interval as its parent.
    static func nestedInstants(_ tracer: Tracer) -> Bursts {
        Bursts { count in
            tracer.withInterval("bench") { _ in for _ in 0..<count { tracer.instant("bench") } }
        }
    }

    /// Request records through a tracer into `sink`, as a traced program records them, each
    /// reading the clock as the C loop does; settles with `flush()`.
    static func requests(
        into sink: any TraceSink, payloadRedaction: (@Sendable (String) -> String)? = nil
    ) -> Bursts {
        let tracer = Tracer(sink: sink, label: "trace-bench", payloadRedaction: payloadRedaction)
        return Bursts(
            emit: { count in
                for _ in 0..<count {
                    tracer.record(request: benchmarkRequest(id: tracer.makeID(), ts: tracer.now()))
                }
            },
            settle: { sink.flush() })
    }
}

/// The median cost per event of each of `bodies`, in the caller's CPU time and in wall-clock time,
/// over bursts of `burst` events: each round takes one burst of every body, in turn, and starts
/// with the next body, so that none always follows the same one. The first round warms up and is
/// not timed; at least ten are.
///
/// Short bursts taken in turn see the same machine: on a shared machine whose speed changes from
/// one second to the next, long runs of one body each would compare different machines.
///
/// CPU time is what the caller pays. Wall-clock time also counts the time the kernel gave other
/// threads on the caller's core: with every core busy (a two-core machine, the caller and a store's
/// writer), the scheduler wakes the writer on the caller's core, where it preempts the caller for
/// a slice of milliseconds while the other core may idle (`perf record -e sched:sched_switch`).
func burstCosts(_ bodies: [Bursts], events: Int, burst: Int = 8_192) -> [(cpu: Double, wall: Double)] {
    let clock = MonotonicClock()
    var cpu = Array(repeating: [Double](), count: bodies.count)
    var wall = cpu
    for round in 0...max(10, events / burst) {
        for turn in 0..<bodies.count {
            let index = (round + turn) % bodies.count
            let (startCPU, start) = (threadCPUNanoseconds(), clock.now())
            bodies[index].emit(burst)
            let (endCPU, end) = (threadCPUNanoseconds(), clock.now())
            bodies[index].settle()
            guard round > 0 else { continue }
            cpu[index].append(Double(endCPU - startCPU) / Double(burst))
            wall[index].append(Double(end - start) / Double(burst))
        }
    }
    func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }
    return bodies.indices.map { (median(cpu[$0]), median(wall[$0])) }
}
