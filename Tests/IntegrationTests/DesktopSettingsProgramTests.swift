import Foundation
import Testing
import X11TestSupport

/// The demo under a desktop settings manager, watched from outside: it opens at the manager's
/// scale, and a malformed or hostile settings property is one warning line while the program
/// lives on with the settings it had.
@Suite(.serialized)
final class DesktopSettingsProgramTests {
    /// The demo's window as the server has it.
    func window(of session: ProgramSession) throws -> ServerProbe.WindowInfo {
        let id = try #require(session.program.windows.first)
        return try #require(session.probe.info(id))
    }

    @Test func theDemoOpensAtTwiceItsSizeUnderAManagerAt192DPI() throws {
        let plain = try ProgramSession(arguments: ["--scene", "sample"], readyView: "buy-button")
        let buyAt96 = try plain.frame("buy-button")
        let scaled = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "buy-button", xsettings: ["Xft/DPI": .integer(192 * 1024)])
        let buyAt192 = try scaled.frame("buy-button")
        // Twice the size, but for text: glyphs at 26 px are hinted and rounded on their own.
        let said = "\(buyAt96) at 96 dpi, \(buyAt192) at 192"
        #expect(abs(buyAt192.width - 2 * buyAt96.width) <= 6, "\(said)")
        #expect(abs(buyAt192.height - 2 * buyAt96.height) <= 6, "\(said)")
        #expect(buyAt192.x == 2 * buyAt96.x, "\(said)")
        #expect(abs(buyAt192.y - 2 * buyAt96.y) <= 6, "\(said)")
        #expect(scaled.program.standardError.isEmpty, "\(scaled.program.standardError)")
    }

    @Test func aMalformedPropertyIsOneWarningAndTheProgramKeepsItsSettings() throws {
        let session = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "buy-button", xsettings: ["Xft/DPI": .integer(192 * 1024)])
        let manager = try #require(session.settingsManager)
        let program = session.program
        let before = try window(of: session)
        let warnings = { program.standardError.split(separator: "\n").filter { $0.contains("XSETTINGS") } }

        // Four billion settings announced in a few bytes.
        let hostile: [UInt8] = [0, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]
        manager.writeRaw(hostile)
        #expect(wait(timeout: 5) { !warnings().isEmpty })
        #expect(warnings().count == 1, "\(warnings())")
        #expect(warnings().first?.contains("malformed") == true)
        // The same again is not reported again; the program lives, with its settings.
        manager.writeRaw(hostile)
        manager.writeRaw([UInt8](repeating: 0, count: 3), type: "STRING")
        #expect(wait(timeout: 5) { warnings().count == 2 }, "another malformed property: \(warnings())")
        #expect(holds(for: 0.3) { warnings().count == 2 }, "\(warnings())")
        #expect(program.process.isRunning)
        #expect(try window(of: session).frame == before.frame, "the 192 dpi settings stay")

        // Still answering: a hover tooltip, and the next good property followed.
        let buy = try session.frame("buy-button")
        session.probe.movePointer(to: buy.midX, buy.midY)
        #expect(session.waitForToolTip() != nil)
        manager.set(["Xft/DPI": .integer(96 * 1024), "Net/DoubleClickTime": .integer(-3)])
        #expect(wait(timeout: 5) { (try? self.window(of: session).frame.width) == before.frame.width / 2 })
        #expect(wait(timeout: 5) { warnings().count == 3 })
        #expect(warnings().last?.contains("Net/DoubleClickTime: -3 is not milliseconds from 1 to 10000") == true)
    }
}
