import SessionTrace

/// Where a request's time to first token went, when its server reported its own timings: the
/// server's prompt processing, which grows with the uncached input tokens, and the rest, which is
/// queueing at the server, sending the request, the network and the client.
///
/// The server processes the prompt just before it samples the first token, so the prompt part
/// is the end of the wait and the rest is its start. A server that reports more prompt time
/// than the client waited in all (the two clocks disagree) has it clamped to the wait: the rest
/// is then 0, never negative. A request whose server reported no timings has no split; nothing
/// is guessed for it.
public struct TTFTSplit: Sendable, Hashable {
    /// The client-measured time to first token, in nanoseconds.
    public var ttft: Int64
    /// The server's prompt processing within it, in nanoseconds.
    public var prompt: Int64
    /// The rest of the wait, `ttft - prompt`: queueing, network and the client.
    public var rest: Int64 { ttft - prompt }

    /// The split of a time to first token and the server's prompt processing time.
    public init(ttft: Int64, serverPromptDuration: Int64) {
        self.ttft = max(0, ttft)
        prompt = min(max(0, serverPromptDuration), self.ttft)
    }

    /// The split as drawn in a wait of `wait` nanoseconds (a bar cut at the request's end): the
    /// prompt keeps its place at the end of the wait, clamped to it.
    public func drawn(in wait: Int64) -> TTFTSplit {
        TTFTSplit(ttft: min(ttft, wait), serverPromptDuration: prompt)
    }

    /// The split of `request`; nil when it has no time to first token or no server timings.
    public init?(_ request: RequestRecord) {
        guard let ttft = request.timeToFirstToken, let timings = request.serverTimings else { return nil }
        self.init(ttft: ttft, serverPromptDuration: timings.promptDuration)
    }
}
