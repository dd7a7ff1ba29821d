import SessionTrace
import TraceAnalysis

/// OTLP's trace data as plain values: what ``OTLPExport`` renders as OTLP/JSON and encodes as
/// protobuf, so both encodings come from one model.
public struct OTLPResourceSpans: Sendable {
    var attributes: [OTLPAttribute]
    var spans: [OTLPSpan]
}

/// A 128-bit trace id.
struct OTLPTraceID: Sendable, Hashable {
    var high: UInt64
    var low: UInt64
}

struct OTLPSpan: Sendable {
    /// OTLP's span kinds that the export uses, with their enum numbers.
    enum Kind: Int64, Sendable {
        case `internal` = 1, client = 3
    }

    var traceID: OTLPTraceID
    var spanID: UInt64
    var parentSpanID: UInt64?
    var name: String
    var kind: Kind
    /// Nanoseconds since the Unix epoch.
    var start: UInt64
    var end: UInt64
    var attributes: [OTLPAttribute]
    var events: [OTLPEvent]
    var links: [OTLPLink]
    /// The error's message; nil for a span that did not fail (status OK).
    var error: String?
}

struct OTLPEvent: Sendable {
    /// Nanoseconds since the Unix epoch.
    var time: UInt64
    var name: String
    var attributes: [OTLPAttribute]
}

/// A span of another trace that a span belongs with: in this export, the app's interval that
/// enclosed it in the code but lies in another trace.
struct OTLPLink: Sendable {
    var traceID: OTLPTraceID
    var spanID: UInt64
    var attributes: [OTLPAttribute]
}

struct OTLPAttribute: Sendable {
    enum Value: Sendable {
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)
        case strings([String])
    }

    var key: String
    var value: Value

    init(_ key: String, _ value: String) { self.init(key: key, value: .string(value)) }
    init(_ key: String, _ value: Int64) { self.init(key: key, value: .int(value)) }
    init(_ key: String, _ value: Bool) { self.init(key: key, value: .bool(value)) }
    /// A finite number as a double; infinities and NaN as their text, which OTLP/JSON cannot carry.
    init(_ key: String, _ value: Double) {
        self.init(key: key, value: value.isFinite ? .double(value) : .string(String(value)))
    }
    init(_ key: String, strings: [String]) { self.init(key: key, value: .strings(strings)) }
    /// A 64-bit store id, as a decimal string so that no reader rounds it.
    init(_ key: String, id: Int64) { self.init(key: key, value: .string(String(id))) }
    /// A field's value (``FieldValue``) as its kind says; nil for an unknown value, and for
    /// metadata and sketches, which have no attribute of their own.
    init?(_ key: String, _ value: FieldValue) {
        switch value {
        case .integer(let number): self.init(key, number)
        case .real(let number): self.init(key, number)
        case .text(let text): self.init(key, text)
        case .bool(let flag): self.init(key, flag)
        case .null, .metadata, .sketch: return nil
        }
    }

    init(key: String, value: Value) {
        self.key = key
        self.value = value
    }
}
