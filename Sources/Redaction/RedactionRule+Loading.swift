import Foundation

extension RedactionRule {
    /// Loads custom rules from a rules file.
    ///
    /// The format, one rule per line (blank lines and lines starting with `#` are skipped):
    ///
    /// ```
    /// # kind<TAB>pattern[<TAB>validator=NAME][<TAB>trigger=TEXT]...
    /// employee_id	EMP-[0-9]{6}	trigger=EMP-
    /// card_ref	card=([0-9 ]{13,23})	validator=luhn	trigger=card=
    /// # or a JSON object on one line:
    /// {"kind": "ticket", "pattern": "TCK-[0-9]{6}", "triggers": ["TCK-"], "validator": "luhn"}
    /// ```
    ///
    /// `kind` is lowercase snake case; `pattern` is an NSRegularExpression (ICU) pattern, and
    /// when it has a capture group only group 1 is replaced; validators are `luhn`, `iban`, `ssn`
    /// and `entropy`. Tabs inside a tab-separated pattern are not possible: use `\t` or JSON.
    ///
    /// - Throws: ``RuleError/unreadableFile(path:reason:)``, or
    ///   ``RuleError/invalidLine(path:line:reason:)`` with the 1-based line of the first bad rule.
    public static func load(contentsOf path: String) throws -> [RedactionRule] {
        try parse(try readRulesFile(path), source: path)
    }

    /// The largest rules file read: far above any list of rules a person writes.
    static let maximumFileBytes = 16 << 20

    /// The text of the rules file at `path`, refused in our own words when it is missing, not a
    /// regular file (a folder, a FIFO, a device: reading one could block or never end), too
    /// large, or not UTF-8.
    private static func readRulesFile(_ path: String) throws -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw RuleError.unreadableFile(
                path: path, reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw RuleError.unreadableFile(path: path, reason: "not a regular file")
        }
        guard info.st_size <= maximumFileBytes else {
            throw RuleError.unreadableFile(path: path, reason: "larger than \(maximumFileBytes >> 20) MB")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RuleError.unreadableFile(path: path, reason: "it cannot be opened")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.readToEnd() ?? Data() } catch {
            throw RuleError.unreadableFile(path: path, reason: "it cannot be read")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw RuleError.unreadableFile(path: path, reason: "not UTF-8 text")
        }
        return text
    }

    /// Parses rules in the format of ``load(contentsOf:)``; `source` names the text in errors.
    public static func parse(_ text: String, source: String = "<rules>") throws -> [RedactionRule] {
        var rules: [RedactionRule] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            do {
                let name = "\(source):\(lineNumber)"
                rules.append(trimmed.hasPrefix("{") ? try jsonRule(trimmed, name: name)
                                                    : try tabRule(line, name: name))
            } catch let error as RuleError {
                let reason: String
                switch error {
                case .invalidLine(_, _, let message): reason = message
                default: reason = error.description
                }
                throw RuleError.invalidLine(path: source, line: lineNumber, reason: reason)
            }
        }
        return rules
    }

    private static func tabRule(_ line: Substring, name: String) throws -> RedactionRule {
        let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard columns.count >= 2, !columns[1].isEmpty else {
            throw RuleError.invalidLine(path: "", line: 0,
                                        reason: "expected kind<TAB>pattern, found no tab-separated pattern")
        }
        var validator: RedactionValidator?
        var triggers: [String] = []
        for option in columns.dropFirst(2) where !option.isEmpty {
            if option.hasPrefix("validator=") {
                validator = try namedValidator(String(option.dropFirst("validator=".count)))
            } else if option.hasPrefix("trigger=") {
                triggers.append(String(option.dropFirst("trigger=".count)))
            } else {
                throw RuleError.invalidLine(path: "", line: 0,
                                            reason: "unknown option '\(option)': use validator= or trigger=")
            }
        }
        return try RedactionRule(kind: String(columns[0]), pattern: String(columns[1]), triggers: triggers,
                                 validator: validator, name: name)
    }

    private static func jsonRule(_ line: Substring, name: String) throws -> RedactionRule {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        } catch {
            throw RuleError.invalidLine(path: "", line: 0, reason: "not a JSON object")
        }
        guard let fields = object as? [String: Any] else {
            throw RuleError.invalidLine(path: "", line: 0, reason: "not a JSON object")
        }
        let known: Set<String> = ["kind", "pattern", "validator", "triggers", "trigger"]
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw RuleError.invalidLine(path: "", line: 0, reason: "unknown field '\(unknown)'")
        }
        guard let kind = fields["kind"] as? String else {
            throw RuleError.invalidLine(path: "", line: 0, reason: "missing string field 'kind'")
        }
        guard let pattern = fields["pattern"] as? String, !pattern.isEmpty else {
            throw RuleError.invalidLine(path: "", line: 0, reason: "missing string field 'pattern'")
        }
        var validator: RedactionValidator?
        if let value = fields["validator"] {
            guard let validatorName = value as? String else {
                throw RuleError.invalidLine(path: "", line: 0, reason: "'validator' must be a string")
            }
            validator = try namedValidator(validatorName)
        }
        var triggers: [String] = []
        if let value = fields["triggers"] {
            guard let list = value as? [String] else {
                throw RuleError.invalidLine(path: "", line: 0,
                                            reason: "'triggers' must be an array of strings")
            }
            triggers = list
        }
        if let value = fields["trigger"] {
            guard let single = value as? String else {
                throw RuleError.invalidLine(path: "", line: 0, reason: "'trigger' must be a string")
            }
            triggers.append(single)
        }
        return try RedactionRule(kind: kind, pattern: pattern, triggers: triggers, validator: validator,
                                 name: name)
    }

    private static func namedValidator(_ name: String) throws -> RedactionValidator {
        guard let validator = RedactionValidator.named[name] else {
            let known = RedactionValidator.named.keys.sorted().joined(separator: ", ")
            throw RuleError.invalidLine(path: "", line: 0,
                                        reason: "unknown validator '\(name)' (known: \(known))")
        }
        return validator
    }
}
