import Foundation

/// The llama-server binary and the GGUF model it loads.
struct ServerPaths {
    var server: String
    var model: String

    /// Configuration first, then the environment, then `scripts/model-server.sh paths`.
    static func resolve(_ configuration: LlamaServer.Configuration) throws -> ServerPaths {
        let environment = ProcessInfo.processInfo.environment
        var server = configuration.serverPath ?? environment["SESSIONTRACE_LLAMA_SERVER"]
        var model = configuration.modelPath ?? environment["SESSIONTRACE_MODEL"]
        if server == nil || model == nil {
            let fromScript = try fromModelServerScript()
            server = server ?? fromScript.server
            model = model ?? fromScript.model
        }
        let paths = ServerPaths(server: server!, model: model!)
        guard FileManager.default.isExecutableFile(atPath: paths.server) else {
            throw LlamaServer.Error.binaryMissing(path: paths.server)
        }
        guard FileManager.default.fileExists(atPath: paths.model) else {
            throw LlamaServer.Error.modelMissing(path: paths.model)
        }
        return paths
    }

    /// Runs `scripts/model-server.sh paths` and parses `SERVER=... MODEL=...`.
    static func fromModelServerScript() throws -> ServerPaths {
        guard let root = packageRoot() else {
            throw LlamaServer.Error.pathsUnknown(
                reason:
                    "no package root with scripts/model-server.sh above \(#filePath) or the current directory"
            )
        }
        let script = root + "/scripts/model-server.sh"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, "paths"]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch {
            throw LlamaServer.Error.pathsUnknown(reason: "cannot run \(script): \(error)")
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return try parse(output, script: script)
    }

    static func parse(_ output: String, script: String) throws -> ServerPaths {
        let line = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix("SERVER="), let modelRange = line.range(of: " MODEL=") else {
            throw LlamaServer.Error.pathsUnknown(reason: "\(script) printed \"\(line)\"")
        }
        let server = String(line[line.index(line.startIndex, offsetBy: 7)..<modelRange.lowerBound])
        return ServerPaths(server: server, model: String(line[modelRange.upperBound...]))
    }

    /// Walks up from this source file, then from the current directory, to the package root.
    static func packageRoot() -> String? {
        let starts = [
            URL(fileURLWithPath: #filePath).deletingLastPathComponent(),
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        ]
        for start in starts {
            var directory = start.standardizedFileURL
            while directory.path != "/" {
                let candidate = directory.appendingPathComponent("scripts/model-server.sh").path
                if FileManager.default.fileExists(atPath: candidate) { return directory.path }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }
}
