import Testing
import X11TestSupport

@testable import X11UI

// Model-based tests of `ToolTipStateMachine`: thousands of random input sequences from a
// fixed-seed generator, driven the way a real driver would (timers fire on time, a `.toolTip`
// target only while a tooltip is on the screen), with the invariants checked after every step.

private typealias Machine = ToolTipStateMachine
private typealias Source = ToolTipStateMachine.Source
private typealias Target = ToolTipStateMachine.Target
private typealias Input = ToolTipStateMachine.Input
private typealias Effect = ToolTipStateMachine.Effect

private let top = Rect(x: 0, y: 0, width: 200, height: 40)
private let bottom = Rect(x: 0, y: 80, width: 200, height: 40)
private let expiring = ToolTipTimings(
    initialDelay: .milliseconds(500), browseDelay: .milliseconds(60), browseTimeout: .milliseconds(500),
    hoverGrace: .milliseconds(150), autoHide: .seconds(1))
private let quick = ToolTipTimings(
    initialDelay: .milliseconds(200), browseDelay: .milliseconds(30), browseTimeout: .milliseconds(300),
    hoverGrace: .milliseconds(80))

/// Interaction 1 has two hover regions; 2 auto-hides; 3 has its own delays; 4 and 5 are click
/// tooltips; 1, 2 and 6 can also take keyboard focus.
private let regions: [UInt64: [Rect]] = [1: [top, bottom], 2: [top, bottom], 3: [top], 4: [top], 5: [bottom]]
private let hoverSources = [
    Source(interaction: 1, region: top, anchor: .pointer, timings: .standard),
    Source(interaction: 1, region: bottom, anchor: .pointer, timings: .standard),
    Source(interaction: 2, region: top, anchor: .pointer, timings: expiring),
    Source(interaction: 3, region: top, anchor: .pointer, timings: quick),
    Source(interaction: 7, region: bottom, anchor: .pointer, timings: .standard, follows: true),
]
private let clickSources = [
    Source(interaction: 4, region: top, anchor: .click, timings: .standard),
    Source(interaction: 5, region: bottom, anchor: .click, timings: expiring),
]
private let focusSources = [
    Source(interaction: 1, region: top, anchor: .focus, timings: .standard),
    Source(interaction: 2, region: bottom, anchor: .focus, timings: expiring),
    Source(interaction: 6, region: top, anchor: .focus, timings: quick),
]

private enum Invariant: String, CaseIterable {
    case effectsTrackState = "at most one shown: the effects replay to exactly the machine's shown tooltip"
    case hideOnlyWhenShown = "a .hide only when something was shown"
    case updateOnlyShown = "an .update only of the shown tooltip"
    case noReshowOfShown = "a .show never re-shows the place already shown"
    case pendingNotShown = "the pending tooltip is never the shown place"
    case timerIsEarliestDeadline = "the last .setTimer equals the earliest pending deadline"
    case timerInFuture = "after a step the timer is nil or in the future"
    case oneSetTimerLast = "at most one .setTimer per step, and it comes last"
    case sourceGoneClears = "after .sourceGone(id) nothing is shown or pending for id"
    case graceOnlyForHover = "a grace deadline only while a hover tooltip shows"
    case clickNeverPending = "click tooltips never wait for a delay"
    case hoverShowsUnderPointer = "a hover tooltip shows only while the pointer is on its source"
    case showsOnlyAnswered = "a .show or .update only in answer to a question, with content"
    case emptyAnswerNoBrowse = "an empty answer with nothing on the screen leaves browse mode as it was"
    case questionsWithdrawn = "any input but an answer, an update request or a placement withdraws the question"
    case updatesBounded = "an update asked for while answering is served once, after (never a loop)"
    case followOnlyFollower = "a .follow only while a tooltip that follows the pointer shows, at most one a step"
    case followOncePerFrame = "a .follow at least a frame after the tooltip showed or last moved"
    case followOnlyMotion = "a .follow never to where the tooltip was put already"
}

