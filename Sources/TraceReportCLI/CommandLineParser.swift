import TraceAnalysis
import TraceModel

/// One option a subcommand accepts: a flag (`--json`) or an option with a value (`--width 100`).
struct OptionSpec: Sendable, Hashable {
    /// The long name, with its dashes: `--width`.
    var name: String
    /// Shown in help after the name, `N` in `--width N`; nil for a flag.
    var valueName: String?
    /// One line for `--help`.
    var help: String
    /// True when the command cannot run without it; usage lines show it without brackets.
    var isRequired = false

    /// A flag, `--json`.
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    /// An optional option with a value, `--width N`.
    static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help)
    }

    /// An option with a value that the command needs, `--baseline FILE`.
    static func required(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, isRequired: true)
    }

    var isFlag: Bool { valueName == nil }

    /// The option as a usage line shows it: `--width N`, or `[--width N]` when it is optional.
    var synopsis: String {
        isRequired ? label : "[\(label)]"
    }

    /// The values a shell may complete for it, when its value name lists them: `label|interval`.
    var choices: [String]? {
        guard let valueName else { return nil }
        return Self.choices(in: valueName)
    }

    /// The words of `text` when it is a list of choices such as `bash|zsh|fish`, else nil.
    static func choices(in text: String) -> [String]? {
        let words = text.split(separator: "|").map(String.init)
        guard words.count > 1, words.allSatisfy({ $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" } })
        else { return nil }
        return words
    }

    /// The name and value name, as the help lists them: `--width N`.
    var label: String { valueName.map { "\(name) \($0)" } ?? name }

    /// True when its value is a path, so a shell completes file names.
    var takesPath: Bool {
        ["FILE", "STORE", "DIR", "PATH"].contains(valueName ?? "")
    }
}

/// A subcommand's arguments after parsing: flags seen, option values, and positionals in order.
struct ParsedArguments: Sendable, Hashable {
    fileprivate(set) var flags: Set<String> = []
    fileprivate(set) var values: [String: String] = [:]
    var positionals: [String] = []
    /// True when `--help` or `-h` was given: the command prints its help and nothing else.
    var wantsHelp = false

    init() {}

    /// Whether `option`, a flag, was given. Options are read through their declarations, so a
    /// name is spelled once, where the command declares it.
    func flag(_ option: OptionSpec) -> Bool { flags.contains(option.name) }
    /// The value given to `option`; nil when absent.
    func value(_ option: OptionSpec) -> String? { values[option.name] }

    /// The value of an option the command cannot run without (``OptionSpec/required(_:_:_:)``).
    func required(_ option: OptionSpec) throws(UsageError) -> String {
        guard let value = values[option.name] else { throw UsageError("\(option.label) is required") }
        return value
    }

    /// The value of `option` as a whole number in `range`, `fallback` when absent.
    func int(_ option: OptionSpec, default fallback: Int, in range: ClosedRange<Int> = 1...Int.max)
        throws(UsageError) -> Int
    {
        let name = option.name
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(name) needs a whole number from \(range.lowerBound)"
                + (range.upperBound == .max ? " up" : " to \(range.upperBound)") + ", not '\(TerminalText.sanitized(text))'")
        }
        return value
    }

    /// The value of `option` as a number in `range`, `fallback` when absent.
    func double(_ option: OptionSpec, default fallback: Double, in range: ClosedRange<Double>)
        throws(UsageError) -> Double
    {
        let name = option.name
        guard let text = values[name] else { return fallback }
        guard let value = Double(text), range.contains(value) else {
            throw UsageError("\(name) needs a number from \(range.lowerBound) to \(range.upperBound), "
                + "not '\(TerminalText.sanitized(text))'")
        }
        return value
    }

    /// The value of `option` as a duration (`1.5s`, `250ms`, `40us`, `1m`, plain seconds), in ns.
    func duration(_ option: OptionSpec) throws(UsageError) -> Int64? {
        let name = option.name
        guard let text = values[name] else { return nil }
        guard let nanoseconds = CommandLineParser.parseDuration(text) else {
            throw UsageError("\(name) needs a duration like 1.5s, 250ms or 40us, not '\(TerminalText.sanitized(text))'")
        }
        return nanoseconds
    }

    /// The one store path the analysis subcommands take.
    func storePath() throws(UsageError) -> String {
        guard let path = positionals.first else { throw UsageError("no store given; name a .sqlite file") }
        guard positionals.count == 1 else {
            throw UsageError("one store at a time, but \(positionals.count) were given")
        }
        return path
    }
}

/// A small, strict parser for `trace-report`'s command lines, by hand so the package needs nothing
/// from outside.
///
/// Accepts `--name value`, `--name=value`, flags, `-h`/`--help`, and `--` before positionals that
/// begin with a dash. Unknown options, missing values and values given to flags are errors.
enum CommandLineParser {
    static func parse(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "--help" || argument == "-h" { parsed.wantsHelp = true; continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = byName[name] else {
                throw UsageError("unknown option \(TerminalText.sanitized(name))"
                    + Suggestion.clause(for: name, among: options.map(\.name)))
            }
            if option.isFlag {
                if inlineValue != nil { throw UsageError("\(name) takes no value") }
                parsed.flags.insert(name)
            } else if let inlineValue {
                parsed.values[name] = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError("\(name) needs a value (\(option.valueName ?? "value"))")
                }
                parsed.values[name] = arguments[index]
                index += 1
            }
        }
        return parsed
    }

    /// Nanoseconds of `text`: a number with a unit `ns`, `us`/`µs`, `ms`, `s` or `m`; a bare number
    /// is seconds.
    static func parseDuration(_ text: String) -> Int64? {
        let units: [(String, Double)] = [
            ("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9),
        ]
        var number = text
        var scale = 1e9
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            number = String(text.dropLast(suffix.count))
            scale = factor
            break
        }
        guard !number.isEmpty, let value = Double(number), value.isFinite, value >= 0 else { return nil }
        let nanoseconds = value * scale
        guard nanoseconds < 9.2e18 else { return nil }
        return Int64(nanoseconds.rounded())
    }
}
