import CCurl
import Foundation
import Synchronization

/// Runs the HTTP transfers of the process on one thread, through one libcurl multi handle.
///
/// The thread sleeps in `curl_multi_poll` until a socket is ready, a transfer's idle timeout
/// is due, or a transfer is submitted or cancelled (`curl_multi_wakeup`): nothing spins while
/// a model thinks. Connections stay in the multi handle's cache for the next request to the
/// same server.
final class CurlTransport: Sendable {
    /// The process's transport; its thread starts with the first request. Nil when libcurl could
    /// not start (out of memory): every request then fails with that error, and nothing traps.
    static let shared = CurlTransport()

    private struct Inbox {
        var submitted: [EventStreamTransfer] = []
        var cancelled: [EventStreamTransfer] = []
    }
    private let inbox = Mutex(Inbox())
    /// Used by the transport's thread alone, except for `curl_multi_wakeup`, which libcurl
    /// documents as callable from any thread.
    private nonisolated(unsafe) let multi: UnsafeMutableRawPointer

    private init?() {
        guard ccurl_global_init() == CURLE_OK, let multi = curl_multi_init() else { return nil }
        self.multi = multi
        Thread.detachNewThread { [self] in
            Thread.current.name = "CurlTransport"
            run()
        }
    }

    /// Starts `transfer`; its events and its end reach the transfer's stream.
    func submit(_ transfer: EventStreamTransfer) {
        inbox.withLock { $0.submitted.append(transfer) }
        curl_multi_wakeup(multi)
    }

    /// Stops `transfer` at once, whether it is waiting to connect, connected or done.
    func cancel(_ transfer: EventStreamTransfer) {
        transfer.markCancelled()
        inbox.withLock { $0.cancelled.append(transfer) }
        curl_multi_wakeup(multi)
    }

    private func run() -> Never {
        var active: [UnsafeMutableRawPointer: EventStreamTransfer] = [:]
        func remove(_ transfer: EventStreamTransfer) {
            active[transfer.easy] = nil
            curl_multi_remove_handle(multi, transfer.easy)
        }
        while true {
            let (submitted, cancelled) = inbox.withLock { inbox in
                defer { inbox = Inbox() }
                return (inbox.submitted, inbox.cancelled)
            }
            for transfer in submitted {
                if transfer.isCancelled {
                    transfer.finish(throwing: CancellationError())
                } else if curl_multi_add_handle(multi, transfer.easy) == CURLM_OK {
                    active[transfer.easy] = transfer
                } else {
                    transfer.finish(throwing: transfer.error(for: CURLE_FAILED_INIT))
                }
            }
            for transfer in cancelled where active[transfer.easy] === transfer {
                remove(transfer)
                transfer.finish(throwing: CancellationError())
            }

            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var easy: UnsafeMutableRawPointer?
            var result = CURLE_OK
            while ccurl_multi_next_done(multi, &easy, &result) == 1 {
                guard let done = easy, let transfer = active[done] else { continue }
                remove(transfer)
                transfer.complete(result)
            }

            let now = ContinuousClock.now
            var wait = Duration.seconds(60)
            for transfer in Array(active.values) {
                let idle = transfer.lastActivity + transfer.timeout
                let end = transfer.started + transfer.deadline
                if end <= now {
                    remove(transfer)
                    transfer.finish(
                        throwing: HTTPEndpoint.Error.deadlineExceeded(url: transfer.url, after: transfer.deadline))
                } else if idle <= now {
                    remove(transfer)
                    transfer.finish(
                        throwing: HTTPEndpoint.Error.timedOut(url: transfer.url, after: transfer.timeout))
                } else {
                    wait = min(wait, idle - now, end - now)
                }
            }
            curl_multi_poll(multi, nil, 0, Int32((wait / .milliseconds(1)).rounded(.up)), nil)
        }
    }
}
