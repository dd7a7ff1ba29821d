import ModelSession

// Capped answers, oversized tool output, prompt growth and slow first tokens.
extension Scenario {
    static let longAnswer =
        "Monday: standup at nine, design review at eleven, lunch with Sam, focus block until four, "
        + "then the gym. Tuesday: launch prep all morning and errands after three."

    static func cappedAnswers(_ r: ScenarioRecording) async throws {
        for (label, cap) in [("brief", 12), ("roomy", 200)] {
            let server = r.server([
                .answer(longAnswer), .answer("Done, it is on Friday."), .answer(longAnswer),
            ])
            let model = server.model()
            let session = LanguageModelSession(
                label: label,
                profile: Profile(label) { Instructions("You plan the user's week.") }.model(model)
                    .maximumResponseTokens(cap),
                middleware: [r.middleware])
            for prompt in ["Plan my week.", "Move the review to Friday.", "Plan next week the same way."] {
                try await r.ask(session, prompt)
            }
        }
    }

    /// `count` bytes of made-up page text.
    static func page(bytes count: Int, word: String = "paragraph") -> String {
        var text = ""
        var index = 0
        while text.utf8.count < count {
            text += "\(word)\(index % 10) "
            index += 1
        }
        return String(text.prefix(count))
    }

    static func oversizedOutput(_ r: ScenarioRecording) async throws {
        let fetch = r.tool("fetch_page", "Fetches a web page as text.", properties: ["url"]) { _ in
            page(bytes: 12_000)
        }
        let reader = r.server([
            .call("fetch_page", #"{"url":"https://example.com/handbook"}"#),
            .answer("The handbook asks for two weeks' notice before leave."),
        ])
        try await r.ask(
            r.session("reader", reader, tools: [fetch], instructions: "You answer from web pages."),
            "How much notice does the handbook ask for leave?")
        let define = r.tool("define", "Defines a word.", properties: ["word"]) { _ in
            "a store of things kept near"
        }
        let lookup = r.server([.call("define", #"{"word":"cache"}"#), .answer("A cache keeps things near.")])
        try await r.ask(
            r.session("lookup", lookup, tools: [define], instructions: "You define words."),
            "What is a cache?")
    }

    /// A 2.5 KB file read into a short prompt: most of the prompt, and still nothing to act on.
    static func smallFileRead(_ r: ScenarioRecording) async throws {
        let read = r.tool("read_file", "Reads a text file.", properties: ["path"]) { _ in
            page(bytes: 2_500, word: "setting")
        }
        let editor = r.server([
            .call("read_file", #"{"path":"config/app.toml"}"#),
            .answer("The config sets the port to 8080."),
        ])
        try await r.ask(
            r.session("editor", editor, tools: [read], instructions: "You help with config files."),
            "What port does the app use?")
    }

    static func smallShares(_ r: ScenarioRecording) async throws {
        let fetch = r.tool("fetch_page", "Fetches a web page as text.", properties: ["url"]) { _ in
            page(bytes: 6_000, word: "sentence")
        }
        let analyst = r.server([
            .call("fetch_page", #"{"url":"https://example.com/report"}"#),
            .answer("Revenue grew in the report."),
        ])
        let guide = "You analyse reports against this style guide: " + page(bytes: 24_000, word: "guideline")
        try await r.ask(
            r.session("analyst", analyst, tools: [fetch], instructions: guide),
            "What does the report say about revenue?")
        let snippet = r.tool("get_snippet", "A snippet of a document.", properties: ["document"]) { _ in
            page(bytes: 1_500, word: "line")
        }
        let gatherer = r.server([
            .calls(["alpha", "beta", "gamma", "delta"].map { ("get_snippet", #"{"document":"\#($0)"}"#) }),
            .answer("The four documents agree."),
        ])
        try await r.ask(
            r.session("gatherer", gatherer, tools: [snippet], instructions: "You compare documents."),
            "Do the four documents agree?")
    }

    static func promptBloat(_ r: ScenarioRecording) async throws {
        let topics = [
            "solar", "heat pumps", "batteries", "wind", "district heating", "tariffs", "insulation",
            "smart meters", "geothermal", "hydro",
        ]
        let fetch = r.tool("fetch_page", "Fetches a page about a topic.", properties: ["topic"]) { _ in
            page(bytes: 1_900, word: "w")
        }
        let server = r.server(
            topics.map { .call("fetch_page", #"{"topic":"\#($0)"}"#) }
                + [.answer("Heat pumps and insulation pay back fastest.")])
        let session = LanguageModelSession(
            model: server.model(), label: "researcher", tools: [fetch],
            instructions: "You research home energy.", middleware: [r.middleware], maximumToolRounds: 10)
        try await r.ask(session, "Which home energy upgrades pay back fastest?")
    }

    /// A chat with a server that reports its timings: the third request waits 1.2 s in the
    /// server's queue; the fourth pastes a long document, whose prefill is a slow first token the
    /// prompt explains.
    static func queuedRequest(_ r: ScenarioRecording) async throws {
        let server = r.server(
            [
                .answer("Tuesday at ten works."), .answer("It is on the calendar."),
                .answer("Sam will join."), .answer("The memo asks for the budget by Friday."),
                .answer("Sent."),
            ],
            timings: ScriptedServer.TimingReports(queueWaits: [3: 1_200_000_000]))
        let session = r.session("assistant", server, instructions: "You keep the user's calendar.")
        for prompt in [
            "When can we meet?", "Book it.", "Who else is coming?",
            "Summarize this memo: " + page(bytes: 9_000, word: "memo"), "Send the summary to Sam.",
        ] {
            try await r.ask(session, prompt)
        }
    }
}
