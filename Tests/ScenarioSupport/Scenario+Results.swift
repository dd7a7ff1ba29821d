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
        try await pollJob(
            r, "J-7",
            states: [
                "J-7 queued: 0 of 300 files, waiting for a worker",
                "J-7 running on worker 3: 120 of 300 files converted",
                "J-7 running on worker 3: 240 of 300 files converted, 2 skipped",
                "J-7 done: 300 of 300 files, report at reports/j-7.html",
            ])
    }

    /// A job checked once per state in `states`, in one turn, by a session labelled "watcher".
    static func pollJob(_ r: ScenarioRecording, _ id: String, states: [String]) async throws {
        let calls = TurnCounter()
        let job = r.tool("check_job", "The state of a batch job.", properties: ["job_id"]) { _ in
            defer { calls.next() }
            return states[min(calls.count, states.count - 1)]
        }
        let poll = ScriptedReply.call("check_job", #"{"job_id":"\#(id)"}"#)
        let server = r.server(
            Array(repeating: poll, count: states.count) + [.answer("Job \(id) is done; the report is ready.")])
        try await r.ask(
            r.session("watcher", server, tools: [job], instructions: "You watch batch jobs."),
            "Tell me when job \(id) has finished.")
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

    /// A job polled four times: unchanged once, then progress, then done. One job polled, not a loop.
    static func pollingWithRepeats(_ r: ScenarioRecording) async throws {
        try await pollJob(
            r, "J-9", states: ["J-9 running", "J-9 running", "J-9 running: 40% done", "J-9 done: report at reports/j-9.html"])
    }

    /// A deploy stuck at approval, checked three times: each answer echoes a fresh request id and the
    /// time of the check, nothing else changes. A loop, not polling.
    static func stuckWithEchoedIDs(_ r: ScenarioRecording) async throws {
        let requestIDs = [
            "0f8b6a52-3c1e-4d7a-9b2f-6e1c0a9d4b37", "7c2e9d14-8a5b-4f3c-b1d6-2a9e7f0c5d81",
            "b3d1f7a0-6e4c-42b9-8d5a-1c7e3f9a2b64",
        ]
        let calls = TurnCounter()
        let deploy = r.tool("check_deploy", "The state of a deploy.", properties: ["deploy_id"]) { _ in
            defer { calls.next() }
            let n = min(calls.count, requestIDs.count - 1)
            return #"{"deploy":"D-12","state":"waiting for approval","request_id":"\#(requestIDs[n])","#
                + #""trace":"req_8f3a2b9\#(n)c4","checked_at":"2026-12-03T09:4\#(n):07Z"}"#
        }
        let check = ScriptedReply.call("check_deploy", #"{"deploy_id":"D-12"}"#)
        let server = r.server([check, check, check, .answer("Deploy D-12 is still waiting for approval.")])
        try await r.ask(
            r.session("operator", server, tools: [deploy], instructions: "You watch deploys."),
            "Has deploy D-12 gone out?")
    }
}
