import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What the exit and signal hooks drain: a sink's queue and writer.
protocol Drainable: AnyObject, Sendable {
    /// Writes what is queued, and closes the store when `closing`, waiting until `deadline` at most.
    func drain(closing: Bool, deadline: DispatchTime)
}

/// The process-wide hooks that write out every registered sink's queue when the process ends
/// without `close()`: at `exit` (and when `main` returns), and on SIGTERM and SIGINT.
///
/// A signal handler may do almost nothing (no locks, no allocation), so the handler only writes
/// the signal's number to a pipe and chains at once to the handler installed before it; a thread
/// reading the pipe drains the sinks. When the signal's action was the default (terminate), that
/// thread then closes the sinks, restores the default action and raises the signal again, so the
/// process still ends as the signal says; a signal the process ignored is left alone.
enum ExitDrain {
    /// How long the hooks wait for the sinks to drain before the process goes on ending.
    static let timeout: DispatchTimeInterval = .seconds(5)
    /// The signals that drain the sinks.
    static let signals: [Int32] = [SIGTERM, SIGINT]

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
    static func drainAll(_ trigger: StoreSink.AutomaticDrain, closing: Bool) {
        let deadline = DispatchTime.now() + timeout
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
        for sink in sinks ?? [] { sink.drain(closing: closing, deadline: deadline) }
    }

    private static let exitHook: Void = {
        atexit { ExitDrain.drainAll(.atExit, closing: true) }
    }()

    private static let signalHooks: Void = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        signalPipeWrite = ends[1]
        let readEnd = ends[0]
        let thread = Thread { watchSignals(readEnd) }
        thread.name = "SessionTrace.StoreSink.signals"
        thread.start()
        for signal in signals {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0, !isIgnored(current) else { continue }
            previousActions[Int(signal)] = current
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = handleSignal
            action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }()

    /// The thread that drains the sinks when a handled signal arrives.
    private static func watchSignals(_ pipe: Int32) {
        while true {
            var number: UInt8 = 0
            let count = read(pipe, &number, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return }
            let signal = Int32(number)
            let terminates = isDefault(previousActions[Int(signal)])
            drainAll(.onSignals, closing: terminates)
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
