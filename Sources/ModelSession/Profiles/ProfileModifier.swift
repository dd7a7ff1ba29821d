/// A reusable bundle of profile modifiers, applied with `.modifier(_:)`.
///
/// ```swift
/// struct Terse: ProfileModifier {
///     func body(content: Profile) -> Profile { content.maximumResponseTokens(64).temperature(0) }
/// }
/// ```
public protocol ProfileModifier: Sendable {
    func body(content: Profile) -> Profile
}
