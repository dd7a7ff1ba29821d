import TraceAnalysis

/// Completion scripts for bash, zsh and fish, made from the subcommands' options and operands,
/// the parts their `--help` is made of, so that no shell offers what the help does not list.
///
/// What a position completes: a subcommand after `trace-report`; after a subcommand its options,
/// and file names for its operands (or the words of a list operand such as `bash|zsh|fish`);
/// after an option with a value, the value's choices (`label|interval`), file names for a path
/// (`FILE`, `STORE`, `DIR`, `PATH`), else nothing.
enum ShellCompletion: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The script for this shell, completing `commands`.
    func script(for commands: [any ReportCommand.Type]) -> String {
        let specs = commands.map(Spec.init)
        switch self {
        case .bash: return Self.bash(specs)
        case .zsh: return Self.zsh(specs)
        case .fish: return Self.fish(specs)
        }
    }

    /// What one subcommand completes.
    private struct Spec {
        var name: String
        var abstract: String
        var options: [OptionSpec]
        /// The operands' words when they are a list of choices; nil for file names.
        var operandChoices: [String]?

        init(_ command: any ReportCommand.Type) {
            name = command.name
            abstract = command.abstract
            options = command.helpOptions
            operandChoices = OptionSpec.choices(in: command.operands)
        }
    }

    private static let header = "completion for trace-report, made by 'trace-report completions"

    private static func bash(_ specs: [Spec]) -> String {
        let names = specs.map(\.name) + ["help", "--help", "--version"]
        var out = """
            # bash \(header) bash'
            _trace_report() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
                local options= operands=
                COMPREPLY=()
                if (( COMP_CWORD == 1 )); then
                    COMPREPLY=($(compgen -W '\(names.joined(separator: " "))' -- "$cur"))
                    return
                fi
                case ${COMP_WORDS[1]} in

            """
        for spec in specs {
            out += "    \(spec.name))\n"
            out += "        options='\(spec.options.map(\.name).joined(separator: " "))'\n"
            out += "        operands='\(spec.operandChoices?.joined(separator: " ") ?? "")'\n"
            let valued = spec.options.filter { !$0.isFlag }
            if !valued.isEmpty {
                out += "        case $prev in\n"
                for option in valued {
                    let action: String
                    if let choices = option.choices {
                        action = "COMPREPLY=($(compgen -W '\(choices.joined(separator: " "))' -- \"$cur\"))"
                    } else if option.takesPath {
                        action = "COMPREPLY=($(compgen -f -- \"$cur\"))"
                    } else {
                        action = ":"
                    }
                    out += "        \(option.name)) \(action); return ;;\n"
                }
                out += "        esac\n"
            }
            out += "        ;;\n"
        }
        out += """
                help) operands='\(specs.map(\.name).joined(separator: " "))' ;;
                *) return ;;
                esac
                if [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                elif [[ -n $operands ]]; then
                    COMPREPLY=($(compgen -W "$operands" -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
            }
            complete -o filenames -F _trace_report trace-report

            """
        return out
    }

    private static func zsh(_ specs: [Spec]) -> String {
        /// Text inside a single-quoted zsh word, brackets turned to parentheses for `[help]`.
        func quoted(_ text: String) -> String {
            text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "(")
                .replacingOccurrences(of: "]", with: ")")
        }
        var out = """
            #compdef trace-report
            # zsh \(header) zsh'
            _trace_report() {
                local -a subcommands
                subcommands=(

            """
        for spec in specs { out += "        '\(spec.name):\(quoted(spec.abstract))'\n" }
        out += """
                )
                if (( CURRENT == 2 )); then
                    _describe -t subcommands 'trace-report subcommand' subcommands
                    return
                fi
                local command=$words[2]
                shift words
                (( CURRENT-- ))
                case $command in

            """
        for spec in specs {
            out += "    \(spec.name))\n        _arguments \\\n"
            for option in spec.options {
                var argument = "\(option.name)[\(quoted(option.help))]"
                if let valueName = option.valueName {
                    if let choices = option.choices {
                        argument += ":\(quoted(valueName)):(\(choices.joined(separator: " ")))"
                    } else {
                        argument += ":\(quoted(valueName)):" + (option.takesPath ? "_files" : " ")
                    }
                }
                out += "            '\(argument)' \\\n"
            }
            if let choices = spec.operandChoices {
                out += "            ':operand:(\(choices.joined(separator: " ")))'\n"
            } else {
                out += "            '*:file:_files'\n"
            }
            out += "        ;;\n"
        }
        out += """
                help) _describe -t subcommands 'trace-report subcommand' subcommands ;;
                esac
            }
            _trace_report "$@"

            """
        return out
    }

    private static func fish(_ specs: [Spec]) -> String {
        /// A single-quoted fish word.
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        var out = "# fish \(header) fish'\ncomplete -c trace-report -f\n"
        out += "complete -c trace-report -n __fish_use_subcommand -l help -d 'show the help'\n"
        out += "complete -c trace-report -n __fish_use_subcommand -l version -d 'show the version'\n"
        for spec in specs {
            out += "complete -c trace-report -n __fish_use_subcommand -a \(spec.name) -d \(quoted(spec.abstract))\n"
        }
        for spec in specs {
            let condition = "-n '__fish_seen_subcommand_from \(spec.name)'"
            for option in spec.options {
                var line = "complete -c trace-report \(condition) -l \(option.name.dropFirst(2))"
                if let choices = option.choices {
                    line += " -x -a \(quoted(choices.joined(separator: " ")))"
                } else if option.takesPath {
                    line += " -r -F"
                } else if !option.isFlag {
                    line += " -x"
                }
                out += line + " -d \(quoted(option.help))\n"
            }
            if let choices = spec.operandChoices {
                out += "complete -c trace-report \(condition) -a \(quoted(choices.joined(separator: " ")))\n"
            } else {
                out += "complete -c trace-report \(condition) -F\n"
            }
        }
        return out
    }
}
