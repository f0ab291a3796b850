import CX11
import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// libXrandr, libXfixes and FriBidi are opened with dlopen on first use, never linked: each
/// loader finds every function it declares, a missing library is nil (the feature degrades)
/// rather than a trap, and Latin text never maps FriBidi.
@Suite struct LazyLibraryTests {
    @Test func theInstalledLibrariesLoadWithEveryFunction() throws {
        let randr = try #require(LoadedLibrary("libXrandr.so.2", empty: cx11_randr(), load: cx11_randr_load))
        #expect(randr.functions.library != nil)
        #expect(randr.functions.get_monitors != nil && randr.functions.update_configuration != nil)
        let xfixes = try #require(LoadedLibrary("libXfixes.so.3", empty: cx11_xfixes(), load: cx11_xfixes_load))
        #expect(xfixes.functions.select_selection_input != nil)
        let fribidi = try #require(LoadedLibrary("libfribidi.so.0", empty: cx11_fribidi(), load: cx11_fribidi_load))
        #expect(fribidi.functions.reorder_line != nil && fribidi.functions.get_bidi_type != nil)
        let xcursor = try #require(LoadedLibrary("libXcursor.so.1", empty: cx11_xcursor(), load: cx11_xcursor_load))
        #expect(xcursor.functions.file_load_images != nil && xcursor.functions.images_load_cursor != nil)
    }

    @Test func aMissingLibraryIsNilAndLeavesTheTableEmpty() {
        #expect(LoadedLibrary("libXrandr.so.0-absent", empty: cx11_randr(), load: cx11_randr_load) == nil)
        #expect(LoadedLibrary("libXfixes.so.0-absent", empty: cx11_xfixes(), load: cx11_xfixes_load) == nil)
        #expect(LoadedLibrary("libfribidi.so.0-absent", empty: cx11_fribidi(), load: cx11_fribidi_load) == nil)
        var table = cx11_randr()
        #expect(cx11_randr_load(&table, "libXrandr.so.0-absent") == 0)
        #expect(table.library == nil && table.query_extension == nil && table.update_configuration == nil)
        // A library that lacks one of the functions is refused as a whole (libXfixes has no
        // XRRGetMonitors).
        #expect(cx11_randr_load(&table, "libXfixes.so.3") == 0)
        #expect(table.library == nil && table.query_extension == nil)
    }

    @Test func withoutFriBidiTheBidiFunctionsChangeNothing() {
        let none = cx11_fribidi()
        let logical: [UInt32] = Array("שלום abc".unicodeScalars.map(\.value))
        var visual = [UInt32](repeating: 0, count: logical.count)
        var map = [Int32](repeating: 0, count: logical.count)
        var levels = [Int8](repeating: 0, count: logical.count)
        var rtl: Int32 = 7
        let done = withUnsafePointer(to: none) {
            cx11_bidi_line($0, logical, Int32(logical.count), -1, 1, &visual, &map, &levels, &rtl)
        }
        #expect(done == 0 && rtl == 0)
        #expect(withUnsafePointer(to: none) { cx11_bidi_strong_direction($0, 0x05D0) } == -1)
    }

    /// The paragraph direction decided without FriBidi (a Latin letter first, or no
    /// right-to-left character) agrees with the one it gives.
    @Test(arguments: [
        ("é שלום", false), ("Ωmega שלום", false), ("\u{2067}שלום\u{2069}", false), ("\u{202B}abc", false),
        ("\u{202B}שלום", true), ("12 (שלום)", true), ("abc\nשלום", false), ("日本 שלום", false),
    ])
    func aParagraphsDirectionWithTheLatinShortcut(text: String, rightToLeft: Bool) {
        #expect(Bidi.paragraphIsRightToLeft(text[...]) == rightToLeft)
    }

    /// In a fresh process: laying out Latin text and asking its direction (as the layout and
    /// the accessibility bridge do) leaves libfribidi out of the address space; the first
    /// Hebrew line maps it and comes out in display order.
    @Test func friBidiIsMappedOnlyOnceRightToLeftTextIsLaidOut() async {
        await #expect(processExitsWith: .success) {
            func friBidiMapped() -> Bool {
                memoryMap()?.contains("libfribidi.so") ?? true
            }
            let clean = await MainActor.run { () -> Bool in
                guard !friBidiMapped() else { return false }
                for text in ["The quick brown fox jumps over the lazy dog.", "Grüße, 12 + 3 = 15", "日本語の文章、한국어"] {
                    let layout = TextLayout(text: text, measurer: SevenPixelClusters(), maxWidth: 60)
                    guard layout.lines.allSatisfy({ !$0.isRightToLeft }) else { return false }
                    _ = Bidi.paragraphIsRightToLeft(text[...])
                    _ = Bidi.visualLine(text[...])
                }
                guard !friBidiMapped() else { return false }
                let hebrew = TextLayout(text: "שלום עולם", measurer: SevenPixelClusters(), maxWidth: 1000)
                guard hebrew.lines.count == 1, hebrew.lines[0].isRightToLeft,
                    hebrew.lines[0].displayText == "םלוע םולש"
                else { return false }
                return friBidiMapped()
            }
            if !clean { exit(1) }
        }
    }
}
