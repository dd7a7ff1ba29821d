import CSQLite

/// What went wrong with a store, as one sentence naming its path.
public typealias StoreError = StoreReader.StoreError

extension StoreReader {
    /// What went wrong opening or reading a store; every case names the file, and `description`
    /// is one sentence a CLI can print as it is.
    public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
        /// No file at `path`.
        case fileNotFound(path: String)
        /// The writer could not create or open `path` for writing (the system's reason).
        case cannotCreate(path: String, reason: String)
        /// SQLite could not open `path` (its reason).
        case cannotOpen(path: String, reason: String)
        /// `path` is not a SessionTrace store: not a database, empty, or without a schema version.
        case notAStore(path: String, reason: String)
        /// `path` is a store, but damaged, for example truncated by an interrupted copy.
        case corrupt(path: String, reason: String)
        /// `path` was written by a newer SessionTrace whose schema this version cannot read.
        case newerSchema(path: String, found: Int64, supported: Int64)
        /// A statement on `path` failed; `code` is SQLite's result code.
        case sqlite(path: String, code: Int32, message: String)

        /// The file the error is about.
        public var path: String {
            switch self {
            case .fileNotFound(let path), .cannotCreate(let path, _), .cannotOpen(let path, _),
                .notAStore(let path, _), .corrupt(let path, _), .newerSchema(let path, _, _),
                .sqlite(let path, _, _):
                path
            }
        }

        public var description: String {
            switch self {
            case .fileNotFound(let path):
                "\(path) does not exist"
            case .cannotCreate(let path, let reason):
                "\(path) cannot be created as a SessionTrace store (\(reason))"
            case .cannotOpen(let path, let reason):
                "\(path) cannot be opened (\(reason))"
            case .notAStore(let path, let reason):
                "\(path) is not a SessionTrace store (\(reason))"
            case .corrupt(let path, let reason):
                "\(path) is a damaged SessionTrace store (\(reason))"
            case .newerSchema(let path, let found, let supported):
                "\(path) has schema version \(found), newer than this tool's \(supported); upgrade SessionTrace"
            case .sqlite(let path, _, let message):
                "a statement on \(path) failed (\(message))"
            }
        }

        /// True when other connections held the store locked past the busy timeout.
        var isBusy: Bool {
            if case .sqlite(_, let code, _) = self { code & 0xFF == SQLITE_BUSY } else { false }
        }

        /// Classifies a SQLite failure: a file that is no database, a damaged one, or anything else.
        init(path: String, code: Int32, message: String) {
            switch code & 0xFF {
            case SQLITE_NOTADB: self = .notAStore(path: path, reason: message)
            case SQLITE_CORRUPT: self = .corrupt(path: path, reason: message)
            default: self = .sqlite(path: path, code: code, message: message)
            }
        }
    }
}
