#if canImport(Glibc)
    import Glibc
#endif

/// Writes an export file readable by its owner only, as stores are: exports carry the same
/// timings, names and (redacted) text.
public enum ExportFile {
    /// Writes `text` to `path` through a temporary file in the same directory, created mode 0600
    /// and renamed over `path`, so a reader never sees half a file and an existing file with wider
    /// permissions is replaced, not reused.
    ///
    /// - Throws: ``ExportError`` with the path and the system's reason.
    public static func write(_ text: String, to path: String) throws(ExportError) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create", path) }
        var text = text
        let written: Bool = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        let error = errno
        guard written, close(descriptor) == 0 else {
            unlink(temporary)
            errno = error
            throw failure("cannot write", path)
        }
        guard rename(temporary, path) == 0 else {
            let error = errno
            unlink(temporary)
            errno = error
            throw failure("cannot write", path)
        }
    }

    /// True when `first` and `second` name the same existing file.
    public static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    private static func failure(_ what: String, _ path: String) -> ExportError {
        ExportError("\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
