/// Filler for the plan session's instructions, so a prompt-bloat regression can be produced on
/// demand (`--bloat N`) and a latency gate shown to catch it. The notes are fictional and fixed,
/// so two runs with the same N send the same prompt.
enum PlannerBloat {
    /// `count` numbered filler notes, one a line; empty for 0.
    static func notes(_ count: Int) -> String {
        guard count > 0 else { return "" }
        let rooms = ["Ada", "Babbage", "Curie", "Dijkstra", "Euler"]
        let lines = (1...count).map { index in
            "Archive note \(index): binder \(index * 7) of the old project files sits on shelf "
                + "\(index % 9 + 1) in room \(rooms[index % rooms.count]); nothing is due for it today."
        }
        return "Archive (ignore unless asked):\n" + lines.joined(separator: "\n")
    }
}
