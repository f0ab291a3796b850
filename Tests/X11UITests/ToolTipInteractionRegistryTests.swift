import Testing

@testable import X11UI

// The table of the interactions the tooltip machine knows by id: pure, no display.

@Suite @MainActor struct ToolTipInteractionRegistryTests {
    @Test func anInteractionIsFoundByItsIdWhileItIsThere() {
        var registry = ToolTipInteractionRegistry()
        var interaction: ToolTipInteraction? = ToolTipInteraction(defaultToolTip: "Save")
        let id = interaction!.id
        registry.remember(interaction!) { [] }
        #expect(registry[id] === interaction)
        #expect(registry[id &+ 1] == nil)
        interaction = nil
        #expect(registry[id] == nil, "held weakly")
        #expect(registry.entries.map { $0.id } == [id])
        #expect(registry.entries.allSatisfy { $0.interaction == nil })
    }

    @Test func theTableIsKeptToTheLiveSourcesOnceItHasGrown() {
        var registry = ToolTipInteractionRegistry()
        let interactions = (0..<40).map { ToolTipInteraction(defaultToolTip: "Tip \($0)") }
        var asked = 0
        for interaction in interactions.prefix(32) {
            registry.remember(interaction) {
                asked += 1
                return []
            }
        }
        #expect(asked == 0, "the live sources are not asked for while the table is small")
        #expect(registry.entries.filter { $0.interaction != nil }.count == 32)
        // The 33rd keeps itself and the live ones.
        let live = [interactions[3].id, interactions[7].id]
        registry.remember(interactions[32]) {
            asked += 1
            return [live[0], nil, live[1]]
        }
        #expect(asked == 1)
        #expect(Set(registry.entries.map { $0.id }) == Set(live + [interactions[32].id]))
        #expect(registry[interactions[3].id] === interactions[3])
        #expect(registry[interactions[0].id] == nil)
    }

    @Test func rememberingAnInteractionAgainChangesNothing() {
        var registry = ToolTipInteractionRegistry()
        let interactions = (0..<33).map { ToolTipInteraction(defaultToolTip: "Tip \($0)") }
        for interaction in interactions.prefix(32) { registry.remember(interaction) { [] } }
        var asked = false
        registry.remember(interactions[5]) {
            asked = true
            return []
        }
        #expect(!asked)
        #expect(Array(registry.entries).count == 32)
    }

    @Test func theEntriesAreTheTableAsItWasWhenTheWalkBegan() {
        var registry = ToolTipInteractionRegistry()
        let first = ToolTipInteraction(defaultToolTip: "One")
        let second = ToolTipInteraction(defaultToolTip: "Two")
        registry.remember(first) { [] }
        var walked: [UInt64] = []
        for (id, _) in registry.entries {
            walked.append(id)
            registry.remember(second) { [] }
        }
        #expect(walked == [first.id])
        #expect(registry[second.id] === second)
    }
}
