import Redaction
import Testing

/// Recall on the secret lines and the share of harmless lines left byte for byte, over the
/// private evaluation set; the figures are printed so a run shows them.
@Suite("Evaluation set")
struct EvaluationTests {
    @Test func recallAndHarmlessKept() {
        let secrets = EvaluationSet.secretLines()
        let missed = secrets.filter { Redactor.standard.redact($0.text).text.contains($0.secret) }
        let harmless = EvaluationSet.harmlessLines()
        let changed = harmless.filter { Redactor.standard.redact($0).text != $0 }
        let recall = Double(secrets.count - missed.count) / Double(secrets.count)
        let kept = Double(harmless.count - changed.count) / Double(harmless.count)
        let kinds = Set(secrets.map(\.kind)).count
        print("evaluation: recall \(recall) (\(secrets.count - missed.count) of \(secrets.count), \(kinds) kinds),"
              + " harmless kept \(kept) (\(harmless.count - changed.count) of \(harmless.count))")
        for line in missed { print("  missed [\(line.kind)] \(line.text.prefix(100))") }
        for line in changed { print("  changed \(line.prefix(80)) -> \(Redactor.standard.redact(line).text.prefix(80))") }
        #expect(recall >= 0.97)
        #expect(kept >= 0.95)
    }
}
