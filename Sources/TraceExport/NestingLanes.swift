/// Assigns slices to lanes (threads) so that slices on one lane either follow each other or nest
/// whole, which is what trace viewers require of complete events on one thread.
///
/// Slices must be placed in order of start, longer first at equal starts. A slice goes on the
/// first lane where it starts after the open slices end, or fits inside the innermost open slice
/// that accepts children; otherwise a new lane opens. Requests and tool calls that overlap (a
/// store written by concurrent code) so land on a second lane instead of breaking the first.
struct NestingLanes {
    private var lanes: [[(end: Int64, acceptsChildren: Bool)]] = []

    /// The lane, from 0, for a slice from `start` to `end`.
    mutating func place(start: Int64, end: Int64, acceptsChildren: Bool) -> Int {
        for index in lanes.indices {
            while let top = lanes[index].last, top.end <= start { lanes[index].removeLast() }
            if let top = lanes[index].last, !(top.acceptsChildren && top.end >= end) { continue }
            lanes[index].append((end, acceptsChildren))
            return index
        }
        lanes.append([(end, acceptsChildren)])
        return lanes.count - 1
    }
}
