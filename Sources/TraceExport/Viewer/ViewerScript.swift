/// The viewer's ES modules (`viewer/*.js`) as the one inline script of an export.
///
/// An inline script cannot import by URL, so the export combines the modules, and each module
/// keeps to a strict form that makes the combining a line-by-line rewrite:
///
/// - An import is one line at the start of a line, `import { a, b } from './name.js';`, naming
///   a module that comes earlier in the order and only names that module exports: no renaming
///   with `as`, no default or namespace import, no dynamic `import(` or `import.meta`.
/// - An export is a declaration at the start of a line: `export function name`,
///   `export const name` or `export class name`. No `export default`, `export {…}`,
///   `export let` (a binding that changes) or re-export.
/// - No other line starts with `import` or `export`, indented or not.
///
/// The combined script gives each module its own function scope, as the browser gives a module,
/// so names private to two modules never meet:
///
/// ```
/// 'use strict';
/// (() => {
/// const combinedModules = {};
/// combinedModules['format.js'] = (() => {
/// …format.js, each `export ` dropped…
/// return { num, str, formatDuration };
/// })();
/// combinedModules['model.js'] = (() => {
/// const { num, str } = combinedModules['format.js'];   // was: import { num, str } from './format.js';
/// …
/// ```
///
/// A line keeps its number within its module, so a browser's error points near the file's line.
enum ViewerScript {
    /// The modules, in order, as one script; throws on a line outside the form above or an asset
    /// that contains `</script`.
    static func combine(_ modules: [(name: String, text: String)]) throws(ViewerDocument.Failure) -> String {
        let importLine =
            #/import \{ ([A-Za-z_$][A-Za-z0-9_$]*(?:, [A-Za-z_$][A-Za-z0-9_$]*)*) \} from '\.\/([a-z][a-z0-9-]*\.js)';/#
        let exportLine = #/export (?:function|const|class) ([A-Za-z_$][A-Za-z0-9_$]*)(?:[ (=].*)?/#
        var exports: [String: Set<String>] = [:]
        var out = "'use strict';\n(() => {\nconst combinedModules = {};\n"
        for module in modules {
            if module.text.lowercased().contains("</script") {
                throw .unsafeAsset(file: module.name, text: "</script")
            }
            var names: [String] = []
            out += "combinedModules['\(module.name)'] = (() => {\n"
            var number = 0
            for line in module.text.split(separator: "\n", omittingEmptySubsequences: false) {
                number += 1
                let failure = { (reason: String) in
                    ViewerDocument.Failure.moduleForm(file: module.name, line: number, text: String(line), reason: reason)
                }
                if line.contains("import(") || line.contains("import.meta") {
                    throw failure("a dynamic import cannot be combined")
                }
                let trimmed = line.drop { $0 == " " || $0 == "\t" }
                guard startsWithKeyword(trimmed, "import") || startsWithKeyword(trimmed, "export") else {
                    out += line
                    out += "\n"
                    continue
                }
                guard trimmed.count == line.count else { throw failure("an import or export starts its line") }
                if let match = line.wholeMatch(of: importLine) {
                    let source = String(match.output.2)
                    guard let available = exports[source] else {
                        throw failure("'\(source)' is not a module earlier in ViewerAssets.modules")
                    }
                    let imported = match.output.1.split(separator: ", ").map(String.init)
                    if let missing = imported.first(where: { !available.contains($0) }) {
                        throw failure("'\(source)' exports no '\(missing)'")
                    }
                    out += "const { \(match.output.1) } = combinedModules['\(source)'];\n"
                } else if let match = line.wholeMatch(of: exportLine) {
                    names.append(String(match.output.1))
                    out += line.dropFirst("export ".count)
                    out += "\n"
                } else {
                    throw failure(
                        "not one of the forms `import { a, b } from './name.js';`, `export function|const|class name`")
                }
            }
            out += "return { \(names.joined(separator: ", ")) };\n})();\n"
            exports[module.name] = Set(names)
        }
        out += "})();\n"
        return out
    }

    /// True when `line` starts with `keyword` as a word (`import {`, `export const`, `import*`).
    private static func startsWithKeyword(_ line: Substring, _ keyword: String) -> Bool {
        guard line.hasPrefix(keyword) else { return false }
        guard let next = line.dropFirst(keyword.count).first else { return true }
        return !(next.isLetter || next.isNumber || next == "_" || next == "$" || next == "." || next == "(")
    }
}
