import ModelSession

// Repeated tool calls: the positives, and the fan-outs and pages a naive analyzer would flag.
extension Scenario {
    static func searchNotes(_ r: ScenarioRecording) -> ScenarioTool {
        r.tool("search_notes", "Searches the user's notes.", properties: ["query"]) {
            "2 notes about " + $0.text("query")
        }
    }

    static func forecast(_ r: ScenarioRecording) -> ScenarioTool {
        r.tool(
            "get_forecast", "The weather forecast for a city.",
            properties: ["city", "units", "fields", "days"]
        ) {
            "\($0.text("city")): 18 degrees, light wind, humidity 60%"
        }
    }

    static func forecastArguments(_ city: String) -> String {
        #"{"city":"\#(city)","days":3,"fields":"temperature humidity wind","units":"metric"}"#
    }

    static func roundLoop(_ r: ScenarioRecording) async throws {
        let server = r.server([
            .call("search_notes", #"{"query":"launch"}"#),
            .call("search_notes", #"{"query":"launch prep"}"#),
            .call("search_notes", #"{"query":"launch tasks"}"#),
            .answer("The launch is on Friday; prep starts on Tuesday and the tasks are in the tracker."),
        ])
        let session = r.session(
            "researcher", server, tools: [searchNotes(r)], instructions: "You answer from the user's notes.")
        try await r.ask(session, "What is planned for the launch?")
    }

    static func identicalRetry(_ r: ScenarioRecording) async throws {
        let order = r.tool("get_order", "Looks up an order.", properties: ["order_id"]) {
            "\($0.text("order_id")): shipped"
        }
        let support = r.server([
            .call("get_order", #"{"order_id":"ORD-1042"}"#),
            .call("get_order", #"{"order_id":"ORD-1042"}"#),
            .answer("Order ORD-1042 has shipped."),
        ])
        try await r.ask(
            r.session("support", support, tools: [order], instructions: "You help with orders."),
            "Where is my order ORD-1042?")
        let invoice = r.tool("get_invoice", "Looks up an invoice.", properties: ["invoice_id"]) { _ in "paid"
        }
        let billing = r.server([
            .call("get_invoice", #"{"invoice_id":"INV-7"}"#), .answer("Invoice INV-7 is paid."),
        ])
        try await r.ask(
            r.session("billing", billing, tools: [invoice], instructions: "You help with invoices."),
            "Is invoice INV-7 paid?")
    }

    static func alternation(_ r: ScenarioRecording) async throws {
        let search = r.tool("search_tickets", "Searches support tickets.", properties: ["query"]) { _ in
            "T-88"
        }
        let open = r.tool("get_ticket", "Opens a ticket.", properties: ["ticket_id"]) { _ in
            "T-88: login fails on Safari"
        }
        let server = r.server([
            .call("search_tickets", #"{"query":"login fails"}"#),
            .call("get_ticket", #"{"ticket_id":"T-88"}"#),
            .call("search_tickets", #"{"query":"login fails"}"#),
            .call("get_ticket", #"{"ticket_id":"T-88"}"#),
            .answer("Ticket T-88 tracks the login failure on Safari."),
        ])
        let session = r.session("triage", server, tools: [search, open], instructions: "You triage tickets.")
        try await r.ask(session, "Is there a ticket for the login failure?")
    }

    static func toolLoop(_ r: ScenarioRecording) async throws {
        let planner = r.server([
            .calls([
                ("search_notes", #"{"query":"launch"}"#), ("search_notes", #"{"query":"launch prep"}"#),
                ("search_notes", #"{"query":"launch tasks"}"#),
            ]),
            .answer("Launch prep runs all week; the tasks are in the tracker."),
        ])
        try await r.ask(
            r.session("planner", planner, tools: [searchNotes(r)], instructions: "You plan the user's week."),
            "Plan my week around the launch.")
        let calendar = r.tool("get_calendar", "The user's calendar for a day.", properties: ["day"]) { _ in
            "free"
        }
        let writer = r.server([.call("get_calendar", #"{"day":"2026-06-02"}"#), .answer("Tuesday is free.")])
        try await r.ask(
            r.session("writer", writer, tools: [calendar], instructions: "You write the user's emails."),
            "Draft a note saying when I am free.")
    }

    static func repeatAcrossTurns(_ r: ScenarioRecording) async throws {
        let weather = r.tool("get_weather", "Current weather for a city.", properties: ["city"]) {
            "\($0.text("city")): rain"
        }
        let server = r.server([
            .call("get_weather", #"{"city":"Oslo"}"#), .answer("It rains in Oslo."),
            .answer("Take a coat."),
            .call("get_weather", #"{"city":"Oslo"}"#), .answer("Still raining in Oslo."),
        ])
        let session = r.session("assistant", server, tools: [weather], instructions: "You help with the day.")
        try await r.ask(session, "What is the weather in Oslo?")
        try await r.ask(session, "What should I wear?")
        try await r.ask(session, "And is it still raining?")
    }

    static func recurringLoop(_ r: ScenarioRecording) async throws {
        let check = r.tool("check_deploy", "The state of a deployment.", properties: ["service"]) {
            "\($0.text("service")): pending"
        }
        let poll = ScriptedReply.call("check_deploy", #"{"service":"api"}"#)
        let server = r.server([
            poll, poll, poll, .answer("The api deploy is still pending."),
            poll, poll, poll, .answer("Still pending."),
        ])
        let session = r.session("deployer", server, tools: [check], instructions: "You watch deployments.")
        try await r.ask(session, "Is the api deployed?")
        try await r.ask(session, "Check again, please.")
    }

    static func loopWithoutPayloads(_ r: ScenarioRecording) async throws {
        let job = r.tool("check_job", "The state of a batch job.", properties: ["job_id"]) { _ in "running" }
        let poll = ScriptedReply.call("check_job", #"{"job_id":"J-7"}"#)
        let poller = r.server([poll, poll, poll, poll, .answer("Job J-7 is still running.")])
        try await r.ask(
            r.session("poller", poller, tools: [job], instructions: "You watch batch jobs."),
            "Has job J-7 finished?")
        try await weatherFanOut(r)
    }

    /// One request asks for the forecasts of three cities at once: a fan-out, never a finding.
    static func weatherFanOut(_ r: ScenarioRecording) async throws {
        let weather = r.server([
            .calls(["Paris", "London", "Tokyo"].map { ("get_forecast", forecastArguments($0)) }),
            .answer("Mild in Paris and London, warm in Tokyo."),
        ])
        try await r.ask(
            r.session("weather", weather, tools: [forecast(r)], instructions: "You compare forecasts."),
            "Compare the weather in Paris, London and Tokyo.")
    }

    static func fanOut(_ r: ScenarioRecording) async throws {
        let cities = ["Paris", "London", "Tokyo"]
        try await weatherFanOut(r)
        let web = r.tool("search_web", "Searches the web.", properties: ["query"]) { _ in "3 results" }
        let research = r.server([
            .calls(cities.map { ("search_web", #"{"query":"Weather forecast for \#($0) this weekend"}"#) }),
            .answer("All three look dry this weekend."),
        ])
        try await r.ask(
            r.session("research", research, tools: [web], instructions: "You research the web."),
            "Will it be dry this weekend in Paris, London and Tokyo?")
    }

    static func fanOutOverRounds(_ r: ScenarioRecording) async throws {
        let weather = r.server(
            ["Paris", "London", "Tokyo"].map { .call("get_forecast", forecastArguments($0)) }
                + [.answer("Mild in Paris and London, warm in Tokyo.")])
        try await r.ask(
            r.session("weather", weather, tools: [forecast(r)], instructions: "You compare forecasts."),
            "Compare the weather in Paris, London and Tokyo.")
        let search = r.tool("search_news", "Searches the news.", properties: ["query"]) { _ in "2 articles" }
        let news = r.server(
            ["paris", "lyon", "nice"].map { .call("search_news", #"{"query":"train strikes \#($0)"}"#) }
                + [.answer("Strikes are planned in all three cities.")])
        try await r.ask(
            r.session("news", news, tools: [search], instructions: "You read the news."),
            "Are there train strikes in Paris, Lyon or Nice?")
    }

    static func pagination(_ r: ScenarioRecording) async throws {
        let list = r.tool(
            "list_notes", "Lists notes matching a query, a page at a time.", properties: ["query", "page"]
        ) {
            "page \($0.text("page")): 20 notes"
        }
        let archive = r.server(
            (1...3).map { .call("list_notes", #"{"page":\#($0),"query":"launch"}"#) }
                + [.answer("There are 52 notes about the launch.")])
        try await r.ask(
            r.session("archive", archive, tools: [list], instructions: "You count the user's notes."),
            "How many notes mention the launch?")
        let events = r.tool("list_events", "Lists events after a cursor.", properties: ["query", "cursor"]) {
            _ in "10 events"
        }
        let feed = r.server(
            ["c_100", "c_200", "c_300"].map {
                .call("list_events", #"{"cursor":"\#($0)","query":"deploys"}"#)
            }
                + [.answer("Thirty deploys this week.")])
        try await r.ask(
            r.session("feed", feed, tools: [events], instructions: "You summarize events."),
            "How many deploys this week?")
        let order = r.tool("get_order", "Looks up an order.", properties: ["order_id"]) {
            "\($0.text("order_id")): shipped"
        }
        let orders = r.server(
            ["ORD-1001", "ORD-1002", "ORD-1003"].map { .call("get_order", #"{"order_id":"\#($0)"}"#) }
                + [.answer("All three orders have shipped.")])
        try await r.ask(
            r.session("orders", orders, tools: [order], instructions: "You help with orders."),
            "Have orders ORD-1001, ORD-1002 and ORD-1003 shipped?")
    }

    static func distinctTopics(_ r: ScenarioRecording) async throws {
        let server = r.server(
            ["launch", "lunch", "offsite"].map {
                .call("search_notes", #"{"query":"notes about the \#($0)"}"#)
            }
                + [.answer("The launch is Friday, lunch is at noon, the offsite is in June.")])
        try await r.ask(
            r.session(
                "notes", server, tools: [searchNotes(r)], instructions: "You answer from the user's notes."),
            "What do my notes say about the launch, the lunch and the offsite?")
    }
}
