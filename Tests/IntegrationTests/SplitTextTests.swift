import Foundation
import Testing
import X11TestSupport

/// `tools/release-link/split-text.py` on an object the C compiler writes with all its functions in one
/// `.text` (static functions calling each other, which the assembler resolves without a
/// relocation; a switch compiled to a jump table; function pointers in data; a function with
/// no symbol of its own is not something C makes, the Swift library's objects have those), and
/// `tools/release-link/check-split.py` comparing a link of it with a link of the original.
///
/// The split library must run as the original does (each is loaded with Python's ctypes and
/// called), the checker must find them the same, and find a program that differs in one call
/// different.
@Suite(.serialized)
struct SplitTextTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    var work: URL { root.appendingPathComponent(".build/split-text-test") }

    static let source = """
        static int twice(int x) { return x * 2 + 1; }
        static int thrice(int x) { return x * 3 - 1; }
        static int square(int x) { return x * x; }
        typedef int (*step)(int);
        /* Function pointers in data: absolute relocations to .text. */
        static step const steps[] = { twice, thrice, square };
        __attribute__((noinline)) static int pick(int which, int x) {
            /* A jump table: dense cases. */
            switch (which) {
            case 0: return twice(x) + 7;
            case 1: return thrice(x) ^ 5;
            case 2: return square(x) - 3;
            case 3: return twice(thrice(x));
            case 4: return thrice(square(x));
            case 5: return square(twice(x)) + 11;
            case 6: return x - 9;
            case 7: return x * 13;
            case 8: return x / 3 + 2;
            default: return -x;
            }
        }
        __attribute__((noinline)) static int chain(int x) {
            int total = 0;
            for (int i = 0; i < 3; i++) total += steps[i](x + i);
            return total;
        }
        int entry(int which, int x) { return pick(which, x) + chain(x) * (OFFSET); }
        """

    /// Runs a shell command in the work folder; its status and output together.
    func shell(_ command: String) throws -> (status: Int32?, output: String) {
        let log = work.appendingPathComponent("shell.log").path
        try? FileManager.default.removeItem(atPath: log)
        let child = try ChildProcess(
            "/bin/sh", ["-c", "cd '\(work.path)' && \(command)"], stdout: .file(log), stderr: .file(log))
        let status = child.wait(timeout: 300)
        return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    @Test(.timeLimit(.minutes(5)))
    func aSplitObjectLinksAndRunsAsTheOriginalDoes() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try Self.source.write(to: work.appendingPathComponent("sample.c"), atomically: true, encoding: .utf8)
        let scripts = root.appendingPathComponent("tools/release-link").path
        let lld = "\"$(dirname \"$(readlink -f \"$(command -v swiftc)\")\")/ld.lld\""
        // The original, the split and a program differing in one multiplication each in a folder
        // of its own under one name: the checker knows a function by its object's name.
        let prepare = try shell(
            """
            set -e
            mkdir -p original split other
            flags="-O2 -fPIC -fno-function-sections -fno-reorder-blocks-and-partition"
            cc $flags -DOFFSET=1 -c sample.c -o original/sample.o
            cc $flags -DOFFSET=2 -c sample.c -o other/sample.o
            python3 '\(scripts)/split-text.py' original/sample.o split/sample.o
            nm --defined-only split/sample.o | awk '$2 ~ /^[tT]$/ { print $3 }' | tac > order.txt
            \(lld) -shared -o reference.so -Map reference.map original/sample.o
            \(lld) -shared -o other.so -Map other.map other/sample.o
            \(lld) -shared --no-warn-symbol-ordering --symbol-ordering-file=order.txt -o split.so \\
                -Map split.map split/sample.o
            readelf -SW original/sample.o | grep -c ' \\.text\\.' || true
            readelf -SW split/sample.o | grep -c ' \\.text\\.'
            """)
        #expect(prepare.status == 0, "\(prepare.output)")
        guard prepare.status == 0 else { return }
        let counts = prepare.output.split(separator: "\n").compactMap { Int($0) }
        #expect(counts.count == 2 && counts[0] == 0 && counts[1] >= 5, "sections before and after: \(counts)")

        // The same results, called through ctypes, for every case of the switch.
        let run = try shell(
            """
            /usr/bin/python3 -c '
            import ctypes
            a = ctypes.CDLL("./reference.so"); b = ctypes.CDLL("./split.so")
            results = [(a.entry(w, x), b.entry(w, x)) for w in range(-1, 11) for x in range(-4, 5)]
            assert all(p == q for p, q in results), results
            print("calls", len(results))
            '
            """)
        #expect(run.status == 0 && run.output.contains("calls 108"), "\(run.output)")

        // The checker finds the two the same, and a program that differs, different.
        let same = try shell(
            "python3 '\(scripts)/check-split.py' reference.so reference.map split.so split.map split/sample.o")
        #expect(same.status == 0, "\(same.output)")
        #expect(same.output.contains(" 0 differ"), "\(same.output)")
        let tables = same.output.firstMatch(of: /check-split: (\d+) jump tables, (\d+) cases compared/)
        #expect((tables.flatMap { Int($0.1) } ?? 0) >= 1, "\(same.output)")
        #expect((tables.flatMap { Int($0.2) } ?? 0) >= 9, "\(same.output)")
        let different = try shell(
            "python3 '\(scripts)/check-split.py' other.so other.map split.so split.map split/sample.o")
        #expect(different.status == 1, "\(different.output)")
    }
}
