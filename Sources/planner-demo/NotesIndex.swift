/// The planner's local index of notes and tasks, searched by word overlap.
struct NotesIndex: Sendable {
    struct Note: Sendable {
        var title: String
        var body: String
    }

    var notes: [Note]

    /// Notes whose title or body share a word with `query`, best first.
    func search(_ query: String, limit: Int = 3) -> [Note] {
        let words = Set(Self.words(query))
        guard !words.isEmpty else { return [] }
        return notes
            .map { note in (note, Set(Self.words(note.title + " " + note.body)).intersection(words).count) }
            .filter { $0.1 > 0 }
            .sorted { $0.1 > $1.1 }
            .prefix(limit)
            .map(\.0)
    }

    private static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { $0.count > 2 }
    }

    /// A small day of notes and tasks; fictional, with no personal data.
    static let sample = NotesIndex(notes: [
        Note(title: "Task: launch prep", body: "Finish the launch checklist and send the release notes by 11:00."),
        Note(title: "Task: launch review", body: "Review the launch dashboard with Sam at 15:00."),
        Note(title: "Meeting: design sync", body: "Design sync at 10:00, 30 minutes, room Ada."),
        Note(title: "Note: lunch", body: "Lunch with the team at 12:30 near the office."),
        Note(title: "Task: expenses", body: "Submit travel expenses before Friday."),
        Note(title: "Note: focus time", body: "Keep 13:30 to 15:00 free for writing the quarterly plan."),
        Note(title: "Task: gym", body: "Gym session after 18:00."),
        Note(title: "Note: errands", body: "Pick up the parcel from the post office before 17:00."),
    ])
}
