/// One server-sent event: an optional `event:` name and its joined `data:` lines.
struct ServerSentEvent: Sendable, Hashable {
    var event: String?
    var data: String
}
