/// A hook the session applies to the model and tools each request resolves to.
///
/// The tracing middleware (another target) implements it; ModelSession itself knows nothing of
/// tracing. Middleware listed first wraps innermost.
public protocol SessionMiddleware: Sendable {
    func model(_ model: any LanguageModel, session: SessionInfo) -> any LanguageModel
    func tool<T: Tool>(_ tool: T, session: SessionInfo) -> any Tool
}
