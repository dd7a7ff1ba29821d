/// One server-sent event: an optional `event:` name and its joined `data:` lines.
package struct ServerSentEvent: Sendable, Hashable {
    package var event: String?
    package var data: String
}
