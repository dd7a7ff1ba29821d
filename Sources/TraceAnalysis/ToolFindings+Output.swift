import Reproducible
import TraceModel

extension ToolFindings {

    public var json: OrderedJSON { .object(jsonMembers) }

    /// The members of ``json``, for a report that adds its own.
    public var jsonMembers: [(String, OrderedJSON)] {
        [
            ("store", .string(path)),
            ("tool_calls", .int(Int64(toolCallCount))),
            ("tool_calls_with_arguments", .int(Int64(callsWithArguments))),
            ("tool_calls_comparable", .int(Int64(callsComparable))),
            ("near_identical_checked", .bool(callsComparable > 0)),
            ("turns_inferred", .bool(inferredTurns)),
            ("loop_threshold", .int(Int64(options.loopThreshold))),
            ("similarity_threshold", .double(options.similarityThreshold)),
            ("cost_ns", .int(cost)),
            ("findings", .array(findings.map(\.json))),
        ]
    }
}

extension ToolFindings.Finding {
    /// One line on what was repeated.
    public var headline: String {
        let tool = TerminalText.fitted(tool, width: 60)
        let times = "\(calls.count) times"
        let rounds = requestIDs.count == 1 ? "in one request" : "over \(requestIDs.count) rounds"
        switch kind {
        case .identicalArguments:
            let spread = turnCount > 1 ? " across \(turnCount) turns" : ""
            return "identical arguments: \(tool) called \(times) with the same arguments\(spread)"
        case .nearIdenticalArguments:
            let score = similarity.map { " (similarity ≥ \(Format.fixed($0, 2)))" } ?? ""
            let spread = turnCount > 1 ? " across \(turnCount) turns" : ""
            return "near-identical arguments: \(tool) called \(times) with similar arguments\(score)\(spread)"
        case .loop where pattern.count > 1:
            let cycles = Double(calls.count) / Double(pattern.count)
            let times = cycles == cycles.rounded() ? String(Int(cycles)) : Format.fixed(cycles, 1)
            return "loop: \(tool) made \(times) times in one turn, \(rounds)" + resultsPhrase
        case .loop:
            let same =
                Set(calls.map(\.record.argumentsFingerprint)).count == 1 ? "the same" : "near-identical"
            return "loop: \(tool) called \(times) with \(same) arguments in one turn, \(rounds)" + resultsPhrase
        case .polling:
            return "polling: \(tool) called \(times) with the same arguments in one turn, \(rounds), "
                + "new results each time"
        }
    }

    /// What the repeats' results say, for a loop: the evidence that it was stuck.
    var resultsPhrase: String {
        let repeats = results.same + results.overlapping + results.new + results.unknown
        if results.same == repeats { return ", the same results each time" }
        var parts: [String] = []
        if results.same > 0 { parts.append("\(results.same) of \(repeats) repeats returned the same results") }
        if results.overlapping > 0, let least = results.leastSimilarity {
            parts.append("results overlap (similarity ≥ \(Format.fixed(least, 2)))")
        }
        return parts.isEmpty ? "" : ", " + parts.joined(separator: ", ")
    }

    /// The repeats' cost, for people.
    package var costText: String {
        var text =
            "\(repeatIDs.count) repeat" + (repeatIDs.count == 1 ? "" : "s")
            + " took \(Format.duration(toolTime)) of tool time"
        if !extraRounds.isEmpty {
            text +=
                "; \(extraRounds.count) extra round" + (extraRounds.count == 1 ? "" : "s")
                + " took \(Format.duration(extraRoundTime))"
            if let tokens = extraRoundTokens { text += " and \(Format.count(tokens)) tokens" }
        }
        return text
    }

    public var json: OrderedJSON {
        .object([
            ("kind", .string(kind.rawValue)),
            ("run_id", .id(runID)),
            ("session_id", .id(sessionID)),
            ("session", .string(sessionLabel)),
            ("tool", .string(tool)),
            ("pattern", .array(pattern.map { .string($0) })),
            ("turn_index", .int(turnIndex.map(Int64.init))),
            ("turn_id", .id(turnID)),
            ("turns", .int(Int64(turnCount))),
            ("request_ids", .array(requestIDs.map { .id($0) })),
            ("repeat_tool_call_ids", .array(repeatIDs.map { .id($0) })),
            ("extra_round_request_ids", .array(extraRounds.map { .id($0.requestID) })),
            ("cost_ns", .int(cost)),
            ("tool_time_ns", .int(toolTime)),
            ("extra_rounds", .int(Int64(extraRounds.count))),
            ("extra_round_time_ns", .int(extraRoundTime)),
            ("extra_round_tokens", .int(extraRoundTokens)),
            ("similarity", .double(similarity)),
            (
                "results",
                .object([
                    ("same", .int(Int64(results.same))), ("overlapping", .int(Int64(results.overlapping))),
                    ("new", .int(Int64(results.new))), ("unknown", .int(Int64(results.unknown))),
                    ("least_similarity", .double(results.leastSimilarity)),
                ])
            ),
            (
                "calls",
                .array(
                    calls.map { call in
                        .object([
                            ("tool_call_id", .id(call.record.toolCallID)),
                            ("name", .string(call.record.name)),
                            ("request_id", .id(call.record.requestID)),
                            ("ts", .int(call.record.ts)),
                            ("dur_ns", .int(call.record.dur)),
                            ("outcome", .string(call.record.outcome.rawValue)),
                            ("arguments_fingerprint", .string(call.record.argumentsFingerprint)),
                            ("output_fingerprint", .string(call.record.outputFingerprint)),
                            ("arguments", .string(call.arguments)),
                        ])
                    })
            ),
        ])
    }
}
