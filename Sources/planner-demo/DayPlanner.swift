import ModelSession
import SessionInstrumentation
import SessionTrace
import Synchronization

/// The day-planner agent: a context session gathers notes with a search tool, then a plan
/// session plans the day over several turns under a dynamic profile that switches to economy
/// mode (a capped response and a rolling window of history) after a few turns.
struct DayPlanner {
    let model: any LanguageModel
    let tracer: Tracer
    let index: NotesIndex
    var searchBudget = 4
    var economyAfterTurns = 2
    /// Filler notes padded into the plan session's instructions (see `PlannerBloat`).
    var bloatNotes = 0
    /// The plan session's response cap outside economy mode.
    var maximumResponseTokens = 160
    var tracingOptions = TracingOptions()

    static let topics = ["launch", "design sync", "lunch"]
    static let planTurns = [
        "Plan my morning around the design sync.",
        "Add the launch prep before lunch.",
        "Where does the launch review fit this afternoon?",
        "Keep focus time free and add the errands.",
        "Summarize the whole day in three lines.",
    ]

    func run() async throws {
        let middleware = TracingMiddleware(tracer: tracer, options: tracingOptions)
        let budget = CallBudget(searchBudget)
        let topics = TraceMetadataValue.int(Int64(Self.topics.count))
        try await tracer.withInterval("PlanDay", metadata: ["topics": topics]) { interval in
            let context = try await gatherContext(middleware: middleware, budget: budget)
            interval.metadata["contextBytes"] = .int(Int64(context.utf8.count))
            try await plan(with: context, middleware: middleware)
        }
    }

    /// Asks the context session about each topic; it must search the notes before it answers.
    private func gatherContext(middleware: TracingMiddleware, budget: CallBudget) async throws -> String {
        let session = LanguageModelSession(
            model: model, label: "context", tools: [SearchNotesTool(index: index, budget: budget)],
            instructions: "You find the user's notes. Search the notes, then say in one sentence what they hold.",
            middleware: [middleware])
        var found: [String] = []
        for topic in Self.topics {
            let answer = try await tracer.withInterval("GatherContext", metadata: ["topic": .string(topic)]) {
                _ in
                try await session.respond(
                    to: "What do my notes say about \(topic)?",
                    options: GenerationOptions(temperature: 0, maximumResponseTokens: 160, toolChoice: .requiredOnce))
            }
            found.append(answer.content)
        }
        return found.joined(separator: "\n")
    }

    /// Plans the day over several turns; the profile switches to economy mode after a few.
    private func plan(with context: String, middleware: TracingMiddleware) async throws {
        let turn = Mutex(0)
        let economyAfter = economyAfterTurns
        let model = self.model
        let filler = PlannerBloat.notes(bloatNotes)
        let cap = maximumResponseTokens
        let session = LanguageModelSession(label: "plan", middleware: [middleware]) {
            let economy = turn.withLock { $0 } >= economyAfter
            return Profile(economy ? "plan-economy" : "plan") {
                Instructions("You plan the user's day from their notes. Be concrete, with times.")
                Instructions("Notes:\n\(context)")
                if !filler.isEmpty { Instructions(filler) }
            }
            .economyMode(isEnabled: economy, maximumResponseTokens: 64, promptWindow: 1)
            .model(model)
            .temperature(0)
            .maximumResponseTokens(cap)
        }
        for prompt in Self.planTurns {
            try await tracer.withInterval("PlanTurn") { _ in
                _ = try await session.streamResponse(to: prompt).collect()
            }
            turn.withLock { $0 += 1 }
        }
    }
}