private struct Simulation {
    let seed: UInt64
    var rng: SplitMix64
    var machine = Machine()
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    var pointer: Target = .nothing
    /// What the effects have put on the screen.
    var displayed: Source?
    /// The timer the driver holds (the last `.setTimer`).
    var timer: MonotonicInstant?
    /// Inputs the driver sends right after the last step: what a delegate does while answering,
    /// then its answer.
    var followUps: [Input] = []
    /// Questions asked in a row, each answered by the next.
    var reasksInARow = 0
    var trace: [[Effect]] = []
    var violations: [Invariant: String] = [:]
    /// When the shown tooltip that follows the pointer showed or last moved, and where to.
    var lastMove: MonotonicInstant?
    var placedAt: Point?
    /// The last inputs, for failure messages.
    var recent: [(ms: Int64, input: Input)] = []
    var counts: [String: Int] = [:]

    init(seed: UInt64) {
        self.seed = seed
        rng = SplitMix64(seed: seed)
    }

    mutating func random(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }

    mutating func nextInput() -> (Input, MonotonicInstant) {
        if !followUps.isEmpty { return (followUps.removeFirst(), now) }
        let spans: [Int64] = [5, 100, 400, 900]
        let time = now + .milliseconds(Int64(random(Int(spans[random(spans.count)]))))
        if let timer, timer <= time { return (.timer, max(timer, now)) }
        let roll = random(100)
        switch roll {
        case 0..<40:
            if random(10) >= 3 {
                var options: [Target] = [.nothing] + (hoverSources + clickSources).map { .source($0) }
                if displayed != nil { options += [.toolTip, .toolTip] }
                pointer = options[random(options.count)]
            }
            let location = random(2) == 0 ? nil : Point(x: Double(random(300)), y: Double(random(200)))
            return (.pointer(pointer, at: location), time)
        case 40..<48: return (.buttonPress(pointer), time)
        case 48..<56: return (.buttonRelease(pointer), time)
        case 56..<62: return (.escape, time)
        case 62..<72:
            let source = random(4) == 0 ? nil : focusSources[random(focusSources.count)]
            return (.focus(source, byKeyboard: random(5) != 0), time)
        case 72..<76:
            let id = UInt64(1 + random(6))
            if pointer.source?.interaction == id { pointer = .nothing }
            return (.sourceGone(id), time)
        case 76..<79: return (.dismissAll, time)
        case 79..<90: return (.invalidate(UInt64(1 + random(6))), time)
        case 90..<94: return (.activate(clickSources[random(clickSources.count)]), time)
        default: return (.timer, time)  // a spurious wake-up
        }
    }

    mutating func step() {
        let (input, time) = nextInput()
        now = time
        recent.append((time.nanoseconds / 1_000_000, input))
        if recent.count > 12 { recent.removeFirst() }
        let lastHiddenBefore = machine.lastHidden
        let displayedBefore = displayed
        let effects = machine.reduce(input, now: now)
        trace.append(effects)
        check(effects, after: input)
        noteAnswer(input, lastHiddenBefore: lastHiddenBefore, displayedBefore: displayedBefore)
        planFollowUp(after: effects)
    }

    mutating func expect(_ condition: Bool, _ invariant: Invariant) {
        guard !condition, violations[invariant] == nil else { return }
        let inputs = recent.map { "\($0.ms) ms \(Self.describe($0.input))" }
        violations[invariant] = "seed \(seed), after: \(inputs.joined(separator: ", "))"
    }

    static func describe(_ s: Source?) -> String {
        guard let s else { return "nil" }
        return "\(s.anchor)#\(s.interaction)@\(s.region.minY.compact)"
    }

    static func describe(_ target: Target) -> String {
        switch target {
        case .nothing: return "nothing"
        case .toolTip: return "toolTip"
        case .source(let s): return describe(s)
        }
    }

