import Reproducible
import WebViewer

/// The web viewer as one self-contained HTML file: `viewer/index.html` with the stylesheet and
/// the modules inlined (combined into one script by ``ViewerScript``) and the trace data
/// embedded, openable from disk with no network.
///
/// ```swift
/// let html = try ViewerDocument.html(data: ViewerData.build([trace]))
/// ```
///
/// The page's Content-Security-Policy allows nothing but its own inline script and style, by
/// SHA-256 hash: no network, no other script, no remote image. The data sits in a
/// `<script type="application/json">` element, which never runs, with `<`, `>` and `&` escaped so
/// that trace text cannot close the element; the viewer reads it with `JSON.parse` and shows
/// strings through `textContent` only.
public enum ViewerDocument {
    /// viewer/ is broken: the template lacks a marker line that the export replaces, an asset would
    /// end its inline element, or a module's line is outside the form ``ViewerScript`` combines.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case missingMarker(String)
        case unsafeAsset(file: String, text: String)
        case moduleForm(file: String, line: Int, text: String, reason: String)

        public var description: String {
            switch self {
            case .missingMarker(let marker):
                "viewer/index.html has no line ending in <!-- VIEWER:\(marker) -->"
            case .unsafeAsset(let file, let text):
                "viewer/\(file) contains \(text), which would end its inline element early"
            case .moduleForm(let file, let line, let text, let reason):
                "viewer/\(file):\(line): \(reason): \(text)"
            }
        }
    }

    /// The markers of `viewer/index.html`: each line ending in `<!-- VIEWER:NAME -->` is replaced
    /// whole by the export.
    static let markers = ["CSP", "STYLE", "DATA", "SCRIPT"]

    /// The export's HTML, from the embedded viewer files and `data`.
    public static func html(data: ViewerData) throws(Failure) -> String {
        try html(data: data, testDriver: nil)
    }

    /// The export's HTML; with `testDriver`, the page also carries that module after the viewer's
    /// own: the browser tests pass `viewer/selftest.js`, read from the checkout, which steers the
    /// page (`#selftest=…`). The binary carries no driver of its own.
    package static func html(data: ViewerData, testDriver: ViewerAssets.Module?) throws(Failure) -> String {
        let modules = ViewerAssets.modules + (testDriver.map { [$0] } ?? [])
        return try html(
            dataJSON: data.json.compact(escapingHTML: true), template: ViewerAssets.indexHTML,
            css: ViewerAssets.css, javaScript: try ViewerScript.combine(modules))
    }

    /// The export's HTML from the given viewer files and script (the modules combined); `dataJSON`
    /// must already be HTML-escaped (``OrderedJSON/compact(escapingHTML:)``).
    public static func html(
        dataJSON: String, template: String, css: String, javaScript: String
    ) throws(Failure) -> String {
        if javaScript.lowercased().contains("</script") {
            throw .unsafeAsset(file: "*.js", text: "</script")
        }
        if css.lowercased().contains("</style") { throw .unsafeAsset(file: "viewer.css", text: "</style") }
        precondition(
            !dataJSON.utf8.contains(UInt8(ascii: "<")), "the data must be serialized with escapingHTML")
        let script = "\n" + javaScript
        let style = "\n" + css
        let policy = contentSecurityPolicy(script: script, style: style)
        let replacements: [String: String] = [
            "CSP": "<meta http-equiv=\"Content-Security-Policy\" content=\"\(policy)\">",
            "STYLE": "<style>\(style)</style>",
            "DATA": "<script type=\"application/json\" id=\"trace-data\">\(dataJSON)</script>",
            "SCRIPT": "<script>\(script)</script>",
        ]
        var seen = Set<String>()
        var out = ""
        let assets = template.utf8.count + css.utf8.count + javaScript.utf8.count
        out.reserveCapacity(assets + dataJSON.utf8.count + 512)
        for line in template.split(separator: "\n", omittingEmptySubsequences: false) {
            if let marker = marker(of: line), let replacement = replacements[marker] {
                seen.insert(marker)
                out += replacement
            } else {
                out += line
            }
            out += "\n"
        }
        out.removeLast()
        for marker in markers where !seen.contains(marker) { throw .missingMarker(marker) }
        return out
    }

    /// The policy of an export: nothing allowed but the inline script and style with these hashes.
    public static func contentSecurityPolicy(script: String, style: String) -> String {
        "default-src 'none'; script-src 'sha256-\(SHA256.base64(script))'; "
            + "style-src 'sha256-\(SHA256.base64(style))'; img-src 'none'; connect-src 'none'; "
            + "base-uri 'none'; form-action 'none'"
    }

    private static func marker(of line: Substring) -> String? {
        let prefix = "<!-- VIEWER:"
        guard line.hasSuffix(" -->") else { return nil }
        var index = line.startIndex
        while let open = line[index...].firstIndex(of: "<") {
            let rest = line[open...]
            if rest.hasPrefix(prefix) { return String(rest.dropFirst(prefix.count).dropLast(4)) }
            index = line.index(after: open)
        }
        return nil
    }
}
