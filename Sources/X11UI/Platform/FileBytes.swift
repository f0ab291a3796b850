internal import Glibc

/// Whole files read into memory: an image's PNG, the font store's answers; and the one way
/// X11UI opens a file it reads.
enum FileBytes {
    /// Opens the file at `path` for reading when it is a regular file of at most `limit` bytes,
    /// and returns its descriptor (the caller closes it) and size; nil otherwise.
    ///
    /// The open cannot block nor be fed: it is non-blocking (a FIFO opens at once and is then
    /// refused, where a blocking open waits for a writer for ever), a device or a folder is
    /// refused before anything is read, and with `followsSymlinks` false a symbolic link is not
    /// followed (refused).
    static func openRegular(_ path: String, atMost limit: Int, followsSymlinks: Bool = true) -> (Int32, Int)? {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (followsSymlinks ? 0 : O_NOFOLLOW)
        let descriptor = open(path, flags)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= limit else {
            close(descriptor)
            return nil
        }
        return (descriptor, Int(status.st_size))
    }

    /// The bytes of the regular file at `path` (see ``openRegular(_:atMost:followsSymlinks:)``);
    /// nil when it cannot be opened or read whole, is not a regular file, or is over `limit`
    /// bytes (then nothing of it is read).
    static func read(_ path: String, atMost limit: Int, followsSymlinks: Bool = true) -> [UInt8]? {
        guard let (descriptor, size) = openRegular(path, atMost: limit, followsSymlinks: followsSymlinks) else {
            return nil
        }
        defer { close(descriptor) }
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var offset = 0
            while offset < size {
                let count = Glibc.read(descriptor, buffer.baseAddress! + offset, size - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                offset += count
            }
            complete = offset == size
            initialized = offset
        }
        return complete ? bytes : nil
    }
}
