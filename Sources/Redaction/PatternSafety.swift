/// Rejects custom patterns that a backtracking engine (ICU, under NSRegularExpression) can take
/// exponential time on, so a rules file handed over in a pull request cannot hang `redact`.
///
/// The accepted subset keeps a pattern's running time polynomial in the text's length:
/// - no backreference (`\1`, `\k<name>`): matching with them is NP-hard in general;
/// - no repeated group whose body can itself match in more than one way: a group under `*`, `+`
///   or `{n,m}` (m > 1) may hold neither a repetition of its own nor an alternation. `(a+)+$`,
///   `(a|aa)+$` and `(\w+\s?)*` are refused; `(ab)+`, `[a-z]+@` and `(?:ab|cd)` (not repeated) pass.
///
/// A refused pattern can almost always be written in the subset: `(a+)+` matches what `a+` does,
/// and `(foo|bar)+` what `(?:foo|bar)(?:foo|bar)*` does not need to (`[a-z]+` with a trigger).
enum PatternSafety {
    /// Why `pattern` is refused, in one clause; nil when it is in the subset.
    static func refusal(of pattern: String) -> String? {
        /// What the group being read holds so far.
        struct Group {
            var repeats = false
            var alternates = false
        }
        var stack = [Group()]
        let characters = Array(pattern.unicodeScalars)
        var index = 0
        /// The quantifier at `index`, if any: whether it repeats (a maximum above 1), and its length.
        func quantifier(at index: Int) -> (repeats: Bool, length: Int)? {
            guard index < characters.count else { return nil }
            var length: Int
            var repeats: Bool
            switch characters[index] {
            case "*", "+":
                (repeats, length) = (true, 1)
            case "?":
                (repeats, length) = (false, 1)
            case "{":
                guard let close = characters[index...].firstIndex(of: "}") else { return nil }
                let body = String(String.UnicodeScalarView(characters[(index + 1)..<close]))
                let bounds = body.split(separator: ",", omittingEmptySubsequences: false)
                guard (1...2).contains(bounds.count), bounds.allSatisfy({ $0.allSatisfy(\.isNumber) }),
                    !bounds[0].isEmpty
                else { return nil }
                repeats = bounds.count == 2 ? (bounds[1].isEmpty || Int(bounds[1]).map { $0 > 1 } ?? true)
                    : (Int(bounds[0]).map { $0 > 1 } ?? true)
                length = close - index + 1
            default:
                return nil
            }
            // A lazy or possessive suffix changes the order of tries, not their number.
            if index + length < characters.count, ["?", "+"].contains(characters[index + length]) { length += 1 }
            return (repeats, length)
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                guard index + 1 < characters.count else { return nil }
                let next = characters[index + 1]
                if ("1"..."9").contains(next) || next == "k" {
                    return "it has a backreference, which can take exponential time"
                }
                index += 2
                if let (repeats, length) = quantifier(at: index) {
                    if repeats { stack[stack.count - 1].repeats = true }
                    index += length
                }
                continue
            case "[":
                // A class is one character, whatever it lists: skip to its closing bracket.
                index += 1
                if index < characters.count, characters[index] == "^" { index += 1 }
                if index < characters.count, characters[index] == "]" { index += 1 }
                while index < characters.count, characters[index] != "]" {
                    index += characters[index] == "\\" ? 2 : 1
                }
                index += 1
            case "(":
                stack.append(Group())
                index += 1
                continue
            case ")":
                guard stack.count > 1 else { return nil }
                let group = stack.removeLast()
                index += 1
                if let (repeats, length) = quantifier(at: index) {
                    if repeats && (group.repeats || group.alternates) {
                        return "a repeated group holds a repetition or an alternation of its own (as in "
                            + "(a+)+ or (a|aa)+), which can take exponential time; repeat its body alone"
                    }
                    index += length
                    stack[stack.count - 1].repeats = stack[stack.count - 1].repeats || repeats || group.repeats
                } else {
                    stack[stack.count - 1].repeats = stack[stack.count - 1].repeats || group.repeats
                }
                stack[stack.count - 1].alternates = stack[stack.count - 1].alternates || group.alternates
                continue
            case "|":
                stack[stack.count - 1].alternates = true
                index += 1
                continue
            default:
                index += 1
            }
            if let (repeats, length) = quantifier(at: index) {
                if repeats { stack[stack.count - 1].repeats = true }
                index += length
            }
        }
        return nil
    }
}
