/// The instructions part of a profile, written inside its builder.
///
/// ```swift
/// Profile("planner") { Instructions("You plan a day.") }
/// ```
public struct Instructions: Sendable, Hashable {
    public var text: String

    public init(_ text: String) { self.text = text }
}
