import ModelSession
import Synchronization

/// Searches the planner's notes, under a budget of calls per run.
struct SearchNotesTool: Tool {
    struct Arguments: Codable, Sendable {
        var query: String
    }

    let index: NotesIndex
    let budget: CallBudget

    var name: String { "search_notes" }
    var description: String { "Searches the user's notes and tasks for a topic; returns matching notes." }
    var parameters: JSONSchema { .object([.init("query", .string(description: "words to look for", maxLength: 40))]) }

    func call(arguments: Arguments) async throws -> String {
        guard budget.spend() else { return "The search budget for this run is used up; plan with what you have." }
        let found = index.search(arguments.query)
        if found.isEmpty { return "No notes match \"\(arguments.query)\"." }
        return found.map { "\($0.title): \($0.body)" }.joined(separator: "\n")
    }
}

/// How many calls a tool may still make; shared by every copy of the tool.
final class CallBudget: Sendable {
    private let remaining: Mutex<Int>

    init(_ calls: Int) { remaining = Mutex(calls) }

    /// Takes one call from the budget; false when none is left.
    func spend() -> Bool {
        remaining.withLock { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
    }
}
