import CCurl
import Synchronization

/// libcurl handles kept from one request to the next. A handle keeps its connections, so a
/// request to an upstream that keeps connections open reuses one (no new TCP or TLS handshake for
/// it, no new connection for the upstream to accept), and no handle is made per request.
///
/// A handle is used by one connection's thread at a time: taken at the start of a transfer, and
/// given back at its end with its options reset (`curl_easy_reset` keeps live connections).
final class UpstreamHandlePool: Sendable {
    /// An easy handle and the multi handle that drives it; the connections live in the multi.
    struct Handles: @unchecked Sendable {
        let easy: UnsafeMutableRawPointer
        let multi: UnsafeMutableRawPointer
    }

    /// Idle handles kept at most; more are cleaned up, so a burst leaves no more open sockets.
    static let maximumIdle = 16
    static let shared = UpstreamHandlePool()

    private let idle = Mutex<[Handles]>([])

    /// An idle pair with its options reset, or a new one; nil when libcurl cannot make one.
    func take() -> Handles? {
        if let handles = idle.withLock({ $0.popLast() }) {
            curl_easy_reset(handles.easy)
            return handles
        }
        guard let easy = curl_easy_init() else { return nil }
        guard let multi = curl_multi_init() else {
            curl_easy_cleanup(easy)
            return nil
        }
        return Handles(easy: easy, multi: multi)
    }

    /// Takes back a pair whose transfer ended (a transfer cut short closes its connection).
    func giveBack(_ handles: Handles) {
        curl_multi_remove_handle(handles.multi, handles.easy)
        let kept = idle.withLock { idle in
            guard idle.count < Self.maximumIdle else { return false }
            idle.append(handles)
            return true
        }
        guard !kept else { return }
        curl_easy_cleanup(handles.easy)
        curl_multi_cleanup(handles.multi)
    }
}
