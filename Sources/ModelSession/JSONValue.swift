import Foundation

/// Reading values out of `JSONSerialization`'s objects, one way for requests and responses alike,
/// for the model clients and the recording proxy.
package enum JSONValue {
    /// JSON text of a value, keys sorted, so that equal values give equal text; "" for none or null.
    package static func text(_ value: Any?) -> String {
        guard let value, !(value is NSNull),
              let data = try? JSONSerialization.data(
                  withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A JSON number as an integer; nil for anything else.
    package static func integer(_ value: Any?) -> Int? { (value as? NSNumber).map { $0.intValue } }
}
