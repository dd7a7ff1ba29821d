/// The machine's speed around each request of a run: the mean of the server's generation time per
/// token of the request just before it and the request just after it (of those that report one).
///
/// A load that starts or stops within a run slows some of its requests and not others; one speed
/// for the whole run then scales the quiet part by the busy part's speed, or the other way round
/// (`benchmarks/gate-false-alarms.sh --load-changes`). The requests on either side of a request ran
/// under the load it ran under, and only the nearest ones follow a load that changed one request
/// before. The request's own speed is left out: scaling its generation rate by itself would make
/// every rate the reference's, and hide a server that became slower for this request alone.
enum NearbySpeed {
    /// For each request (in the order given), the mean of `perToken` of the nearest requests by
    /// start time that have one, one before and one after (one alone at a run's ends); nil when
    /// no other request has one.
    static func of(perToken: [Double?], starts: [Int64]) -> [Double?] {
        precondition(perToken.count == starts.count)
        let order = starts.indices.sorted { (starts[$0], $0) < (starts[$1], $1) }
        var result = [Double?](repeating: nil, count: perToken.count)
        var previous: Double?
        for index in order {
            result[index] = previous
            if let speed = perToken[index] { previous = speed }
        }
        var next: Double?
        for index in order.reversed() {
            result[index] = switch (result[index], next) {
            case (let before?, let after?): (before + after) / 2
            case (let before, let after): before ?? after
            }
            if let speed = perToken[index] { next = speed }
        }
        return result
    }
}
