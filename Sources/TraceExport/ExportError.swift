/// Why an export could not be written or delivered; `description` is one sentence for the user,
/// naming the file or endpoint.
public struct ExportError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
