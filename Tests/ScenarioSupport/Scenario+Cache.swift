import ModelSession

// Cache breaks: the changes that cost a server its cached prefix, and the changes that do not.
extension Scenario {
    static let chatPrompts = [
        "Plan my morning.", "Add a run before work.", "Move the dentist to the afternoon.",
        "What is left for Friday?", "Summarize the week.", "Anything I forgot?",
    ]

    static func answers(_ count: Int) -> [ScriptedReply] {
        (0..<count).map { .answer("Done: item \($0 + 1) is on the plan, with a time and a place.") }
    }

    /// Asks the chat prompts in order, one turn each, counting turns for the profile.
    static func chat(
        _ r: ScenarioRecording, _ session: LanguageModelSession, turns: Int, counter: TurnCounter
    ) async throws {
        for prompt in chatPrompts.prefix(turns) {
            try await r.ask(session, prompt)
            counter.next()
        }
    }

    static func modelSwitch(_ r: ScenarioRecording) async throws {
        try await switchModel(r, label: "chat", profiles: ("chat", "chat"))
    }

    static func profileSwitch(_ r: ScenarioRecording) async throws {
        try await switchModel(r, label: "planner", profiles: ("quick", "deep"))
    }

    /// Four turns; the last two under the second profile, with another model of the same server.
    static func switchModel(_ r: ScenarioRecording, label: String, profiles: (String, String)) async throws {
        let server = r.server(answers(4))
        let (small, large) = (server.model("scripted-small"), server.model("scripted-large"))
        let turn = TurnCounter()
        let session = LanguageModelSession(label: label, middleware: [r.middleware]) {
            let first = turn.count < 2
            return Profile(first ? profiles.0 : profiles.1) { Instructions("You plan the user's week.") }
                .model(first ? small : large)
        }
        try await chat(r, session, turns: 4, counter: turn)
    }

    static func toolsChanged(_ r: ScenarioRecording) async throws {
        let server = r.server(answers(4))
        let model = server.model()
        let search = searchNotes(r)
        let calendar = r.tool("get_calendar", "The user's calendar for a day.", properties: ["day"]) { _ in
            "free"
        }
        let turn = TurnCounter()
        let session = LanguageModelSession(label: "agent", middleware: [r.middleware]) {
            Profile("agent") { Instructions("You plan the user's week.") }
                .model(model).tools(turn.count == 2 ? [search, calendar] : [search])
        }
        try await chat(r, session, turns: 4, counter: turn)
    }

    static func toolDescriptionChanged(_ r: ScenarioRecording) async throws {
        let server = r.server(answers(4))
        let model = server.model()
        let notes = searchNotes(r)
        let everything = r.tool("search_notes", "Searches the user's notes and files.", properties: ["query"])
        { _ in "" }
        let turn = TurnCounter()
        let session = LanguageModelSession(label: "agent", middleware: [r.middleware]) {
            Profile("agent") { Instructions("You plan the user's week.") }
                .model(model).tools(turn.count < 2 ? [notes] : [everything])
        }
        try await chat(r, session, turns: 4, counter: turn)
    }

    static func instructionsChanged(_ r: ScenarioRecording) async throws {
        let server = r.server(answers(4))
        let model = server.model()
        let turn = TurnCounter()
        let session = LanguageModelSession(label: "assistant", middleware: [r.middleware]) {
            Profile("assistant") {
                Instructions("You plan the user's week.")
                Instructions(turn.count < 2 ? "Today is Monday." : "Today is Tuesday.")
            }.model(model)
        }
        try await chat(r, session, turns: 4, counter: turn)
    }

    static func rollingWindow(_ r: ScenarioRecording) async throws {
        let server = r.server(answers(6))
        let model = server.model()
        let session = LanguageModelSession(
            label: "chat",
            profile: Profile("chat") { Instructions("You plan the user's week.") }
                .model(model).historyTransform { Transcript.lastPrompts(2, of: $0) },
            middleware: [r.middleware])
        try await chat(r, session, turns: 6, counter: TurnCounter())
    }

