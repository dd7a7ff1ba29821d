/// The web viewer's files, embedded in the binary at build time (SwiftPM `.embedInCode`), so
/// `trace-report export --format html` writes one self-contained file and needs nothing at run
/// time. The files beside this one are the only copy: edit them and rebuild.
package enum ViewerAssets {
    /// `viewer/index.html`, the page with its `<!-- VIEWER:... -->` marker lines.
    package static let indexHTML = String(decoding: PackageResources.index_html, as: UTF8.self)
    /// `viewer/viewer.css`.
    package static let css = String(decoding: PackageResources.viewer_css, as: UTF8.self)
    /// `viewer/viewer.js`.
    package static let javaScript = String(decoding: PackageResources.viewer_js, as: UTF8.self)
}
