import Foundation
import Testing

/// Headless Chromium, started by the test for each page and stopped by its PID.
///
/// The viewer's test driver (`viewer/selftest.js`, which `exportHTML` puts in the tests' exports;
/// `#selftest=...` in the URL) performs clicks and key presses inside the page and writes what the
/// details panel then shows into `<output id="selftest">`, so one `--dump-dom` after a
/// virtual-time budget is enough to read the outcome.
enum Chromium {
    /// The browser's path, or nil when it is not installed.
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let missingMessage: Comment =
        "chromium is not installed; run scripts/install-deps.sh (Debian package chromium)"

    /// The serialized DOM of `file` after its scripts ran, with `fragment` as the URL's hash.
    static func dumpDOM(_ file: String, fragment: String = "", budget: Int = 5_000) throws -> DOM {
        try dumpDOM(url: URL(fileURLWithPath: file).absoluteString + (fragment.isEmpty ? "" : "#" + fragment),
                    budget: budget)
    }

    /// The serialized DOM of the page at `url` after its scripts ran.
    static func dumpDOM(url: String, budget: Int = 5_000) throws -> DOM {
        DOM(html: try run(url, extra: ["--virtual-time-budget=\(budget)", "--dump-dom"]))
    }

    /// The browser's window, and so every screenshot's size.
    static let window = (width: 1400, height: 900)

    /// Saves a screenshot of `file`, the window's size, to `png`.
    ///
    /// Every screenshot is held to what a drawn page gives: a PNG of the window's size, and more
    /// than a blank page's bytes (an empty page of this size compresses to about 6 KB; a drawn
    /// viewer to 80 KB and more).
    static func screenshot(_ file: String, fragment: String = "", to png: String) throws {
        let url = URL(fileURLWithPath: file).absoluteString + (fragment.isEmpty ? "" : "#" + fragment)
        _ = try run(url, extra: ["--virtual-time-budget=3000", "--screenshot=\(png)"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
        try #require(bytes.count > 24 && bytes.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            "\(png) is not a PNG")
        let size = (bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, bytes[20..<24].reduce(0) { $0 << 8 | Int($1) })
        #expect(size == window, "\(png) is \(size.0)x\(size.1)")
        #expect(bytes.count > 20_000, "\(png) holds \(bytes.count) bytes: a blank page")
    }

    /// One browser at a time across every suite: two cores, and the scale test times a page.
    private static let oneAtATime = NSLock()

    private static func run(_ url: String, extra: [String]) throws -> String {
        guard let path else { throw ChromiumError.notInstalled }
        oneAtATime.lock()
        defer { oneAtATime.unlock() }
        let profile = FileManager.default.temporaryDirectory
            .appendingPathComponent("viewer-chromium-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(profile)", "--window-size=\(window.width),\(window.height)", "--hide-scrollbars",
        ] + extra + [url]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        // A hung browser must not hang the test run: stop this one process after 90 s.
        let watchdog = DispatchWorkItem { if process.isRunning { kill(pid, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        guard process.terminationStatus == 0 else {
            throw ChromiumError.failed(status: process.terminationStatus, url: url)
        }
        return String(decoding: data, as: UTF8.self)
    }
}

enum ChromiumError: Error, CustomStringConvertible {
    case notInstalled
    case failed(status: Int32, url: String)

    var description: String {
        switch self {
        case .notInstalled: "chromium is not installed; run scripts/install-deps.sh"
        case .failed(let status, let url): "chromium exited with status \(status) on \(url)"
        }
    }
}

/// A page's serialized DOM, read with plain string searches: the viewer's markup is small and
/// its own, so the tests look for exact attributes it writes.
struct DOM {
    let html: String

    /// Occurrences of `needle`.
    func count(_ needle: String) -> Int {
        html.components(separatedBy: needle).count - 1
    }

    /// `<li>` elements of the event list of `kind` (request, tool, handoff, interval, session).
    func events(_ kind: String) -> Int {
        count("<li data-kind=\"\(kind)\"")
    }

    /// The value of attribute `name` on the first element whose start tag contains `marker`.
    func attribute(_ name: String, of marker: String) -> String? {
        guard let start = html.range(of: marker) else { return nil }
        let tagStart = html[..<start.lowerBound].lastIndex(of: "<") ?? start.lowerBound
        guard let tagEnd = html[start.lowerBound...].firstIndex(of: ">") else { return nil }
        let tag = html[tagStart..<tagEnd]
        guard let found = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[found.upperBound...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<close])
    }

    /// The number in attribute `name` of the timeline canvas (`data-drawn-request`...).
    func canvas(_ name: String) -> Int? {
        attribute(name, of: "id=\"lanes\"").flatMap { Int($0) }
    }

    func body(_ name: String) -> String? {
        attribute(name, of: "<body")
    }

    func selfTest(_ name: String) -> String? {
        attribute(name, of: "id=\"selftest\"")
    }

    /// The text the self-test wrote: the details panel, one `label: value` per line.
    var selfTestText: String {
        guard let start = html.range(of: "id=\"selftest\""),
            let open = html[start.upperBound...].firstIndex(of: ">"),
            let close = html[open...].range(of: "</output>")
        else { return "" }
        return Self.unescape(String(html[html.index(after: open)..<close.lowerBound]))
    }

    /// The value after `label: ` in the self-test text.
    func detail(_ label: String) -> String? {
        for line in selfTestText.split(separator: "\n") where line.hasPrefix(label + ": ") {
            return String(line.dropFirst(label.count + 2))
        }
        return nil
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&nbsp;", with: "\u{a0}")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
