import Reproducible
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

extension TTFTSplit {
    /// A time to first token in five parts that add up to it exactly, each measured where it is
    /// known and nil ("not reported") where it is not, never 0 for unknown:
    ///
    /// 1. ``connect``: from `ts` to the request about to be sent: building it, DNS, TCP, TLS
    ///    (the client's phases);
    /// 2. ``queue``: the server's wait before the prompt, where it reports one: its queue (vLLM)
    ///    or loading the model (Ollama);
    /// 3. ``prompt``: the server's prompt processing (llama.cpp `prompt_ms`; vLLM's time to first
    ///    token, which holds the first decode);
    /// 4. ``toFirstByte``: the rest until the response's first byte: sending, the network, the
    ///    server's other work. Without client phases it holds the whole rest, the client included;
    /// 5. ``afterFirstByte``: the rest from the first byte to the first token.
    ///
    /// The server's parts are its last work before the first token, so they are placed at the end
    /// of the wait after the request was sent, clamped to it when the two clocks disagree; what
    /// they leave of that wait is cut at the first byte.
    public struct Parts: Sendable, Hashable {
        public var ttft: Int64
        public var connect: Int64?
        public var queue: Int64?
        public var prompt: Int64?
        public var toFirstByte: Int64
        public var afterFirstByte: Int64?

        /// The parts of `request`'s wait; nil without a time to first token, or with nothing to
        /// split it by (no client phases, no server timings, no queue).
        public init?(_ request: RequestRecord) {
            guard let measured = request.timeToFirstToken,
                request.clientPhases != nil || request.serverTimings != nil || request.serverQueueDuration != nil
            else { return nil }
            let ttft = max(0, measured)
            self.ttft = ttft
            let phases = request.clientPhases
            let sent = phases.map { min(max(0, $0.requestSent), ttft) } ?? 0
            let firstByte = phases.map { min(max(sent, $0.firstByte), ttft) }
            // The server's work ends at the first token: prompt, then queue before it, inside [sent, ttft].
            let promptStart = request.serverTimings.map { max(sent, ttft - max(0, $0.promptDuration)) } ?? ttft
            let queueStart = request.serverQueueDuration.map { max(sent, promptStart - max(0, $0)) } ?? promptStart
            connect = phases == nil ? nil : sent
            prompt = request.serverTimings == nil ? nil : ttft - promptStart
            queue = request.serverQueueDuration == nil ? nil : promptStart - queueStart
            // [sent, queueStart) is not the server's: cut it at the first byte.
            let cut = min(firstByte ?? queueStart, queueStart)
            toFirstByte = cut - sent
            afterFirstByte = firstByte == nil ? nil : queueStart - cut
        }

        /// The parts in the order they happen: the client's connection; the wait that is not the
        /// server's, before and after the first byte; then the server's queue and prompt, which
        /// end the wait.
        public var inTimeOrder: [(key: String, label: String, value: Int64?)] {
            let parts = named
            return [parts[0], parts[3], parts[4], parts[1], parts[2]]
        }

        /// The parts as a JSON object in nanoseconds, `null` for a part not reported.
        public var json: OrderedJSON {
            .object(named.map { ($0.key, $0.value.map(OrderedJSON.int) ?? .null) })
        }

        /// The parts in order, with their names in JSON (`_ns`) and in reports; nil is "not reported".
        public var named: [(key: String, label: String, value: Int64?)] {
            [
                ("connect_ns", "connect (client: DNS, TCP, TLS)", connect),
                ("queue_ns", "server queue or model load", queue),
                ("prompt_ns", "server prompt processing", prompt),
                ("to_first_byte_ns", connect == nil ? "rest (send, network, client)" : "send and wait for the first byte",
                 toFirstByte),
                ("after_first_byte_ns", "first byte to first token", afterFirstByte),
            ]
        }
    }
}