    static func describe(_ input: Input) -> String {
        switch input {
        case .pointer(let t, let p): return "pointer(\(describe(t)), \(p.map { "\($0)" } ?? "-"))"
        case .buttonPress(let t): return "press(\(describe(t)))"
        case .buttonRelease(let t): return "release(\(describe(t)))"
        case .focus(let s, _): return "focus(\(describe(s)))"
        default: return "\(input)"
        }
    }

    mutating func check(_ effects: [Effect], after input: Input) {
        let follows = effects.filter { if case .follow = $0 { true } else { false } }
        expect(follows.count <= 1, .followOnlyFollower)
        var isContent = false
        if case .answer(.content) = input { isContent = true }
        for effect in effects {
            switch effect {
            case .ask, .reask:
                counts["ask", default: 0] += 1
            case .show(let s):
                expect(isContent, .showsOnlyAnswered)
                expect(!s.isSamePlace(as: displayed), .noReshowOfShown)
                displayed = s
                (lastMove, placedAt) = (now, machine.pointerLocation)
                counts["show \(s.anchor)", default: 0] += 1
                if s.anchor == .pointer {
                    let under = machine.pointer.source
                    expect(under?.interaction == s.interaction && under?.anchor == .pointer, .hoverShowsUnderPointer)
                }
            case .update(let s):
                expect(isContent, .showsOnlyAnswered)
                expect(displayed?.interaction == s.interaction && displayed?.anchor == s.anchor, .updateOnlyShown)
                displayed = s
                counts["update", default: 0] += 1
            case .hide:
                expect(displayed != nil, .hideOnlyWhenShown)
                displayed = nil
                counts["hide", default: 0] += 1
            case .setTimer(let t):
                timer = t
            case .follow(let point):
                expect(displayed?.follows == true && machine.shown?.follows == true, .followOnlyFollower)
                expect(
                    lastMove.map { now - $0 >= displayed?.timings.followInterval ?? .zero } ?? false,
                    .followOncePerFrame)
                expect(point != placedAt, .followOnlyMotion)
                (lastMove, placedAt) = (now, point)
                counts["follow", default: 0] += 1
            }
        }
        expect(displayed == machine.shown, .effectsTrackState)
        let asks = effects.filter { if case .ask = $0 { true } else if case .reask = $0 { true } else { false } }
        switch input {
        case .answer, .invalidate, .placed: break
        default: expect(machine.question == nil || !asks.isEmpty, .questionsWithdrawn)
        }
        if case .answer = input, effects.contains(where: { if case .reask = $0 { true } else { false } }) {
            reasksInARow += 1
        } else if case .answer = input {
            reasksInARow = 0
        }
        expect(reasksInARow <= 1, .updatesBounded)
        let timerIndices = effects.indices.filter { if case .setTimer = effects[$0] { true } else { false } }
        expect(timerIndices.count <= 1 && timerIndices.allSatisfy { $0 == effects.count - 1 }, .oneSetTimerLast)
        if let pending = machine.pending {
            expect(!pending.source.isSamePlace(as: machine.shown), .pendingNotShown)
            expect(pending.source.anchor != .click, .clickNeverPending)
        }
        var deadlines = [machine.pending?.deadline, machine.graceDeadline, machine.followDeadline].compactMap { $0 }
        if let showing = machine.showing, let autoHide = showing.source.timings.autoHide {
            deadlines.append(showing.since + autoHide)
        }
        let earliest = deadlines.min()
        expect(timer == earliest && machine.timer == earliest, .timerIsEarliestDeadline)
        expect(earliest.map { $0 > now } ?? true, .timerInFuture)
        if case .sourceGone(let id) = input {
            expect(machine.shown?.interaction != id && machine.pending?.source.interaction != id, .sourceGoneClears)
        }
        expect(machine.graceDeadline == nil || machine.shown?.anchor == .pointer, .graceOnlyForHover)
        if machine.graceDeadline != nil { counts["grace", default: 0] += 1 }
        if case .escape = input, effects.contains(.hide) { counts["escape hide", default: 0] += 1 }
    }

