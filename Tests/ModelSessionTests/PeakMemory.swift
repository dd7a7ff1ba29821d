import Foundation

/// The process's peak resident memory (`VmHWM`), which Linux lets a process reset: the most a
/// piece of work held at once, measured around it.
enum PeakMemory {
    /// Starts a new peak at the current resident size (`echo 5 > /proc/self/clear_refs`).
    static func reset() throws {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// The peak resident size since the last reset, in bytes.
    static func bytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw CocoaError(.fileReadCorruptFile) }
        return kilobytes * 1024
    }

    /// How much the peak rose while `work` ran.
    static func growth(during work: () async throws -> Void) async throws -> Int {
        try reset()
        let before = try bytes()
        try await work()
        return try bytes() - before
    }
}
