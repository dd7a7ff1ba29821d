import TraceScenarios

/// What each scenario store must hold and yield, written out here by hand and not taken from the
/// generator in `Tests/ScenarioSupport`: a change to a scenario's script or to an analysis fails
/// ``ScenarioTests`` until this file is changed too, on purpose.
extension Scenario {
    /// How many sessions, requests, tool calls and handoffs the store records.
    struct Shape: Equatable, CustomStringConvertible {
        var sessions: Int
        var requests: Int
        var toolCalls: Int
        var handoffs: Int

        var description: String {
            "\(sessions) sessions, \(requests) requests, \(toolCalls) tool calls, \(handoffs) handoffs"
        }
    }

    var expectedShape: Shape {
        switch self {
        case .roundLoop: Shape(sessions: 1, requests: 4, toolCalls: 3, handoffs: 0)
        case .identicalRetry: Shape(sessions: 2, requests: 5, toolCalls: 3, handoffs: 0)
        case .alternation: Shape(sessions: 1, requests: 5, toolCalls: 4, handoffs: 0)
        case .toolLoop: Shape(sessions: 2, requests: 4, toolCalls: 4, handoffs: 0)
        case .repeatAcrossTurns: Shape(sessions: 1, requests: 5, toolCalls: 2, handoffs: 0)
        case .recurringLoop: Shape(sessions: 1, requests: 8, toolCalls: 6, handoffs: 0)
        case .loopWithoutPayloads: Shape(sessions: 2, requests: 7, toolCalls: 7, handoffs: 0)
        case .fanOut: Shape(sessions: 2, requests: 4, toolCalls: 6, handoffs: 0)
        case .fanOutOverRounds: Shape(sessions: 2, requests: 8, toolCalls: 6, handoffs: 0)
        case .pagination: Shape(sessions: 3, requests: 12, toolCalls: 9, handoffs: 0)
        case .distinctTopics: Shape(sessions: 1, requests: 4, toolCalls: 3, handoffs: 0)
        case .rephrasedLoopWithoutPayloads: Shape(sessions: 3, requests: 10, toolCalls: 9, handoffs: 0)
        case .addedFilter: Shape(sessions: 2, requests: 6, toolCalls: 6, handoffs: 0)
        case .stuckLoop: Shape(sessions: 1, requests: 4, toolCalls: 3, handoffs: 0)
        case .refinedSearches: Shape(sessions: 1, requests: 4, toolCalls: 3, handoffs: 0)
        case .polling: Shape(sessions: 1, requests: 5, toolCalls: 4, handoffs: 0)
        case .retriesAfterErrors: Shape(sessions: 1, requests: 4, toolCalls: 3, handoffs: 0)
        case .pollingWithRepeats: Shape(sessions: 1, requests: 5, toolCalls: 4, handoffs: 0)
        case .stuckWithEchoedIDs: Shape(sessions: 1, requests: 4, toolCalls: 3, handoffs: 0)
        case .modelSwitch: Shape(sessions: 1, requests: 4, toolCalls: 0, handoffs: 1)
        case .profileSwitch: Shape(sessions: 1, requests: 4, toolCalls: 0, handoffs: 2)
        case .toolsChanged: Shape(sessions: 1, requests: 4, toolCalls: 0, handoffs: 2)
        case .toolDescriptionChanged: Shape(sessions: 1, requests: 4, toolCalls: 0, handoffs: 1)
        case .instructionsChanged: Shape(sessions: 1, requests: 4, toolCalls: 0, handoffs: 1)
        case .rollingWindow: Shape(sessions: 1, requests: 6, toolCalls: 0, handoffs: 0)
        case .appendOnlyChat: Shape(sessions: 1, requests: 5, toolCalls: 1, handoffs: 0)
        case .newSessions: Shape(sessions: 3, requests: 6, toolCalls: 0, handoffs: 0)
        case .profileOptionsSwitch: Shape(sessions: 1, requests: 4, toolCalls: 0, handoffs: 1)
        case .anthropicCache: Shape(sessions: 1, requests: 3, toolCalls: 0, handoffs: 0)
        case .timestampInInstructions: Shape(sessions: 1, requests: 4, toolCalls: 0, handoffs: 3)
        case .reorderedToolSchema: Shape(sessions: 1, requests: 4, toolCalls: 0, handoffs: 3)
        case .noCacheFigures: Shape(sessions: 1, requests: 3, toolCalls: 0, handoffs: 0)
        case .cappedAnswers: Shape(sessions: 2, requests: 6, toolCalls: 0, handoffs: 0)
        case .oversizedOutput: Shape(sessions: 2, requests: 4, toolCalls: 2, handoffs: 0)
        case .smallShares: Shape(sessions: 2, requests: 4, toolCalls: 5, handoffs: 0)
        case .smallFileRead: Shape(sessions: 1, requests: 2, toolCalls: 1, handoffs: 0)
        case .promptBloat: Shape(sessions: 1, requests: 11, toolCalls: 10, handoffs: 0)
        case .queuedRequest: Shape(sessions: 1, requests: 5, toolCalls: 0, handoffs: 0)
        }
    }

