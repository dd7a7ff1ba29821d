import Redaction

extension Redactor {
    /// The built-in rules plus the custom rules of the file at `rulesPath`, if given.
    ///
    /// - Throws: ``CommandFailure/message(_:)`` naming the file and, for a bad rule, its line.
    public static func withRules(from rulesPath: String?) throws(CommandFailure) -> Redactor {
        guard let rulesPath else { return .standard }
        do {
            return Redactor(rules: RedactionRule.builtIn + (try RedactionRule.load(contentsOf: rulesPath)))
        } catch let error as RedactionRule.RuleError {
            switch error {
            case .invalidLine: throw .message("bad rules file \(error.description)")
            default: throw .message(error.description)
            }
        } catch {
            throw .message("cannot read rules file \(rulesPath): \(error)")
        }
    }
}
