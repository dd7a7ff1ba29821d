// Near-duplicate asks judged from argument sketches, without captured text, and filters added to
// the same ask.
extension Scenario {
    /// A rephrased search loop, a fan-out over cities and pages of one query, recorded without payload
    /// capture: only the argument sketches can tell the loop from the fan-out and the pages.
    static func rephrasedLoopWithoutPayloads(_ r: ScenarioRecording) async throws {
        let search = r.tool("search_notes", "Searches the user's notes.", properties: ["query"]) { _ in
            "3 notes: Launch checklist (updated Monday); Launch owners and their areas; Press kit draft"
        }
        let searcher = r.server(
            ["launch tasks", "open launch tasks", "tasks for the launch"].map {
                .call("search_notes", #"{"query":"\#($0)"}"#)
            } + [.answer("The launch checklist was updated on Monday.")])
        try await r.ask(
            r.session("searcher", searcher, tools: [search], instructions: "You answer from the user's notes."),
            "What is left to do for the launch?")
        try await weatherFanOut(r)
        let list = r.tool(
            "list_notes", "Lists notes matching a query, a page at a time.", properties: ["query", "page"]
        ) {
            "page \($0.text("page")): 20 notes"
        }
        let archive = r.server(
            (1...3).map { .call("list_notes", #"{"page":\#($0),"query":"launch tasks"}"#) }
                + [.answer("There are 52 notes about launch tasks.")])
        try await r.ask(
            r.session("archive", archive, tools: [list], instructions: "You count the user's notes."),
            "How many notes are about launch tasks?")
    }

    /// The same report search again, once with a region filter added: one ask. A fan-out over
    /// regions is three.
    static func addedFilter(_ r: ScenarioRecording) async throws {
        let reports = r.tool("search_reports", "Searches finance reports.", properties: ["query", "region"]) {
            _ in "2 reports: Q3 revenue summary; Q3 churn by segment"
        }
        let analyst = r.server([
            .call("search_reports", #"{"query":"quarterly revenue report"}"#),
            .call("search_reports", #"{"query":"quarterly revenue report","region":"EMEA"}"#),
            .call("search_reports", #"{"query":"report on quarterly revenue","region":"EMEA"}"#),
            .answer("Q3 revenue is in the summary report."),
        ])
        try await r.ask(
            r.session("analyst", analyst, tools: [reports], instructions: "You answer from finance reports."),
            "How was revenue last quarter in EMEA?")
        let regional = r.tool("search_reports", "Searches finance reports.", properties: ["query", "region"]) {
            "\($0.text("region")): revenue up 4% in Q3"
        }
        let regions = r.server([
            .calls(["EMEA", "APAC", "AMER"].map { ("search_reports", #"{"query":"revenue","region":"\#($0)"}"#) }),
            .answer("Revenue grew in every region."),
        ])
        try await r.ask(
            r.session("regions", regions, tools: [regional], instructions: "You answer from finance reports."),
            "How did revenue grow in each region?")
    }
}
