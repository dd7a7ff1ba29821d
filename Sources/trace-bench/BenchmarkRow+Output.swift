import Reproducible
import SessionTrace

extension BenchmarkRow {
    /// The rows as a JSON array of `{"metric","value","unit","reference","reference_value"}`.
    static func json(_ rows: [BenchmarkRow]) -> String {
        OrderedJSON.array(
            rows.map { row in
                .object([
                    ("metric", .string(row.metric)), ("value", .double(row.value)), ("unit", .string(row.unit)),
                    ("reference", .string(row.reference)), ("reference_value", .double(row.referenceValue)),
                ])
            }
        ).serialized()
    }

    /// The rows as an aligned table, with each value's ratio to its reference.
    static func table(_ rows: [BenchmarkRow]) -> String {
        let header = ["metric", "value", "unit", "reference", "ref value", "ratio"]
        let cells = rows.map { row in
            [
                row.metric, formatted(row.value), row.unit, row.reference ?? "-",
                row.referenceValue.map(formatted) ?? "-",
                row.referenceValue.map { $0 > 0 ? formatted(row.value / $0) + "x" : "-" } ?? "-",
            ]
        }
        let widths = header.indices.map { column in
            ([header] + cells).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                // Numbers right-aligned, words left-aligned.
                return [1, 4, 5].contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }
        return ([line(header)] + cells.map(line)).joined(separator: "\n")
    }

    private static func formatted(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        let whole = Int(hundredths / 100)
        let fraction = Int(abs(hundredths).truncatingRemainder(dividingBy: 100))
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
