import SessionTrace

/// One user turn of a session: the request a `respond` or `streamResponse` call sent, and the
/// tool rounds it drove, each round its own request.
///
/// Loops, retries and budgets are judged per turn. Stores of schema 2 record each request's
/// `turn_id`; for older stores the turns are inferred: a request that ended asking for tools
/// (finish reason `tool_calls`, `tool_use` or `function_call`), or that has tool calls under it,
/// is followed by a request of the same turn; any other request ends its turn.
package struct Turn: Sendable, Hashable {
    package var runID: Int64
    package var sessionID: Int64?
    /// The turn's position in its session, from 0.
    package var index: Int
    /// The recorded `turn_id`; nil when the turn was inferred.
    package var turnID: Int64?
    /// The turn's rounds, by start time.
    package var requests: [RequestRecord]

    /// True when the turn comes from finish reasons, not from a recorded `turn_id`.
    package var isInferred: Bool { turnID == nil }
}

/// The turns of a run, by session.
package struct RunTurns: Sendable {
    /// Every turn of the run, session by session, each session's in order.
    package var turns: [Turn]
    /// Where each request is: its turn's position in ``turns``, and its round in that turn.
    private var place: [Int64: Place]

    private struct Place {
        var turn: Int
        var round: Int
    }

    /// Groups the requests of every session of `run` into turns.
    package init(_ run: RecordedRun) {
        var turns: [Turn] = []
        let bySession = run.requestsBySession()
        let sessions = bySession.keys.sorted { (lhs: Int64?, rhs: Int64?) in
            (bySession[lhs]![0].ts, lhs ?? -1) < (bySession[rhs]![0].ts, rhs ?? -1)
        }
        for sessionID in sessions {
            var current: [RequestRecord] = []
            var index = 0
            func close() {
                guard !current.isEmpty else { return }
                turns.append(
                    Turn(
                        runID: run.run.runID, sessionID: sessionID, index: index, turnID: current[0].turnID,
                        requests: current))
                index += 1
                current = []
            }
            for request in bySession[sessionID]! {
                if let last = current.last {
                    let sameTurn: Bool
                    if let turn = request.turnID, let previous = last.turnID {
                        sameTurn = turn == previous
                    } else {
                        sameTurn = Self.asksForTools(
                            last, calls: run.toolCallsByRequest[last.requestID]?.count ?? 0)
                    }
                    if !sameTurn { close() }
                }
                current.append(request)
            }
            close()
        }
        self.turns = turns
        var place: [Int64: Place] = [:]
        place.reserveCapacity(run.requests.count)
        for (position, turn) in turns.enumerated() {
            for (round, request) in turn.requests.enumerated() {
                place[request.requestID] = Place(turn: position, round: round)
            }
        }
        self.place = place
    }

    /// The turn a request belongs to.
    package func turn(of requestID: Int64?) -> Turn? {
        position(of: requestID).map { turns[$0] }
    }

    /// The position in ``turns`` of the turn a request belongs to.
    package func position(of requestID: Int64?) -> Int? {
        guard let requestID else { return nil }
        return place[requestID]?.turn
    }

    /// The request with `id`, if the run has it.
    package func request(_ id: Int64) -> RequestRecord? {
        guard let place = place[id] else { return nil }
        return turns[place.turn].requests[place.round]
    }

    /// The request's round in its turn, from 0.
    package func round(of requestID: Int64?) -> Int? {
        guard let requestID else { return nil }
        return place[requestID]?.round
    }

    /// Finish reasons with which a model asks for tools: OpenAI's, Anthropic's and the older
    /// OpenAI function-calling one.
    package static let toolFinishReasons: Set<String> = ["tool_calls", "tool_use", "function_call"]

    /// Whether `request` handed over to tools, so the next request of its session continues its turn.
    package static func asksForTools(_ request: RequestRecord, calls: Int) -> Bool {
        if calls > 0 { return true }
        guard let reason = request.finishReason?.lowercased() else { return false }
        return toolFinishReasons.contains(reason)
    }
}
