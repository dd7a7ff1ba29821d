import Foundation
import Testing
import TraceScenarios

/// JSON output version 2 writes every 64-bit id as a string: a JavaScript or Python-float reader
/// would round an integer above 2^53. Every `--json` output of every scenario store is walked,
/// evidence included, and must hold no integer above it.
@Suite("No integer above 2^53 in any --json")
struct JSONIntegerTests {
    static let commands = ["check", "cache", "tools", "summary", "capped", "growth", "timeline"]

    @Test(arguments: Scenario.allCases)
    func everyOutputKeepsItsIntegersExact(scenario: Scenario) throws {
        for command in Self.commands {
            let result = report([command, "--json", scenarioPath(scenario)])
            try #require(result.status != .usageOrInput, "\(command): \(result.err)")
            let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8))
            var beyond: [String] = []
            Self.walk(object, path: command, into: &beyond)
            #expect(beyond.isEmpty, "\(scenario.fileName): \(beyond.prefix(5))")
        }
    }

    /// The paths of integers above 2^53 in `value`.
    static func walk(_ value: Any, path: String, into beyond: inout [String]) {
        switch value {
        case let object as [String: Any]:
            for (key, member) in object { walk(member, path: path + "." + key, into: &beyond) }
        case let array as [Any]:
            for element in array { walk(element, path: path + "[]", into: &beyond) }
        case let number as NSNumber where !(value is Bool):
            let double = number.doubleValue
            if double == double.rounded(), abs(double) > 9_007_199_254_740_992 { beyond.append(path) }
        default:
            break
        }
    }
}
