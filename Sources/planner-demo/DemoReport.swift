import Foundation
import SessionTrace
import TraceStore

/// The short summary the demo ends with: where the store is, and per request its time to
/// first token, generation rate and cache hit rate, read back from the store itself.
struct DemoReport {
    let storePath: String
    let runID: Int64

    func print() throws {
        let reader = try StoreReader(path: storePath)
        let sessions = Dictionary(try reader.sessions(runID: runID).map { ($0.sessionID, $0.label) },
                                  uniquingKeysWith: { $1 })
        let requests = try reader.requests(runID: runID).sorted { $0.ts < $1.ts }
        let toolCalls = try reader.toolCalls(runID: runID)
        let handoffs = try reader.handoffs(runID: runID)
        Swift.print("store: \(storePath)")
        Swift.print("run \(runID): \(requests.count) requests, \(toolCalls.count) tool calls, \(handoffs.count) handoffs")
        Swift.print(pad("session", 9) + pad("profile", 14) + pad("ttft", 10, right: true) + pad("rate", 12, right: true)
                    + pad("cached/input", 16, right: true) + pad("reused", 8, right: true))
        for request in requests {
            let session = request.sessionID.flatMap { sessions[$0] } ?? "-"
            let ttft = request.timeToFirstToken.map { String(format: "%.1f ms", Double($0) / 1e6) } ?? "-"
            let rate = request.tokensPerSecond.map { String(format: "%.1f tok/s", $0) } ?? "-"
            let cache: String
            if let input = request.inputTokens, let cached = request.cachedInputTokens, input > 0 {
                cache = String(format: "%d/%d %3.0f%%", cached, input, 100 * Double(cached) / Double(input))
            } else {
                cache = "-"
            }
            let line = pad(session, 9) + pad(request.profile, 14) + pad(ttft, 10, right: true)
                + pad(rate, 12, right: true) + pad(cache, 16, right: true)
                + pad("\(request.reusedPrefixEntries)/\(request.transcriptEntries)", 8, right: true)
            Swift.print(request.error == nil ? line : line + "  error: \(request.error!)")
        }
        for handoff in handoffs {
            Swift.print("handoff: \(handoff.kind) \(handoff.from) -> \(handoff.to)")
        }
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text + " " : text + padding
    }
}
