import Foundation
import Synchronization
import Testing
import X11TestSupport

@testable import X11UI

/// Standard error is the whole process's. In a process of several threads X11UI never points it
/// elsewhere, not even while Xlib opens a display (where libxcb writes a refusal to it): another
/// thread's words would land in X11UI's capture, and two opens at once could leave it pointing
/// into a pipe nobody reads.
@Suite struct StandardErrorTests {
    /// The file standard error is (device and inode).
    static func standardErrorFile() -> (UInt, UInt) {
        var info = stat()
        guard fstat(2, &info) == 0 else { return (0, 0) }
        return (UInt(info.st_dev), UInt(info.st_ino))
    }

    @Test func theTestProcessRunsSeveralThreads() {
        #expect(StandardErrorCapture.threadCount() > 1)
    }

    @Test @MainActor func opensOnSeveralThreadsLeaveStandardErrorWhereItWas() throws {
        let before = Self.standardErrorFile()
        let refusing = try FakeServer(.refuse("not today"))
        let silent = try FakeServer(.silent)
        let watching = Atomic<Bool>(true)
        let moved = Atomic<Int>(0)
        // Another thread looks at standard error all along, and opens displays of its own.
        let watcher = Thread {
            while watching.load(ordering: .relaxed) {
                if Self.standardErrorFile() != before { moved.add(1, ordering: .relaxed) }
            }
        }
        watcher.start()
        let opener = Thread {
            for _ in 0..<10 { _ = try? DisplayConnection(name: silent.display, timeout: .milliseconds(20)) }
        }
        opener.start()
        for _ in 0..<3 {
            #expect(throws: X11UIError.connectionRefused(name: refusing.display, reason: "not today")) {
                try DisplayConnection(name: refusing.display, timeout: .seconds(2))
            }
        }
        let deadline = MonotonicInstant.now() + .seconds(5)
        while !opener.isFinished, MonotonicInstant.now() < deadline { usleep(1000) }
        watching.store(false, ordering: .relaxed)
        let moves = moved.load(ordering: .relaxed)
        #expect(moves == 0, "standard error pointed elsewhere \(moves) times")
        #expect(Self.standardErrorFile() == before)
        refusing.stop()
        silent.stop()
    }
}