    /// Exactly the findings `trace-report check` must give on the store.
    var expectedFindings: [ExpectedFinding] {
        switch self {
        case .roundLoop:
            [
                .loop("researcher", requests: [0, 1, 2], calls: [0, 1, 2], "search_notes"),
                .nearIdentical("researcher", requests: [0, 1, 2], calls: [0, 1, 2], "search_notes"),
            ]
        case .identicalRetry:
            [.identical("support", requests: [0, 1], calls: [0, 1], "get_order")]
        case .alternation:
            [
                .loop("triage", requests: [0, 1, 2, 3], calls: [0, 1, 2, 3], "search_tickets → get_ticket"),
                .identical("triage", requests: [0, 2], calls: [0, 2], "search_tickets"),
                .identical("triage", requests: [1, 3], calls: [1, 3], "get_ticket"),
            ]
        case .toolLoop:
            [
                .loop("planner", requests: [0], calls: [0, 1, 2], "search_notes"),
                .nearIdentical("planner", requests: [0], calls: [0, 1, 2], "search_notes"),
            ]
        case .repeatAcrossTurns:
            [.identical("assistant", requests: [0, 3], calls: [0, 1], "get_weather")]
        case .recurringLoop:
            [
                .loop("deployer", requests: [0, 1, 2], calls: [0, 1, 2], "check_deploy"),
                .loop("deployer", requests: [4, 5, 6], calls: [3, 4, 5], "check_deploy"),
                .identical(
                    "deployer", requests: [0, 1, 2, 4, 5, 6], calls: [0, 1, 2, 3, 4, 5], "check_deploy"),
            ]
        case .loopWithoutPayloads:
            [
                .loop("poller", requests: [0, 1, 2, 3], calls: [0, 1, 2, 3], "check_job"),
                .identical("poller", requests: [0, 1, 2, 3], calls: [0, 1, 2, 3], "check_job"),
            ]
        case .stuckLoop:
            [
                .loop("searcher", requests: [0, 1, 2], calls: [0, 1, 2], "search_notes"),
                .nearIdentical("searcher", requests: [0, 1, 2], calls: [0, 1, 2], "search_notes"),
            ]
        case .polling:
            [.polling("watcher", requests: [0, 1, 2, 3], calls: [0, 1, 2, 3], "check_job")]
        case .pollingWithRepeats:
            [.polling("watcher", requests: [0, 1, 2, 3], calls: [0, 1, 2, 3], "check_job")]
        case .stuckWithEchoedIDs:
            [
                .loop("operator", requests: [0, 1, 2], calls: [0, 1, 2], "check_deploy"),
                .identical("operator", requests: [0, 1, 2], calls: [0, 1, 2], "check_deploy"),
            ]
        case .rephrasedLoopWithoutPayloads:
            [
                .loop("searcher", requests: [0, 1, 2], calls: [0, 1, 2], "search_notes"),
                .nearIdentical("searcher", requests: [0, 1, 2], calls: [0, 1, 2], "search_notes"),
            ]
        case .addedFilter:
            [
                .loop("analyst", requests: [0, 1, 2], calls: [0, 1, 2], "search_reports"),
                .nearIdentical("analyst", requests: [0, 1, 2], calls: [0, 1, 2], "search_reports"),
            ]
        case .timestampInInstructions:
            [.chronic("assistant", requests: [1, 2, 3], "instructions_changed timestamp")]
        case .reorderedToolSchema:
            [.chronic("agent", requests: [1, 2, 3], "tools_changed reordered_json")]
        case .modelSwitch:
            [.cacheBreak("chat", request: 2, "model_switch")]
        case .profileSwitch:
            [.cacheBreak("planner", request: 2, "model_switch+profile_switch")]
        case .toolsChanged:
            [
                .cacheBreak("agent", request: 2, "tools_changed"),
                .cacheBreak("agent", request: 3, "tools_changed"),
            ]
        case .toolDescriptionChanged:
            [.cacheBreak("agent", request: 2, "tools_changed")]
        case .instructionsChanged:
            [.cacheBreak("assistant", request: 2, "instructions_changed")]
        case .rollingWindow:
            [
                .cacheBreak("chat", request: 2, "history_transform"),
                .cacheBreak("chat", request: 3, "history_transform"),
                .cacheBreak("chat", request: 4, "history_transform"),
                .cacheBreak("chat", request: 5, "history_transform"),
            ]
        case .cappedAnswers:
            [.capped("brief", requests: [0, 2], cap: 12)]
        case .oversizedOutput:
            [.oversized("reader", requests: [0, 1], call: 0, "fetch_page")]
        case .promptBloat:
            [.growth("researcher", requests: [10])]
        case .queuedRequest:
            [.unexplainedTTFT("assistant", requests: [2])]
        case .fanOut, .fanOutOverRounds, .pagination, .distinctTopics, .appendOnlyChat, .newSessions,
            .profileOptionsSwitch, .smallShares, .smallFileRead, .refinedSearches, .retriesAfterErrors,
            .anthropicCache, .noCacheFigures:
            []
        }
    }
}
