/// A hook the session applies to the model and tools each request resolves to.
///
/// The tracing middleware (another target) implements it; ModelSession itself knows nothing of
/// tracing. The session calls it for every request, after resolving the profile, so a dynamic
/// profile's model switch reaches the middleware too. Middleware listed first wraps innermost.
/// A wrapped tool must keep its `name`: the session finds tools by the name the model calls.
public protocol SessionMiddleware: Sendable {
    func model(_ model: any LanguageModel, session: SessionInfo) -> any LanguageModel
    func tool<T: Tool>(_ tool: T, session: SessionInfo) -> any Tool
    /// The session is gone (its last reference went): middleware that keeps something per session
    /// lets it go here. Called once per session, after its last request.
    func sessionEnded(_ session: SessionInfo)
}

extension SessionMiddleware {
    /// Nothing kept per session, nothing to let go.
    public func sessionEnded(_ session: SessionInfo) {}
}
