/// The tooltip interactions the state machine knows, by id, held weakly: the machine names its
/// sources by id alone, and the controller looks their interactions up here.
@MainActor
struct ToolTipInteractionRegistry {
    private var table: [UInt64: WeakInteraction] = [:]

    /// The interaction of `id`, while it is there.
    subscript(id: UInt64) -> ToolTipInteraction? { table[id]?.value }

    /// Every id with its interaction (nil once it went away), as the table is now: what is
    /// remembered while the sequence is walked is not in it, and each interaction is looked
    /// at when its turn comes.
    var entries: some Sequence<(id: UInt64, interaction: ToolTipInteraction?)> {
        table.lazy.map { (id: $0.key, interaction: $0.value.value) }
    }

    /// Remembers `interaction`, before the machine hears of it as a source. The table is kept
    /// to the sources the machine still refers to (`live`, asked for only when the table has
    /// grown), so that a pointer crossing thousands of views does not grow it.
    mutating func remember(_ interaction: ToolTipInteraction, live: () -> [UInt64?]) {
        guard table[interaction.id]?.value == nil else { return }
        table[interaction.id] = WeakInteraction(interaction)
        if table.count > 32 {
            let kept: Set<UInt64> = live().reduce(into: [interaction.id]) { if let id = $1 { $0.insert(id) } }
            table = table.filter { kept.contains($0.key) && $0.value.value != nil }
        }
    }
}

/// A weak reference, for tables of interactions.
struct WeakInteraction {
    weak var value: ToolTipInteraction?
    init(_ value: ToolTipInteraction) { self.value = value }
}
