import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What the exit and signal hooks drain: a sink's queue and writer.
protocol Drainable: AnyObject, Sendable {
    /// Writes what is queued, and closes the store when `closing`, waiting until `deadline` at most.
    /// `signalEnds`: a signal ends the process once this returns, so nothing recorded from now on
    /// can be stored or counted in the file; such a record waits for the end instead.
    func drain(closing: Bool, signalEnds: Bool, deadline: DispatchTime)
}

/// The process-wide hooks that write out every registered sink's queue when the process ends
/// without `close()`: at `exit` (and when `main` returns), on SIGTERM and SIGINT, and on a crash.
///
/// A signal handler may do almost nothing (no locks, no allocation), so the handler only writes
/// the signal's number to a pipe and chains at once to the handler installed before it; a thread
/// reading the pipe drains the sinks. When the signal's action was the default (terminate), that
/// thread then closes the sinks, restores the default action and raises the signal again, so the
/// process still ends as the signal says; a signal the process ignored is left alone.
///
/// A crash signal cannot be chained at once: the process would end before the queue is written.
/// Its handler writes the number to the same pipe, then waits (`poll`, async-signal-safe) until
/// that thread has written the queue out, ``crashTimeoutMilliseconds`` at most; then it puts back the action
/// installed before and returns. A fault (a trap, a bad address) happens again at once and takes
/// that action (Swift's backtracer, or the default); a crash signal that was sent (`abort`,
/// `kill`) is raised again. What cannot be written: a crash on the writer's or the draining
/// thread, or while the crashing thread holds the queue's lock, waits out the time-out and writes
/// nothing more; a `kill -9` or a power loss runs no code at all. The writer takes its queue every
/// 10 ms (``StoreSink`` naps that long when idle), so those lose what the last 10 ms recorded,
/// plus the batch being committed.
enum ExitDrain {
    /// How long the hooks wait for the sinks to drain before the process goes on ending.
    static let timeout: DispatchTimeInterval = .seconds(5)
    /// How long a crashing thread waits for the queue to be written before the crash goes on.
    static let crashTimeoutMilliseconds: Int32 = 5_000
    /// The signals that drain the sinks.
    static let signals: [Int32] = [SIGTERM, SIGINT]
    /// The signals of a crash.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    private struct Entry: Sendable {
        let sink: any Drainable
        let triggers: StoreSink.AutomaticDrain
    }

    private static let registry = Mutex<[ObjectIdentifier: Entry]>([:])

    /// Drains `sink` on `triggers` from now on, installing the hooks the first time they are needed.
    static func register(_ sink: any Drainable, on triggers: StoreSink.AutomaticDrain) {
        guard !triggers.isEmpty else { return }
        if triggers.contains(.atExit) { _ = exitHook }
        if triggers.contains(.onSignals) { _ = signalHooks }
        if triggers.contains(.onCrash) { _ = crashHooks }
        registry.withLock { $0[ObjectIdentifier(sink)] = Entry(sink: sink, triggers: triggers) }
    }

    /// Forgets `sink`: it has closed.
    static func unregister(_ sink: any Drainable) {
        _ = registry.withLock { $0.removeValue(forKey: ObjectIdentifier(sink)) }
    }

    /// Drains every sink registered for `trigger`, one after the other, all within ``timeout``.
    ///
    /// May run on a thread a signal interrupted while it held the registry's lock (a handler that
    /// calls `exit`): the lock is then given up on at the deadline instead of waited for forever.
    static func drainAll(
        _ trigger: StoreSink.AutomaticDrain, closing: Bool, signalEnds: Bool = false,
        within limit: DispatchTimeInterval = timeout
    ) {
        let deadline = DispatchTime.now() + limit
        var sinks: [any Drainable]?
        while sinks == nil {
            sinks = registry.withLockIfAvailable { entries in
                entries.values.filter { $0.triggers.contains(trigger) }.map(\.sink)
            }
            if sinks == nil {
                guard DispatchTime.now() < deadline else { return }
                usleep(1_000)
            }
        }
        for sink in sinks ?? [] { sink.drain(closing: closing, signalEnds: signalEnds, deadline: deadline) }
    }

    private static let exitHook: Void = {
        atexit { ExitDrain.drainAll(.atExit, closing: true) }
    }()

    private static let signalHooks: Void = {
        guard watcher else { return }
        for signal in signals { install(handleSignal, for: signal) }
    }()

    private static let crashHooks: Void = {
        guard watcher else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (crashDoneRead, crashDoneWrite) = (ends[0], ends[1])
        for signal in crashSignals { install(handleCrash, for: signal) }
    }()

    /// The pipe the handlers write to, and the thread that reads it; false if no pipe could be made.
    private static let watcher: Bool = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        signalPipeWrite = ends[1]
        let readEnd = ends[0]
        let thread = Thread { watchSignals(readEnd) }
        thread.name = "SessionTrace.StoreSink.signals"
        thread.start()
        return true
    }()

    /// Installs `handler` for `signal`, keeping the action before it to chain to; a signal the
    /// process ignores is left alone.
    private static func install(
        _ handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void,
        for signal: Int32
    ) {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0, !isIgnored(current) else { return }
        previousActions[Int(signal)] = current
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handler
        action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }

    /// The thread that drains the sinks when a handled signal arrives.
    private static func watchSignals(_ pipe: Int32) {
        while true {
            var number: UInt8 = 0
            let count = read(pipe, &number, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return }
            let signal = Int32(number)
            if crashSignals.contains(signal) {
                // Written, not closed: the run stays one that ended without closing.
                drainAll(.onCrash, closing: false, within: .milliseconds(Int(crashTimeoutMilliseconds) * 3 / 4))
                var done: UInt8 = 1
                _ = write(crashDoneWrite, &done, 1)
                continue
            }
            let terminates = isDefault(previousActions[Int(signal)])
            drainAll(.onSignals, closing: terminates, signalEnds: terminates)
            guard terminates else { continue }
            // End as the signal's default action would have ended the process without us.
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, signal)
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
            raise(signal)
        }
    }

    private static func isDefault(_ action: sigaction) -> Bool {
        action.sa_flags & SA_SIGINFO == 0 && action.__sigaction_handler.sa_handler == nil
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        guard action.sa_flags & SA_SIGINFO == 0, let handler = action.__sigaction_handler.sa_handler else {
            return false
        }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

// The signal handler reads these; they are written once, before the handler is installed.

/// Where the signal handler writes the number of the signal it caught.
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1
/// The pipe on which the watching thread tells a crashing thread that the queue is written.
nonisolated(unsafe) private var crashDoneRead: Int32 = -1
nonisolated(unsafe) private var crashDoneWrite: Int32 = -1
/// The action of each handled signal before ``ExitDrain`` installed its own, to chain to.
nonisolated(unsafe) private let previousActions: UnsafeMutablePointer<sigaction> = {
    let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    actions.initialize(repeating: sigaction(), count: 65)
    return actions
}()

/// Tells the watching thread, then runs the handler installed before: async-signal-safe calls only.
private func handleSignal(
    _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
    let saved = errno
    var number = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWrite, &number, 1)
    let previous = previousActions[Int(signal)]
    if previous.sa_flags & SA_SIGINFO != 0 {
        previous.__sigaction_handler.sa_sigaction?(signal, info, context)
    } else if let handler = previous.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) > 1 {
        handler(signal)
    }
    errno = saved
}

/// Asks the watching thread to write the queue out, waits for it (``ExitDrain/crashTimeoutMilliseconds``
/// at most), then lets the crash go on with the action installed before: async-signal-safe calls only.
private func handleCrash(
    _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
    let saved = errno
    var number = UInt8(truncatingIfNeeded: signal)
    if write(signalPipeWrite, &number, 1) == 1 {
        var done = pollfd(fd: crashDoneRead, events: Int16(POLLIN), revents: 0)
        if poll(&done, 1, ExitDrain.crashTimeoutMilliseconds) == 1 {
            var byte: UInt8 = 0
            _ = read(crashDoneRead, &byte, 1)
        }
    }
    var previous = previousActions[Int(signal)]
    sigaction(signal, &previous, nil)
    // A fault happens again when the handler returns; a signal that was sent must be sent again.
    // It stays blocked until the handler returns, and then takes the action put back.
    if let info, info.pointee.si_code <= 0 { raise(signal) }
    errno = saved
}