    static func appendOnlyChat(_ r: ScenarioRecording) async throws {
        let server = r.server([
            .answer("Your morning: gym at 7, standup at 9."),
            .call("search_notes", #"{"query":"dentist"}"#),
            .answer("The dentist is on Thursday at 3."),
            .answer("Friday holds the launch review."),
            .answer("A quiet week with one launch."),
        ])
        let session = r.session(
            "chat", server, tools: [searchNotes(r)], instructions: "You plan the user's week.")
        for prompt in [
            "Plan my morning.", "When is the dentist?", "What is left for Friday?", "Summarize the week.",
        ] {
            try await r.ask(session, prompt)
        }
    }

    static func newSessions(_ r: ScenarioRecording) async throws {
        let setups = [
            ("first", "scripted-small", "You plan the user's week."),
            ("second", "scripted-large", "You write the user's emails."),
            ("third", "scripted-small", "You plan the user's week."),
        ]
        for (label, modelName, instructions) in setups {
            let server = r.server(answers(2))
            let session = LanguageModelSession(
                model: server.model(modelName), label: label, instructions: instructions,
                middleware: [r.middleware])
            try await chat(r, session, turns: 2, counter: TurnCounter())
        }
    }

    static func profileOptionsSwitch(_ r: ScenarioRecording) async throws {
        let server = r.server(answers(4))
        let model = server.model()
        let turn = TurnCounter()
        let session = LanguageModelSession(label: "writer", middleware: [r.middleware]) {
            let draft = turn.count < 2
            return Profile(draft ? "draft" : "final") { Instructions("You write the user's emails.") }
                .model(model).temperature(draft ? 0.9 : 0.1)
        }
        try await chat(r, session, turns: 4, counter: turn)
    }
}

// What caching costs and saves: an Anthropic-style server that reports cache writes, and a server that
// reports no cache figures at all.
extension Scenario {
    static func anthropicCache(_ r: ScenarioRecording) async throws {
        try await threeTurnChat(r, "writer", .anthropic, model: ("anthropic", "claude-sonnet-4-5"))
    }

    static func noCacheFigures(_ r: ScenarioRecording) async throws {
        try await threeTurnChat(r, "helper", .none, model: ("openai", "gpt-4o-mini"))
    }

    /// Three turns of an append-only chat with one model, on a server that reports its cache so.
    static func threeTurnChat(
        _ r: ScenarioRecording, _ label: String, _ reporting: ScriptedServer.CacheReporting,
        model: (provider: String, name: String)
    ) async throws {
        let server = r.server(answers(3), cacheReporting: reporting)
        let session = LanguageModelSession(
            model: server.model(model.name, provider: model.provider), label: label,
            instructions: "You plan the user's week.", middleware: [r.middleware])
        for prompt in chatPrompts.prefix(3) { try await r.ask(session, prompt) }
    }
}

// Prefix busting: a segment of the prompt prefix that changes on every request.
extension Scenario {
    static func timestampInInstructions(_ r: ScenarioRecording) async throws {
        let model = r.server(answers(4)).model()
        let turn = TurnCounter()
        let session = LanguageModelSession(label: "assistant", middleware: [r.middleware]) {
            Profile("assistant") {
                Instructions("You plan the user's week.")
                Instructions("Now: 2026-06-02 09:4\(turn.count):07.")
            }.model(model)
        }
        try await chat(r, session, turns: 4, counter: turn)
    }

    /// The tool's parameters come from an unordered map: their order differs on every request.
    static func reorderedToolSchema(_ r: ScenarioRecording) async throws {
        let model = r.server(answers(4)).model()
        let properties = ["query", "limit", "since"]
        let turn = TurnCounter()
        let session = LanguageModelSession(label: "agent", middleware: [r.middleware]) {
            let shift = turn.count % properties.count
            let search = r.tool(
                "search_notes", "Searches the user's notes.",
                properties: Array(properties[shift...] + properties[..<shift])
            ) { _ in "no notes" }
            return Profile("agent") { Instructions("You plan the user's week.") }.model(model).tools([search])
        }
        try await chat(r, session, turns: 4, counter: turn)
    }
}
