import Foundation
import Testing

/// The README's Swift examples compile as written: each is the `main.swift` of an executable in a
/// new package that depends on this checkout by path, with the products its imports name.
///
/// The package lives in `.build/readme-examples`, so that after the first run (which builds the
/// dependency, a few minutes) a run only compiles the examples again.
@Suite("README examples")
struct ReadmeExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every fenced `swift` block of the README that imports a module: the code a reader copies.
    static func examples() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        return text.components(separatedBy: "```swift\n").dropFirst()
            .map { $0.components(separatedBy: "```")[0] }
            .filter { $0.split(separator: "\n").contains { $0.hasPrefix("import ") } }
    }

    /// The modules `example` imports that are targets of this package.
    static func ownModules(_ example: String) -> [String] {
        example.split(separator: "\n").filter { $0.hasPrefix("import ") }
            .map { String($0.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces) }
            .filter { FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/\($0)").path) }
    }

    /// Writes `text` to `url` unless it already holds it, so an unchanged example is not rebuilt.
    static func write(_ text: String, to url: URL) throws {
        if (try? String(contentsOf: url, encoding: .utf8)) == text { return }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The README shows both ways in: our session with the middleware, and a client that is not ours
    /// traced with `withRequest`, which needs no `ModelSession` at all. The build below builds both.
    @Test func theExamplesWrapOurSessionAndAClientThatIsNotOurs() throws {
        let examples = try Self.examples()
        #expect(examples.contains { Self.ownModules($0).contains("SessionInstrumentation") })
        #expect(
            examples.contains {
                $0.contains(".withRequest(") && !Self.ownModules($0).contains("ModelSession")
                    && !Self.ownModules($0).contains("SessionInstrumentation")
            })
    }

    @Test func everyExampleBuildsInANewPackage() throws {
        let examples = try Self.examples()
        try #require(!examples.isEmpty, "the README has no Swift example")
        let package = Self.root.appendingPathComponent(".build/readme-examples")
        let identity = Self.root.lastPathComponent.lowercased()
        var targets: [String] = []
        for (index, example) in examples.enumerated() {
            let name = "example\(index + 1)"
            try Self.write(example, to: package.appendingPathComponent("Sources/\(name)/main.swift"))
            let products = Self.ownModules(example).map { ".product(name: \"\($0)\", package: \"\(identity)\")" }
            targets.append(".executableTarget(name: \"\(name)\", dependencies: [\(products.joined(separator: ", "))])")
        }
        try Self.write(
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "readme-examples",
                dependencies: [.package(path: "\(Self.root.path)")],
                targets: [
                    \(targets.joined(separator: ",\n        "))
                ],
                swiftLanguageModes: [.v6])

            """, to: package.appendingPathComponent("Package.swift"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", "1500", "swift", "build", "--package-path", package.path]
        let log = package.appendingPathComponent("build.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
        process.waitUntilExit()
        let output = try String(contentsOf: log, encoding: .utf8)
        let errors = output.split(separator: "\n").filter { $0.contains("error:") }
        #expect(process.terminationStatus == 0, "\(errors.prefix(5).joined(separator: "\n"))\n\(output.suffix(2000))")
        #expect(errors.isEmpty)
    }
}
