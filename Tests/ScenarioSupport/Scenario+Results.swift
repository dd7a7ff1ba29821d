import ModelSession

// Repeats judged by their results: stuck on the same results, polling and refinement that bring new
// ones, retries after a failure.
extension Scenario {
    static let launchQueries = ["launch", "launch prep", "launch tasks"]

    static func stuckLoop(_ r: ScenarioRecording) async throws {
        let search = r.tool("search_notes", "Searches the user's notes.", properties: ["query"]) { _ in
            "3 notes: Launch checklist (updated Monday); Launch owners and their areas; Press kit draft"
        }
        let server = r.server(
            launchQueries.map { .call("search_notes", #"{"query":"\#($0)"}"#) }
                + [.answer("The launch checklist was updated on Monday.")])
        try await r.ask(
            r.session("searcher", server, tools: [search], instructions: "You answer from the user's notes."),
            "What is left to do for the launch?")
    }

    static func refinedSearches(_ r: ScenarioRecording) async throws {
        let found = [
            "launch": "Launch day runbook; Customer email for Friday; Rollback steps and contacts",
            "launch prep": "Prep meeting Tuesday at ten; Demo environment ready; Slides owned by Mia",
            "launch tasks": "Tracker board LT-4; Translate the pricing page; Final QA sign-off by Sam",
        ]
        let search = r.tool("search_notes", "Searches the user's notes.", properties: ["query"]) {
            found[$0.text("query")] ?? "no notes"
        }
        let server = r.server(
            launchQueries.map { .call("search_notes", #"{"query":"\#($0)"}"#) }
                + [.answer("Prep is on Tuesday, the runbook is ready and QA signs off last.")])
        try await r.ask(
            r.session("researcher", server, tools: [search], instructions: "You answer from the user's notes."),
            "What is planned for the launch?")
    }

    static func polling(_ r: ScenarioRecording) async throws {
        let states = [
            "J-7 queued: 0 of 300 files, waiting for a worker",
            "J-7 running on worker 3: 120 of 300 files converted",
            "J-7 running on worker 3: 240 of 300 files converted, 2 skipped",
            "J-7 done: 300 of 300 files, report at reports/j-7.html",
        ]
        let calls = TurnCounter()
        let job = r.tool("check_job", "The state of a batch job.", properties: ["job_id"]) { _ in
            defer { calls.next() }
            return states[min(calls.count, states.count - 1)]
        }
        let poll = ScriptedReply.call("check_job", #"{"job_id":"J-7"}"#)
        let server = r.server([poll, poll, poll, poll, .answer("Job J-7 is done; the report is ready.")])
        try await r.ask(
            r.session("watcher", server, tools: [job], instructions: "You watch batch jobs."),
            "Tell me when job J-7 has finished.")
    }

    /// The order service times out twice; the app asks again after each failed turn.
    static func retriesAfterErrors(_ r: ScenarioRecording) async throws {
        let calls = TurnCounter()
        let order = r.tool("get_order", "Looks up an order.", properties: ["order_id"]) {
            defer { calls.next() }
            guard calls.count >= 2 else { throw OrderServiceTimeout() }
            return "\($0.text("order_id")): shipped on Monday, arriving Thursday"
        }
        let lookup = ScriptedReply.call("get_order", #"{"order_id":"ORD-2077"}"#)
        let server = r.server([lookup, lookup, lookup, .answer("Order ORD-2077 arrives on Thursday.")])
        let session = r.session("support", server, tools: [order], instructions: "You help with orders.")
        for _ in 1...2 { _ = try? await r.ask(session, "When does order ORD-2077 arrive?") }
        try await r.ask(session, "When does order ORD-2077 arrive?")
    }

    struct OrderServiceTimeout: Error, CustomStringConvertible {
        var description: String { "the order service did not answer within 5 s" }
    }
}
