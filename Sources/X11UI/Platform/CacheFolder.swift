internal import Glibc

/// A folder of the user's cache that X11UI keeps files in (the font store's), written so that
/// nobody else can choose what is written where.
///
/// - The folder is used only when it is the user's own and not writable by group or others:
///   X11UI makes the folders it needs with mode 0700, and one it finds otherwise (mode 0777, or
///   another user's) is one warning and is neither read nor written (``refusal(of:)``).
/// - A file is replaced whole: written to a new temporary file beside it, then renamed over
///   it, so a program reading it meanwhile reads the old or the new one whole. The temporary
///   file has a random name and is created exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode
///   0600): a file, hard link or symbolic link placed at a guessed name beforehand is never
///   opened, so its target is never written; another random name is tried instead.
/// - Every step goes through a descriptor of the folder opened once (`openat`, `renameat`):
///   the folder checked is the folder written.
struct CacheFolder {
    let path: String

    /// Why the folder at `path` may not be used (another user's, or writable by others), or
    /// nil when it may, or is not there yet.
    static func refusal(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return refusal(ofOpen: descriptor)
    }

    private static func refusal(ofOpen descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return "it cannot be examined" }
        if status.st_uid != geteuid() { return "it belongs to another user" }
        if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return "others may write in it (mode 0" + String(status.st_mode & 0o7777, radix: 8) + ")"
        }
        return nil
    }

    /// The warning for a folder that is not used.
    static func warning(_ path: String, _ refusal: String) -> String {
        "the cache folder \(Log.quoted(path)) is not used: \(refusal)"
    }

    /// Writes `bytes` as the file `name` of the folder (made first when missing, with mode
    /// 0700), replacing it whole; returns whether it was written. A folder that may not be used
    /// is one warning and nothing is written.
    func write(_ bytes: [UInt8], as name: String) -> Bool {
        guard Self.makeFolders(path) else { return false }
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
        guard folder >= 0 else { return false }
        defer { close(folder) }
        if let refusal = Self.refusal(ofOpen: folder) {
            Log.warning(Self.warning(path, refusal))
            return false
        }
        for _ in 0..<8 {
            let temporary = "\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp"
            let descriptor = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor < 0, errno == EEXIST { continue }
            guard descriptor >= 0 else { return false }
            let written = Self.writeAll(bytes, to: descriptor)
            close(descriptor)
            guard written, renameat(folder, temporary, folder, name) == 0 else {
                unlinkat(folder, temporary, 0)
                return false
            }
            return true
        }
        return false
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// The names of the files in the folder that start with `prefix` and do not end with
    /// `.tmp`, with their modification times (seconds).
    func files(named prefix: String) -> [(name: String, changed: Int)] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var found: [(name: String, changed: Int)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix), !name.hasSuffix(".tmp") else { continue }
            var status = stat()
            guard fstatat(dirfd(directory), name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            found.append((name, status.st_mtim.tv_sec))
        }
        return found
    }

    /// Removes the file `name` of the folder.
    func remove(_ name: String) {
        unlink(path + "/" + name)
    }

    /// Creates `folder` and the folders above it that are missing, readable by the user alone.
    private static func makeFolders(_ folder: String) -> Bool {
        var status = stat()
        if stat(folder, &status) == 0 { return (status.st_mode & S_IFMT) == S_IFDIR }
        guard let slash = folder.lastIndex(of: "/"), slash > folder.startIndex else { return false }
        guard makeFolders(String(folder[..<slash])) else { return false }
        return mkdir(folder, 0o700) == 0 || errno == EEXIST
    }
}
