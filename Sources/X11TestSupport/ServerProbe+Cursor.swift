import CX11
import CXTest

extension ServerProbe {
    /// The cursor the server shows (XFixes): its size, hot spot, pixels and name.
    public struct CursorImage: Sendable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public var hotSpot: (x: Int, y: Int)
        /// Premultiplied ARGB, row by row.
        public var pixels: [UInt32]
        /// The name the cursor was given (libXcursor names the cursors it loads from a theme:
        /// `"text"`); empty for the server's own cursors.
        public var name: String
        /// The server's number for this cursor (it changes when another cursor shows).
        public var serial: UInt

        /// The colours of the opaque pixels (ARGB, alpha 255), most frequent first.
        public var opaqueColors: [UInt32] {
            var counts: [UInt32: Int] = [:]
            for pixel in pixels where pixel >> 24 == 0xff { counts[pixel, default: 0] += 1 }
            return counts.sorted { $0.value > $1.value }.map(\.key)
        }

        public var description: String {
            let colors = opaqueColors.prefix(3).map { String($0 & 0xff_ffff, radix: 16) }
            return "\(width)x\(height) hot \(hotSpot) \"\(name)\" colours \(colors)"
        }
    }

    /// The cursor the server shows now; nil without XFixes.
    public func cursorImage() -> CursorImage? {
        var event: Int32 = 0
        var error: Int32 = 0
        guard XFixesQueryExtension(display, &event, &error) != 0, let image = XFixesGetCursorImage(display) else {
            return nil
        }
        defer { XFree(image) }
        let info = image.pointee
        let count = Int(info.width) * Int(info.height)
        // XFixes hands the pixels out as C longs, 32 bits of ARGB each.
        let pixels = (0..<count).map { UInt32(truncatingIfNeeded: info.pixels[$0]) }
        return CursorImage(
            width: Int(info.width), height: Int(info.height), hotSpot: (Int(info.xhot), Int(info.yhot)),
            pixels: pixels, name: info.name.map { String(cString: $0) } ?? "", serial: info.cursor_serial)
    }
}
