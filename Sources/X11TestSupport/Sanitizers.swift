import Foundation

/// What the test process was built with, for the few checks a sanitizer makes meaningless.
public enum Sanitizers {
    /// Whether AddressSanitizer's runtime is loaded (`swift test --sanitize=address`).
    ///
    /// ASan holds freed memory back in a quarantine (256 MB by default) to catch use after free,
    /// and maps shadow memory for what the process touches, so the resident set of an
    /// instrumented process grows while nothing leaks. A memory-flatness check therefore belongs
    /// to the uninstrumented run; the X resource checks hold under either.
    public static let addressSanitizerActive: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
}
