import Foundation

extension OrderedJSON {
    /// Raw JSON text if it parses, else `fallback`: a malformed argument string must not
    /// corrupt the whole request body.
    public static func rawIfValid(_ text: String, fallback: OrderedJSON) -> OrderedJSON {
        let data = Data(text.utf8)
        guard (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil else {
            return fallback
        }
        return .raw(text)
    }
}