    mutating func planFollowUp(after effects: [Effect]) {
        if displayed == nil, pointer == .toolTip {
            // The tooltip window went away under the pointer.
            pointer = .nothing
            followUps.append(.pointer(.nothing))
        }
        for effect in effects {
            switch effect {
            case .ask(let s), .reask(let s):
                // What a delegate may do while answering: ask for an update, remove its view,
                // close its window.
                switch random(10) {
                case 0, 1: followUps.append(.invalidate(s.interaction))
                case 2: followUps.append(.sourceGone(s.interaction))
                case 3: followUps.append(.dismissAll)
                default: break
                }
                if random(4) == 0 {
                    followUps.append(.answer(.none))
                } else if random(4) == 0, let other = regions[s.interaction]?.first(where: { $0 != s.region }) {
                    followUps.append(.answer(.content(region: other)))
                } else {
                    followUps.append(.answer(.content(region: s.region, unchanged: random(3) == 0)))
                }
            case .show:
                followUps.append(.placed(Rect(x: 0, y: 130, width: 200, height: 40)))
            default:
                break
            }
        }
    }

    mutating func noteAnswer(_ input: Input, lastHiddenBefore: MonotonicInstant?, displayedBefore: Source?) {
        if case .answer(.none) = input, displayedBefore == nil {
            expect(machine.lastHidden == lastHiddenBefore, .emptyAnswerNoBrowse)
        }
    }
}

@Suite struct ToolTipStateMachinePropertyTests {
    static let runs: UInt64 = 3000
    static let steps = 150

    /// Runs every seed once; the invariants that broke, with the first failing run of each.
    fileprivate static let results: (violations: [Invariant: String], counts: [String: Int]) = {
        var violations: [Invariant: String] = [:]
        var counts: [String: Int] = [:]
        for seed in 0..<runs {
            var simulation = Simulation(seed: seed)
            for _ in 0..<steps { simulation.step() }
            violations.merge(simulation.violations) { first, _ in first }
            counts.merge(simulation.counts, uniquingKeysWith: +)
        }
        return (violations, counts)
    }()

    @Test(arguments: Invariant.allCases.filter { $0 != .hoverShowsUnderPointer })
    fileprivate func invariantHoldsOverRandomSequences(_ invariant: Invariant) {
        let failure = Self.results.violations[invariant]
        #expect(failure == nil, "\(invariant.rawValue) broke: \(failure ?? "")")
    }

    /// Spec 5: "show after the initial delay of the pointer resting in a view or region that has
    /// a tooltip".
    @Test func hoverToolTipsShowOnlyWhileThePointerRestsOnTheirSource() {
        let failure = Self.results.violations[.hoverShowsUnderPointer]
        #expect(failure == nil, "\(Invariant.hoverShowsUnderPointer.rawValue) broke: \(failure ?? "")")
    }

    /// Guards against a vacuous run: every kind of effect and rule was exercised many times.
    @Test func theRandomRunsExerciseEveryRule() {
        let counts = Self.results.counts
        for key in [
            "show pointer", "show click", "show focus", "hide", "update", "grace", "escape hide", "ask", "follow",
        ] {
            #expect(counts[key, default: 0] >= 200, "\(key): \(counts[key, default: 0])")
        }
    }

    @Test func theSameSeedReplaysTheSameEffects() {
        for seed: UInt64 in [1, 42, 2024, 0xDEAD_BEEF] {
            var first = Simulation(seed: seed)
            var second = Simulation(seed: seed)
            for _ in 0..<Self.steps {
                first.step()
                second.step()
            }
            #expect(first.trace == second.trace)
            #expect(first.machine == second.machine)
        }
    }
}
