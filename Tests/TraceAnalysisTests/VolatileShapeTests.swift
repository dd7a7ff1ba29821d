import Similarity
import Testing

/// The one table of volatile shapes: what the chronic-break analysis names a change by, and what
/// an output sketch sets aside.
@Suite("Volatile shapes")
struct VolatileShapeTests {
    static let shapes: [(String, VolatileShape?)] = [
        ("0f8b6a52-3c1e-4d7a-9b2f-6e1c0a9d4b37", .uuid),
        ("id=0F8B6A52-3C1E-4D7A-9B2F-6E1C0A9D4B37;", .uuid),
        ("2026-12-03T09:41:07Z", .timestamp),
        ("09:41", .timestamp),
        ("at 9:41", .timestamp),
        ("1733218867", .timestamp),
        ("1733218867123.5", .timestamp),
        ("req_8f3a2b91c4", .identifier),
        ("01HX3KQ7ZP", .identifier),
        ("5f2e0c1a9b3d4e7f", .identifier),
        ("other399", nil),
        ("utf8", nil),
        ("running", nil),
        ("40%", nil),
        ("120:300", nil),
        ("123456789", nil),
        ("J-7", nil),
    ]

    @Test(arguments: shapes)
    func eachTextHasItsShape(text: String, shape: VolatileShape?) {
        #expect(VolatileShape.of(text.utf8) == shape)
    }

    /// A stuck answer that echoes a fresh request id and check time gives the same sketch; a
    /// changed number or word does not.
    @Test func anOutputSketchSetsVolatileTokensAside() {
        func answer(_ id: String, _ time: String, _ state: String) -> String {
            #"{"deploy":"D-12","state":"\#(state)","request_id":"\#(id)","checked_at":"\#(time)"}"#
        }
        let first = OutputSketch.of(answer("0f8b6a52-3c1e-4d7a-9b2f-6e1c0a9d4b37", "2026-12-03T09:41:07Z", "waiting"))
        let again = OutputSketch.of(answer("7c2e9d14-8a5b-4f3c-b1d6-2a9e7f0c5d81", "2026-12-03T09:44:07Z", "waiting"))
        let moved = OutputSketch.of(answer("b3d1f7a0-6e4c-42b9-8d5a-1c7e3f9a2b64", "2026-12-03T09:47:07Z", "approved"))
        #expect(first == again)
        #expect(first != moved)
        #expect(OutputSketch.of("running: 40% done") != OutputSketch.of("running: 60% done"))
        // A token longer than 64 bytes always counts, whatever it holds.
        let long = String(repeating: "a", count: 70) + "-0f8b6a52-3c1e-4d7a-9b2f-6e1c0a9d4b37"
        #expect(OutputSketch.of(long) != OutputSketch.of(""))
    }
}
