extension ToolTipInteraction {
    /// A click tooltip turns its view into a control (a click toggles something), so the view
    /// takes keyboard focus: Tab reaches an icon or a label with a click tooltip, as it does a
    /// button. Hover tooltips change nothing (their text also shows when a control is focused).
    public var makesViewFocusable: Bool { trigger == .click && isEnabled }
}
