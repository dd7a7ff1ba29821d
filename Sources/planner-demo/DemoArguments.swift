/// The planner demo's command line, parsed by hand.
struct DemoArguments {
    var storePath = "planner.sqlite"
    var lttngDirectory: String?
    var serverURL: String?
    var label: String?
    var capturePayloads = false
    var economyAfterTurns = 2
    var searchBudget = 4
    /// Filler notes added to the plan session's instructions: a prompt-bloat regression on demand.
    var bloatNotes = 0
    /// The plan session's response cap outside economy mode.
    var maximumResponseTokens = 160
    /// Extra arguments for the llama.cpp server the demo starts, such as another sampling setting.
    var serverArguments: [String] = []

    static let usage = """
        usage: planner-demo [--store PATH] [--lttng DIR] [--server URL] [--label TEXT]
                            [--economy-after N] [--search-budget N] [--capture-payloads]
                            [--bloat N] [--max-tokens N] [--server-args TEXT]

        Runs the day-planner agent against SmolLM2-135M on a local llama.cpp server (started on a
        free loopback port unless --server names one), recording every request, tool call and
        handoff to a SQLite store and, with --lttng, to an LTTng session written to DIR.

          --store PATH         the store to write (default planner.sqlite; appended to if it exists)
          --lttng DIR          also record to LTTng: start a session daemon if none runs, trace into DIR
          --server URL         use a running OpenAI-compatible server instead of starting one
          --label TEXT         the run's label, for baselines and gates
          --economy-after N    turns of the plan session before economy mode (default 2)
          --search-budget N    search_notes calls allowed in the run (default 4)
          --capture-payloads   record prompts, responses and tool text, redacted (off by default)
          --bloat N            pad the plan session's instructions with N filler notes (default 0)
          --max-tokens N       the plan session's response cap before economy mode (default 160)
          --server-args TEXT   more arguments for the llama.cpp server it starts, split at spaces
                               ('--repeat-penalty 1.3': the same agent, other answers, as on another CPU)
        """

    enum ParseError: Error, CustomStringConvertible {
        case missingValue(option: String)
        case notANumber(option: String, value: String)
        case unknownOption(String)

        var description: String {
            switch self {
            case .missingValue(let option): "\(option) needs a value"
            case .notANumber(let option, let value): "\(option) takes a whole number, not '\(value)'"
            case .unknownOption(let option): "unknown option '\(option)'"
            }
        }
    }

    /// Parses `arguments` (without the program name); nil means `--help` was asked for.
    static func parse(_ arguments: [String]) throws(ParseError) -> DemoArguments? {
        var parsed = DemoArguments()
        var rest = arguments[...]
        func value(_ option: String) throws(ParseError) -> String {
            guard let value = rest.popFirst() else { throw .missingValue(option: option) }
            return value
        }
        func number(_ option: String) throws(ParseError) -> Int {
            let text = try value(option)
            guard let number = Int(text), number >= 0 else { throw .notANumber(option: option, value: text) }
            return number
        }
        while let option = rest.popFirst() {
            switch option {
            case "--help", "-h": return nil
            case "--store": parsed.storePath = try value(option)
            case "--lttng": parsed.lttngDirectory = try value(option)
            case "--server": parsed.serverURL = try value(option)
            case "--label": parsed.label = try value(option)
            case "--economy-after": parsed.economyAfterTurns = try number(option)
            case "--search-budget": parsed.searchBudget = try number(option)
            case "--capture-payloads": parsed.capturePayloads = true
            case "--bloat": parsed.bloatNotes = try number(option)
            case "--max-tokens": parsed.maximumResponseTokens = max(1, try number(option))
            case "--server-args": parsed.serverArguments = try value(option).split(separator: " ").map(String.init)
            default: throw .unknownOption(option)
            }
        }
        return parsed
    }
}
