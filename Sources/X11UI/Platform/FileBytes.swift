internal import Glibc

/// Whole files read into memory: an image's PNG, the font store's answers.
enum FileBytes {
    /// The bytes of the regular file at `path`; nil when it cannot be opened or read whole, is
    /// not a regular file, or is over `limit` bytes.
    static func read(_ path: String, atMost limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= limit else {
            return nil
        }
        let size = Int(status.st_size)
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
