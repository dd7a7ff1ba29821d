// A test helper, not a product: a process that records requests into a StoreSink and then ends
// the way a test asks (exit, returning from main, a signal, a handler of its own), or writes at
// the same moment as other processes. The TraceStore tests run it and read what reached the store.
//
//     store-sink-helper MODE STORE COUNT [--no-drain]
//
//     exit     record COUNT requests, then exit(0) without flush or close
//     return   record COUNT requests, then return from main
//     wait     record COUNT requests, print "ready", then wait for a signal
//     chain    install a SIGTERM handler of its own first; record, print "ready"; exit(7) once
//              that handler has run
//     together print "ready", wait for a line on standard input, record COUNT requests, close,
//              print the sink's drop counts
//     trap     record COUNT requests, then trap (a failed precondition: SIGILL, or SIGTRAP)
//     burst    record from COUNT threads flat out until the process ends; after each record that
//              returned, add one to the 64-bit counter in the file STORE.emitted (shared memory,
//              so it outlives the process); print "ready" once recording
//     paced    record COUNT requests a second from one thread until the process ends, counted
//              in STORE.emitted as in burst

import Foundation
import SessionTrace
import Synchronization
import TraceStore

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: store-sink-helper MODE STORE COUNT [--no-drain]\n".utf8))
    exit(2)
}
let mode = arguments[1]
// Start as a program started from a shell does, with no signal blocked: a test runs this from a
// thread that blocks most signals, and a child inherits its parent thread's mask.
var noSignals = sigset_t()
sigemptyset(&noSignals)
sigprocmask(SIG_SETMASK, &noSignals, nil)
let drain: StoreSink.AutomaticDrain = arguments.contains("--no-drain") ? [] : .all

/// Set by this program's own SIGTERM handler, which StoreSink's hook must chain to.
nonisolated(unsafe) var ownHandlerRan: sig_atomic_t = 0
if mode == "chain" {
    signal(SIGTERM) { _ in ownHandlerRan = 1 }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let sink: StoreSink
do {
    sink = try StoreSink(path: arguments[2], automaticDrain: drain)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
let tracer = Tracer(sink: sink, label: mode, commandLine: "store-sink-helper \(mode)")

func record() {
    for index in 0..<count {
        let request = RequestRecord(
            requestID: tracer.makeID(), ts: tracer.now(), dur: 1_000_000 + Int64(index), profile: "helper",
            provider: "none", model: "none", inputTokens: 10, outputTokens: 2, promptBytes: 40)
        tracer.record(.request(request), kind: .request)
    }
}

switch mode {
case "exit":
    record()
    exit(0)
case "return":
    record()
case "wait":
    record()
    say("ready")
    while true { pause() }
case "chain":
    record()
    say("ready")
    while ownHandlerRan == 0 { usleep(1_000) }
    say("own handler ran")
    exit(7)
case "together":
    say("ready")
    _ = readLine()
    record()
    sink.close()
    say("dropped: \(sink.droppedCounts.sorted { $0.key < $1.key })")
case "trap":
    record()
    preconditionFailure("the trap a test asked for")
case "burst":
    let emitted = sharedCounter(arguments[2] + ".emitted")
    for _ in 0..<count {
        Thread {
            while true { emitted.record(through: tracer) }
        }.start()
    }
    usleep(100_000)
    say("ready")
    while true { pause() }
case "paced":
    let emitted = sharedCounter(arguments[2] + ".emitted")
    let interval = 1_000_000_000 / Int64(max(1, count))
    var next = DispatchTime.now().uptimeNanoseconds
    say("ready")
    while true {
        emitted.record(through: tracer)
        next += UInt64(interval)
        let now = DispatchTime.now().uptimeNanoseconds
        if next > now { usleep(UInt32((next - now) / 1_000)) }
    }
default:
    FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8))
    exit(2)
}

/// A counter in a file, mapped shared: what it holds when the process is killed stays in the file.
func sharedCounter(_ path: String) -> SharedCounter {
    let descriptor = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
    guard descriptor >= 0, ftruncate(descriptor, 8) == 0,
        let memory = mmap(nil, 8, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), memory != MAP_FAILED
    else {
        FileHandle.standardError.write(Data("cannot map \(path)\n".utf8))
        exit(2)
    }
    return SharedCounter(pointer: memory.bindMemory(to: Atomic<Int64>.self, capacity: 1))
}

/// An atomic 64-bit integer in shared memory.
struct SharedCounter: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Atomic<Int64>>

    /// Records one request through `tracer`, then counts it: only a `record` call that returned
    /// is counted.
    func record(through tracer: Tracer) {
        let request = RequestRecord(
            requestID: tracer.makeID(), ts: tracer.now(), dur: 1_000, profile: "counted", provider: "none",
            model: "none", promptBytes: 1)
        tracer.record(.request(request), kind: .request)
        pointer.pointee.add(1, ordering: .relaxed)
    }
}
