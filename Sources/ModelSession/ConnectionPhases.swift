/// When each phase of one HTTP exchange ended, counted from the start of the transfer, as the
/// transport measured them (libcurl's `NAMELOOKUP`, `CONNECT`, `APPCONNECT`, `PRETRANSFER` and
/// `STARTTRANSFER` times). Sent at the first byte of the response: its receiver reads the
/// transfer's start as "now minus ``firstByte``".
public struct ConnectionPhases: Sendable, Hashable {
    /// The server's name resolved.
    public var nameResolved: Duration
    /// The TCP connection made; the same as ``nameResolved`` on a reused connection.
    public var connected: Duration
    /// The TLS handshake done; nil without TLS.
    public var tlsDone: Duration?
    /// The request about to be sent on a ready connection.
    public var requestSent: Duration
    /// The first byte of the response arrived.
    public var firstByte: Duration

    public init(
        nameResolved: Duration, connected: Duration, tlsDone: Duration?, requestSent: Duration, firstByte: Duration
    ) {
        self.nameResolved = nameResolved
        self.connected = connected
        self.tlsDone = tlsDone
        self.requestSent = requestSent
        self.firstByte = firstByte
    }
}
