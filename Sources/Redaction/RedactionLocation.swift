/// Where a replaced value was: its kind and the 1-based line it starts on, never the value, so a
/// user can check what a redaction removed without seeing it again.
public struct RedactionLocation: Sendable, Hashable, CustomStringConvertible {
    /// The kind in `[REDACTED:<kind>]`.
    public var kind: RedactionKind
    /// The line of the input, counting from 1, where the value started.
    public var line: Int

    public init(kind: RedactionKind, line: Int) {
        self.kind = kind
        self.line = line
    }

    public var description: String { "\(kind) on line \(line)" }
}

extension Redactor {
    /// How a text is read for ``locate(_:as:)``, as ``redact(_:)``, ``redactJSON(_:)`` and
    /// ``redactJSONLines(_:)`` read it.
    public enum Format: Sendable {
        case text, json, jsonLines
    }

    /// The kind and line of every value that redacting `text` as `format` replaces, in order.
    ///
    /// ```swift
    /// Redactor.standard.locate("ok\nmail ana@example.org\n", as: .text)
    /// // [RedactionLocation(kind: .email, line: 2)]
    /// ```
    public func locate(_ text: String, as format: Format) -> [RedactionLocation] {
        var input = text
        return input.withUTF8 { b in
            var located: [(kind: RedactionKind, offset: Int)] = []
            switch format {
            case .text:
                located = offsets(in: b, from: 0)
            case .json:
                located = documentOffsets(b, from: 0)
            case .jsonLines:
                var lineStart = 0
                while lineStart < b.count {
                    var lineEnd = lineStart
                    while lineEnd < b.count && b[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                    let line = UnsafeBufferPointer(rebasing: b[lineStart..<lineEnd])
                    if !line.allSatisfy(isSpace) { located += documentOffsets(line, from: lineStart) }
                    lineStart = lineEnd + 1
                }
            }
            return Self.lines(of: located, in: b)
        }
    }

    /// Findings of free text, as offsets into the whole input.
    private func offsets(in b: UnsafeBufferPointer<UInt8>, from base: Int) -> [(kind: RedactionKind, offset: Int)] {
        findings(in: b, text: String(decoding: b, as: UTF8.self)).map { ($0.kind, base + $0.start) }
    }

    /// One JSON document's replaced values, or its text findings when it is not JSON.
    private func documentOffsets(_ b: UnsafeBufferPointer<UInt8>, from base: Int) -> [(
        kind: RedactionKind, offset: Int
    )] {
        var parser = JSONRedaction(input: b, redactor: self)
        guard (try? parser.document()) != nil else { return offsets(in: b, from: base) }
        return parser.located.map { ($0.kind, base + $0.offset) }
    }

    /// Offsets turned into 1-based line numbers in one pass over the input.
    private static func lines(
        of located: [(kind: RedactionKind, offset: Int)], in b: UnsafeBufferPointer<UInt8>
    ) -> [RedactionLocation] {
        var result: [RedactionLocation] = []
        result.reserveCapacity(located.count)
        var line = 1
        var position = 0
        for (kind, offset) in located.sorted(by: { $0.offset < $1.offset }) {
            while position < offset && position < b.count {
                if b[position] == UInt8(ascii: "\n") { line += 1 }
                position += 1
            }
            result.append(RedactionLocation(kind: kind, line: line))
        }
        return result
    }
}
