import Foundation
import TraceScenarios

// Writes every scenario store into the directory named on the command line:
// `swift run make-scenarios tracefiles/scenarios` (scripts/make-scenarios.sh).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let directory = arguments.first else {
    FileHandle.standardError.write(Data("usage: make-scenarios DIRECTORY\n".utf8))
    exit(2)
}
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
for scenario in Scenario.allCases {
    let path = directory + "/" + scenario.fileName
    try await scenario.write(to: path)
    print("wrote \(path)  \(scenario.summary)")
}
