/// The web viewer's files, embedded in the binary at build time (SwiftPM `.embedInCode`), so
/// `trace-report export --format html` writes one self-contained file and needs nothing at run
/// time. The files beside this one are the only copy: edit them and rebuild.
package enum ViewerAssets {
    /// One ES module of the viewer: its file name under `viewer/` and its text.
    package typealias Module = (name: String, text: String)

    /// `viewer/index.html`, the page with its `<!-- VIEWER:... -->` marker lines.
    package static let indexHTML = text(PackageResources.index_html)
    /// `viewer/viewer.css`.
    package static let css = text(PackageResources.viewer_css)

    /// The page's modules, each after every module it imports: the order an export inlines them
    /// in. `main.js`, last, starts the page. A new module goes here and in Package.swift's
    /// resources; a test checks that this list names every `viewer/*.js` but the tests' `selftest.js`.
    package static let modules: [Module] = [
        ("format.js", text(PackageResources.format_js)),
        ("style.js", text(PackageResources.style_js)),
        ("geometry.js", text(PackageResources.geometry_js)),
        ("view.js", text(PackageResources.view_js)),
        ("instructions.js", text(PackageResources.instructions_js)),
        ("money.js", text(PackageResources.money_js)),
        ("model.js", text(PackageResources.model_js)),
        ("hit-test.js", text(PackageResources.hit_test_js)),
        ("labels.js", text(PackageResources.labels_js)),
        ("canvas.js", text(PackageResources.canvas_js)),
        ("bars.js", text(PackageResources.bars_js)),
        ("badges.js", text(PackageResources.badges_js)),
        ("overview.js", text(PackageResources.overview_js)),
        ("timeline.js", text(PackageResources.timeline_js)),
        ("dom.js", text(PackageResources.dom_js)),
        ("panels.js", text(PackageResources.panels_js)),
        ("details.js", text(PackageResources.details_js)),
        ("table.js", text(PackageResources.table_js)),
        ("diff.js", text(PackageResources.diff_js)),
        ("input.js", text(PackageResources.input_js)),
        ("main.js", text(PackageResources.main_js)),
    ]

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
