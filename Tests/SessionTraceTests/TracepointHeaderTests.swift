import Foundation
import SessionTrace
import Testing

/// `session_trace_tp.h` against the field tables: the tracepoint of each kind carries the kind's
/// fields, in table order, each as an LTTng field type that holds its kind. A field added to a
/// table and not to the tracepoint (or the other way round) fails here.
@Suite("LTTng tracepoints against the field tables")
struct TracepointHeaderTests {
    static let headerPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/CLTTngUST/session_trace_tp.h").path

    /// One `lttng_ust_field_*` line: the field's name and its LTTng type, as `integer int64_t`.
    struct TracepointField: Equatable, CustomStringConvertible {
        var name: String
        var type: String
        var description: String { "\(name): \(type)" }
    }

    @Test func theHeaderDeclaresOneTracepointPerKind() throws {
        let events = try Self.parse(String(contentsOfFile: Self.headerPath, encoding: .utf8))
        #expect(events.keys.sorted() == TraceEventKind.allCases.map(\.name).sorted())
    }

    @Test(arguments: TraceEventKind.allCases)
    func eachTracepointCarriesItsTablesFieldsInOrder(kind: TraceEventKind) throws {
        let events = try Self.parse(String(contentsOfFile: Self.headerPath, encoding: .utf8))
        let fields = try #require(events[kind.name])
        let expected = kind.fieldSpecs.map { TracepointField(name: $0.tracepointField, type: Self.lttngType($0.kind)) }
        #expect(fields == expected)
    }

    /// The parser reads the field lines of a tracepoint as the header writes them.
    @Test func theParserReadsEveryFieldMacro() throws {
        let text = """
            LTTNG_UST_TRACEPOINT_EVENT(session_trace, example,
                LTTNG_UST_TP_ARGS(const struct st_example *, e),
                LTTNG_UST_TP_FIELDS(
                    lttng_ust_field_integer(int64_t, example_id, e->example_id)
                    lttng_ust_field_string(name, e->name)
                    lttng_ust_field_integer(int8_t, streamed, e->streamed)
                    lttng_ust_field_float(double, temperature, e->temperature)
                    lttng_ust_field_sequence(uint32_t, output_sketch, e->output_sketch, uint32_t,
                        e->output_sketch_length)
                )
            )
            """
        #expect(
            try Self.parse(text) == [
                "example": [
                    TracepointField(name: "example_id", type: "integer int64_t"),
                    TracepointField(name: "name", type: "string"),
                    TracepointField(name: "streamed", type: "integer int8_t"),
                    TracepointField(name: "temperature", type: "float double"),
                    TracepointField(name: "output_sketch", type: "sequence uint32_t"),
                ]
            ])
    }

    /// The LTTng field type a field of `kind` is written as (absent values as -1 or "", see the
    /// header): metadata as its JSON text, a flag as a signed byte.
    static func lttngType(_ kind: FieldKind) -> String {
        switch kind {
        case .integer: "integer int64_t"
        case .real: "float double"
        case .text, .metadata: "string"
        case .bool: "integer int8_t"
        case .sketch: "sequence uint32_t"
        }
    }

    struct ParseError: Error, CustomStringConvertible {
        var line: String
        var description: String { "a field macro this test does not know: \(line)" }
    }

    /// The fields of each `LTTNG_UST_TRACEPOINT_EVENT(session_trace, NAME, ...)`, in order.
    static func parse(_ header: String) throws -> [String: [TracepointField]] {
        var events: [String: [TracepointField]] = [:]
        var current: String?
        for rawLine in header.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("LTTNG_UST_TRACEPOINT_EVENT(session_trace,") {
                let name = line.dropFirst("LTTNG_UST_TRACEPOINT_EVENT(session_trace,".count)
                    .trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
                current = name
                events[name] = []
                continue
            }
            guard let event = current, line.hasPrefix("lttng_ust_field_") else { continue }
            let macro = String(line.prefix { $0 != "(" }.dropFirst("lttng_ust_field_".count))
            let arguments = line.drop { $0 != "(" }.dropFirst().split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let field: TracepointField
            switch macro {
            case "integer", "float", "sequence":
                guard arguments.count >= 2 else { throw ParseError(line: line) }
                field = TracepointField(name: arguments[1], type: "\(macro) \(arguments[0])")
            case "string":
                guard let name = arguments.first else { throw ParseError(line: line) }
                field = TracepointField(name: name, type: "string")
            default:
                throw ParseError(line: line)
            }
            events[event, default: []].append(field)
        }
        return events
    }
}
