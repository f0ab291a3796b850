// The parts of the toolkit that need no X server live in their own module, X11UICore, which
// cannot import CX11. A program that imports X11UI sees its public types (Point, Size, Rect,
// ToolTipPlacement, ToolTipTimings, MonotonicInstant) as part of X11UI.
@_exported import X11UICore
