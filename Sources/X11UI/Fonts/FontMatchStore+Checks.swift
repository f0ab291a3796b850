internal import CX11
internal import Glibc

/// What a store's answers depend on, and the checksum its file ends with.
extension FontMatchStore {
    // MARK: - What the answers depend on

    /// The paths fontconfig's answers depend on: its configuration's files and their folders,
    /// its font folders (with every folder under them) and the user's configuration files,
    /// whether there or not (creating one changes the answers).
    static func configurationPaths() -> [String] {
        var paths: [String] = []
        var seen: Set<String> = []
        func add(_ path: String) {
            if seen.insert(path).inserted { paths.append(path) }
        }
        func each(_ list: OpaquePointer?, _ body: (String) -> Void) {
            guard let list else { return }
            defer { FcStrListDone(list) }
            while let next = FcStrListNext(list) {
                body(next.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) })
            }
        }
        let home = getenv("HOME").map { String(cString: $0) }
        // A file's folder, for the files added there (a `conf.d`, `/etc/fonts/local.conf`); not
        // the home folder (`~/.fonts.conf`), which changes all the time, and where only the
        // two names below are read.
        each(FcConfigGetConfigFiles(nil)) { file in
            add(file)
            if let slash = file.lastIndex(of: "/"), slash > file.startIndex, file[..<slash] != home ?? "" {
                add(String(file[..<slash]))
            }
        }
        each(FcConfigGetConfigDirs(nil)) { add($0) }
        each(FcConfigGetFontDirs(nil)) { add($0) }
        let configHome =
            getenv("XDG_CONFIG_HOME").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? home.map { $0 + "/.config" }
        if let configHome {
            add(configHome + "/fontconfig")
            add(configHome + "/fontconfig/fonts.conf")
            add(configHome + "/fontconfig/conf.d")
        }
        if let home {
            add(home + "/.fonts.conf")
            add(home + "/.fonts.conf.d")
            add(home + "/.fonts")
        }
        return paths
    }

    /// A path's device, inode, size and modification and change times; `-` when it is not
    /// there.
    static func state(of path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "-" }
        return "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
            + ":\(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec)"
    }

    /// The checksum of a string, 16 hexadecimal digits.
    static func hexHash(_ text: String) -> String { hexDigits(checksum(Array(text.utf8)[...])) }

    /// A number as 16 lowercase hexadecimal digits.
    static func hexDigits(_ number: UInt64) -> String {
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    // MARK: - The checksum

    /// `bytes` with a last line that is their checksum: `end`, a space, 16 hexadecimal digits.
    static func sealed(_ bytes: [UInt8]) -> [UInt8] {
        bytes + Array("end \(hexDigits(checksum(bytes[...])))\n".utf8)
    }

    /// How many bytes of `bytes` come before its checksum line, when that line is the last and
    /// is their checksum; nil otherwise (a file cut short, or with a byte changed).
    static func sealedLength(of bytes: [UInt8]) -> Int? {
        let lineLength = 21  // "end " + 16 digits + "\n"
        guard bytes.count >= lineLength, bytes.last == UInt8(ascii: "\n") else { return nil }
        let start = bytes.count - lineLength
        guard start == 0 || bytes[start - 1] == UInt8(ascii: "\n"),
            bytes[start..<(start + 4)].elementsEqual("end ".utf8),
            let stored = FontPatternText.hexNumber(bytes[(start + 4)..<(bytes.count - 1)])
        else { return nil }
        return stored == checksum(bytes[..<start]) ? start : nil
    }

    /// A checksum of `bytes`, eight at a time: each step is a bijection of the running value,
    /// so a file that differs from the one written in any single word never checks. (Not a
    /// defence against an attacker, who could write the folder's files anyway: against a disk,
    /// a crash or a hand that changed them.)
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { buffer in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var offset = 0
            while offset + 8 <= buffer.count {
                hash = (hash ^ buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
                hash ^= hash >> 29
                offset += 8
            }
            while offset < buffer.count {
                hash = (hash ^ UInt64(buffer[offset])) &* 0x100_0000_01b3
                hash ^= hash >> 29
                offset += 1
            }
            return hash
        }
    }
}
