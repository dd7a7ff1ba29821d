import Similarity
import Testing

@testable import TraceAnalysis

/// The field-by-field rule that tells a rephrased ask from a different one.
@Suite("Near-duplicate arguments")
struct ArgumentComparisonTests {
    /// Rephrasings, refinements and retries of one ask.
    static let sameAsk: [(String, String)] = [
        (#"{"query":"launch"}"#, #"{"query":"launch prep"}"#),
        (#"{"query":"launch"}"#, #"{"query":"launch tasks"}"#),
        (#"{"query":"Launch prep"}"#, #"{"query":"prep for the launch"}"#),
        (#"{"query":"launch task"}"#, #"{"query":"launch tasks"}"#),
        (#"{"query":"summarize open launch prep tasks"}"#, #"{"query":"summarize open launch prep items"}"#),
        (#"{"exact":true,"query":"launch"}"#, #"{"exact":false,"query":"launch prep"}"#),
        (#"{"query":"launch"}"#, #"{"note":"more detail","query":"launch"}"#),
        ("find the launch notes", "launch notes"),
        // A filter added to the same ask, even one whose value reads as an entity.
        (#"{"query":"quarterly revenue"}"#, #"{"query":"quarterly revenue","region":"EMEA"}"#),
        (#"{"query":"open tickets"}"#, #"{"query":"open tickets","team":"Platform"}"#),
    ]

    /// Asks that differ in an entity, however much else they share; with the field that decides.
    static let differentAsks: [(String, String, String)] = [
        (
            #"{"city":"Paris","days":3,"fields":"temperature humidity wind","units":"metric"}"#,
            #"{"city":"London","days":3,"fields":"temperature humidity wind","units":"metric"}"#, "city"
        ),
        (#"{"page":1,"query":"launch"}"#, #"{"page":2,"query":"launch"}"#, "page"),
        (#"{"q":"launch"}"#, #"{"p":2,"q":"launch"}"#, "p"),
        (#"{"query":"deploys"}"#, #"{"cursor":"c_200","query":"deploys"}"#, "cursor"),
        (#"{"query":"revenue","region":"EMEA"}"#, #"{"query":"revenue","region":"APAC"}"#, "region"),
        (#"{"cursor":"c_100","query":"deploys"}"#, #"{"cursor":"c_200","query":"deploys"}"#, "cursor"),
        (#"{"order_id":"ORD-1001"}"#, #"{"order_id":"ORD-1002"}"#, "order_id"),
        (#"{"ref":"2026-06-02"}"#, #"{"ref":"2026-06-03"}"#, "ref"),
        (#"{"target":"src/a.swift"}"#, #"{"target":"src/b.swift"}"#, "target"),
        (#"{"user":"ana"}"#, #"{"user":"bob"}"#, "user"),
        (#"{"name":"launch"}"#, #"{"name":"launch prep"}"#, "name"),
        (
            #"{"query":"Weather forecast for Paris this weekend"}"#,
            #"{"query":"Weather forecast for London this weekend"}"#, "query"
        ),
        (#"{"query":"notes about the launch"}"#, #"{"query":"notes about the lunch"}"#, "query"),
        (#"{"query":"train strikes paris"}"#, #"{"query":"train strikes lyon"}"#, "query"),
        (#"{"query":"launch review 2025"}"#, #"{"query":"launch review 2026"}"#, "query"),
        (
            #"{"body":"See you at launch","to":"[REDACTED:email]"}"#,
            #"{"body":"See you at the launch","to":"[REDACTED:email]"}"#, "to"
        ),
        (
            #"{"filter":{"city":"Oslo"},"query":"hotels"}"#,
            #"{"filter":{"city":"Bergen"},"query":"hotels"}"#,
            "filter.city"
        ),
    ]

    @Test(arguments: sameAsk)
    func rephrasingsAreNearDuplicates(first: String, second: String) {
        guard case .nearDuplicate(let similarity) = ArgumentComparison.compare(first, second) else {
            Issue.record("\(first) and \(second): \(ArgumentComparison.compare(first, second))")
            return
        }
        #expect(similarity >= 0.8)
        #expect(ArgumentComparison.compare(second, first) == .nearDuplicate(similarity: similarity))
    }

    @Test(arguments: differentAsks)
    func anEntityMakesCallsDistinct(first: String, second: String, field: String) {
        #expect(ArgumentComparison.compare(first, second) == .distinct(field: field))
        #expect(ArgumentComparison.compare(second, first) == .distinct(field: field))
    }

    @Test func caseAndWhiteSpaceDoNotMakeADifference() {
        #expect(
            ArgumentComparison.compare(#"{"query":"Launch  Prep"}"#, #"{"query":" launch prep "}"#)
                == .identical)
        #expect(ArgumentComparison.compare(#"{"a":1,"b":"x"}"#, #"{"b":"x","a":1}"#) == .identical)
    }

    @Test func theThresholdIsTheLeastShareOfWords() {
        let (first, second) = (#"{"query":"open launch prep tasks"}"#, #"{"query":"open launch prep items"}"#)
        #expect(ArgumentComparison.compare(first, second) == .distinct(field: "query"))
        #expect(
            ArgumentComparison.compare(first, second, threshold: 0.75) == .nearDuplicate(similarity: 0.75))
    }

    /// Without the text, the recorded sketches give the text's verdict on every pair above.
    @Test(arguments: sameAsk)
    func sketchesOfRephrasingsAgree(first: String, second: String) {
        let similarity = ArgumentSketch.similarity(
            ArgumentSketch.of(first), ArgumentSketch.of(second), threshold: 0.8)
        #expect(similarity != nil && similarity! >= 0.8)
    }

    @Test(arguments: differentAsks)
    func sketchesOfDifferentAsksDisagree(first: String, second: String, field: String) {
        #expect(ArgumentSketch.similarity(ArgumentSketch.of(first), ArgumentSketch.of(second), threshold: 0.8) == nil)
    }

    /// An argument of more than 32 terms keeps its least 32; a changed entity field still decides,
    /// because entity fields sort first, and a change among the words past the cut does not count.
    @Test func aLongArgumentIsComparedBelowTheCut() {
        let words = (0..<60).map { "word" + String(UnicodeScalar(UInt8(97 + $0 % 26))) + String(repeating: "x", count: $0 / 26) }
        let text = words.joined(separator: " ")
        let first = ArgumentSketch.of(#"{"city":"Oslo","notes":"\#(text)"}"#)
        #expect(first.count == ArgumentSketch.size)
        #expect(ArgumentSketch.similarity(first, ArgumentSketch.of(#"{"city":"Bergen","notes":"\#(text)"}"#), threshold: 0.8) == nil)
        #expect(ArgumentSketch.similarity(first, ArgumentSketch.of(#"{"city":"Oslo","notes":"\#(text)"}"#), threshold: 0.8) == 1)
    }
}
