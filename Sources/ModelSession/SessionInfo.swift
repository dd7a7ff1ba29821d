import Foundation

/// Which session a middleware is wrapping for.
public struct SessionInfo: Sendable, Hashable {
    public let id: UUID
    public let label: String

    public init(id: UUID = UUID(), label: String) {
        self.id = id
        self.label = label
    }
}
