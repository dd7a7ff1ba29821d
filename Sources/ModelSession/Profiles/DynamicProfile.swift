/// A profile whose `body` the session evaluates again before every request, so app state can
/// switch model, instructions, tools and options between requests.
///
/// ```swift
/// struct Planner: DynamicProfile {
///     let state: AppState
///     var body: Profile {
///         Profile("planner") { Instructions(state.instructions) }
///             .economyMode(isEnabled: state.economy, model: small)
///             .model(large)
///     }
/// }
/// ```
public protocol DynamicProfile: Sendable {
    var body: Profile { get }
}

/// A dynamic profile made from a closure.
public struct ProfileClosure: DynamicProfile {
    let make: @Sendable () -> Profile

    public init(_ make: @escaping @Sendable () -> Profile) { self.make = make }

    public var body: Profile { make() }
}
