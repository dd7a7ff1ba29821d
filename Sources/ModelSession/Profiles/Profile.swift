/// What a session asks with: instructions, a model, tools, options and lifecycle callbacks.
///
/// ```swift
/// let planner = Profile("planner") { Instructions("You plan a day.") }
///     .economyMode(isEnabled: state.economy, model: small)
///     .model(large)
///     .temperature(0.7)
/// ```
///
/// Precedence, highest first: the options passed to `respond(to:options:)` (only for the
/// values they set); then the modifier closest to the `Profile`; then outer modifiers.
/// Every history transform applies (outermost first, so the closest one has the last word)
/// and every `onResponse` callback runs (closest first).
public struct Profile: DynamicProfile {
    public var name: String
    public var instructions: String?
    public internal(set) var model: (any LanguageModel)?
    /// Nil until a `.tools(_:)` modifier sets them.
    public internal(set) var tools: [any Tool]?
    public internal(set) var options: GenerationOptions
    /// In modifier order, closest to the profile first.
    var historyTransforms: [HistoryTransform]
    var responseHandlers: [ResponseHandler]

    public typealias HistoryTransform = @Sendable ([Transcript.Entry]) -> [Transcript.Entry]
    public typealias ResponseHandler = @Sendable (LanguageModelSession.Response) -> Void

    public init(_ name: String = "default", @ProfileBuilder _ content: () -> [Instructions] = { [] }) {
        let parts = content().map(\.text)
        self.init(name: name, instructions: parts.isEmpty ? nil : parts.joined(separator: "\n\n"))
    }

    init(name: String, instructions: String?) {
        self.name = name
        self.instructions = instructions
        self.model = nil
        self.tools = nil
        self.options = GenerationOptions()
        self.historyTransforms = []
        self.responseHandlers = []
    }

    /// A static profile is its own body.
    public var body: Profile { self }

    /// The entries the model sees for one request, after every history transform.
    public func transformedHistory(_ entries: [Transcript.Entry]) -> [Transcript.Entry] {
        historyTransforms.reversed().reduce(entries) { entries, transform in transform(entries) }
    }

    func runResponseHandlers(_ response: LanguageModelSession.Response) {
        for handler in responseHandlers { handler(response) }
    }
}
