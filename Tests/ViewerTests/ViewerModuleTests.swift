import Foundation
import TestSupport
import Testing
import TraceReportCLI

@testable import TraceAnalysis
@testable import TraceExport

/// The viewer as ES modules: the node tests of its pure modules, the rule the export combines
/// them by, and which modules an export carries.
@Suite("Viewer modules")
struct ViewerModuleTests {
    @Test("node --test runs the pure modules' tests (viewer/tests), and every one passes")
    func nodeTests() throws {
        let result = try runProgram("/usr/bin/env", ["node", "--test", "viewer/tests/"])
        try #require(!result.err.contains("env: 'node'"), "node is not installed (Node 20 at /usr/bin/node)")
        #expect(result.status == 0, "node --test failed:\n\(result.out)\(result.err)")
        let ran = result.out.split(separator: "\n").first { $0.hasPrefix("# tests ") }.flatMap { Int($0.dropFirst(8)) }
        #expect((ran ?? 0) > 0, "node --test ran no test:\n\(result.out)")
        #expect(result.out.contains("\n# fail 0\n"))
    }

    @Test("modules combine into one script, each in a scope of its own, imports read from earlier ones")
    func combine() throws {
        let script = try ViewerScript.combine([
            ("a.js", "// A.\nexport const ONE = 1;\nconst hidden = 2;\nexport function twice(x) { return x * 2; }\n"),
            ("b-c.js", "import { ONE, twice } from './a.js';\n\nexport class Box {}\nconsole.log(twice(ONE));"),
        ])
        #expect(script == """
            'use strict';
            (() => {
            const combinedModules = {};
            combinedModules['a.js'] = (() => {
            // A.
            const ONE = 1;
            const hidden = 2;
            function twice(x) { return x * 2; }

            return { ONE, twice };
            })();
            combinedModules['b-c.js'] = (() => {
            const { ONE, twice } = combinedModules['a.js'];

            class Box {}
            console.log(twice(ONE));
            return { Box };
            })();
            })();

            """)
    }

    @Test("a line outside the form is refused, with its file and line", arguments: [
        ("export default function f() {}", "not one of the forms"),
        ("export { f };", "not one of the forms"),
        ("export let count = 0;", "not one of the forms"),
        ("export const { a, b } = pair;", "not one of the forms"),
        ("export * from './a.js';", "not one of the forms"),
        ("import a from './a.js';", "not one of the forms"),
        ("import * as a from './a.js';", "not one of the forms"),
        ("import { ONE as one } from './a.js';", "not one of the forms"),
        ("import {", "not one of the forms"),
        ("import { ONE } from \"./a.js\";", "not one of the forms"),
        ("    export function f() {}", "starts its line"),
        ("import { ONE } from './c.js';", "'c.js' is not a module earlier"),
        ("import { TWO } from './a.js';", "'a.js' exports no 'TWO'"),
        ("const m = await import('./a.js');", "dynamic import"),
        ("console.log(import.meta.url);", "dynamic import"),
    ])
    func refusesOtherForms(_ line: String, _ reason: String) {
        let modules = [("a.js", "export const ONE = 1;\n"), ("b.js", "// B.\n\(line)\n"), ("c.js", "export const C = 3;\n")]
        let error = #expect(throws: ViewerDocument.Failure.self) { try ViewerScript.combine(modules) }
        guard case .moduleForm(let file, let number, let text, let why)? = error else {
            Issue.record("not a module-form failure: \(String(describing: error))")
            return
        }
        #expect(file == "b.js" && number == 2 && text == line)
        #expect(why.contains(reason), "\(why)")
    }

    @Test("a module that could close its inline element is refused")
    func refusesScriptEnd() {
        let error = #expect(throws: ViewerDocument.Failure.self) {
            try ViewerScript.combine([("a.js", "const s = '</SCRIPT>';\n")])
        }
        guard case .unsafeAsset(let file, _)? = error else {
            Issue.record("not an unsafe-asset failure: \(String(describing: error))")
            return
        }
        #expect(file == "a.js")
    }

    @Test("what trace-report writes carries every module but the test driver; a test export carries it too")
    func testDriverOnlyInTestExports() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("small.sqlite")
        try writeSmallStore(store)
        let shipped = directory.path("shipped.html")
        let tested = directory.path("tested.html")
        _ = try exportHTML([store], to: shipped, testDriver: false)
        _ = try exportHTML([store], to: tested)
        let shippedPage = try String(contentsOfFile: shipped, encoding: .utf8)
        let testedPage = try String(contentsOfFile: tested, encoding: .utf8)
        let files = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/viewer")
            .filter { $0.hasSuffix(".js") }
        #expect(files.count >= 5 && files.contains("main.js") && files.contains("selftest.js"))
        for file in files {
            let combined = "combinedModules['\(file)'] = "
            #expect(testedPage.contains(combined), "the test export lacks \(file)")
            #expect(shippedPage.contains(combined) == (file != "selftest.js"), "\(file) in the shipped export")
        }
        #expect(!shippedPage.contains("selftest"))
        #expect(testedPage.contains("/(?:^|&)selftest=([^&]*)/"))
    }
}
