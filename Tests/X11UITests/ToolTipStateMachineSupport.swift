@testable import X11UI

extension ToolTipStateMachine {
    /// Applies `input` as the driver does with a delegate that always has content for the region
    /// asked about: every `.ask` and `.reask` is answered at once. Returns the effects of the input
    /// and of the answers, in order.
    mutating func run(_ input: Input, now: MonotonicInstant) -> [Effect] {
        var effects = reduce(input, now: now)
        var index = 0
        while index < effects.count {
            switch effects[index] {
            case .ask(let s), .reask(let s): effects += reduce(.answer(.content(region: s.region)), now: now)
            default: break
            }
            index += 1
        }
        return effects
    }
}
