import Simulation
import StageWorld
import Testing

/// NET-2: the swarm fault plan a fuzz seed draws is the one it prints. Every fault kind the
/// parameters list as on is in the link or the plan with the printed value, and every kind
/// listed as off is absent, so a printed seed describes the faults its run had.
@Suite("Swarm fault plans (NET-2)")
struct SwarmFaultsTests {
    private static let names = ["p1", "p2", "p3"]

    /// The value printed as `kind=value`, or nil when the kind is listed off; records a failure
    /// when it is listed neither way or both ways.
    private static func printed(_ kind: String, in parameters: [String]) -> String? {
        let off = parameters.contains("\(kind)=off")
        let values = parameters.filter { $0.hasPrefix("\(kind)=") && $0 != "\(kind)=off" }
        #expect(off != (values.count == 1), "\(kind) is printed both on and off, or neither: \(parameters)")
        return off ? nil : values.first.map { String($0.dropFirst(kind.count + 1)) }
    }

    @Test("each link fault is applied exactly when its parameter says it is on, with the printed value")
    func linkFaultsMatchTheirParameters() {
        var on: [String: Int] = [:]
        for seed in UInt64(1)...200 {
            let swarm = SwarmFaults(seed: seed, clientNames: Self.names, duration: .seconds(40))
            let link = swarm.link
            let printedLink: [(String, String?, String?)] = [
                ("loss", Self.printed("loss", in: swarm.parameters), link.lossProbability > 0 ? "\(link.lossProbability)" : nil),
                ("duplicate", Self.printed("duplicate", in: swarm.parameters), link.duplicationProbability > 0 ? "\(link.duplicationProbability)" : nil),
                ("reorder", Self.printed("reorder", in: swarm.parameters), link.reorderProbability > 0 ? "\(link.reorderProbability)" : nil),
                ("signalingKbps", swarm.parameters.contains("bandwidth=off") ? nil : Self.printed("signalingKbps", in: swarm.parameters),
                 link.signalingBitsPerSecond.map { "\($0 / 1000)" }),
            ]
            for (kind, shown, applied) in printedLink {
                #expect(shown == applied, "seed \(seed): \(kind) printed \(shown ?? "off") but applied \(applied ?? "nothing")")
                if applied != nil { on[kind, default: 0] += 1 }
            }
            let jitterShown = !swarm.parameters.contains("jitter=off")
            #expect(jitterShown == (link.jitterMax > .zero), "seed \(seed): jitter printed \(jitterShown ? "on" : "off") but jitterMax is \(link.jitterMax)")
        }
        for kind in ["loss", "duplicate", "reorder", "signalingKbps"] {
            #expect((40...160).contains(on[kind, default: 0]), "\(kind) is on in \(on[kind, default: 0]) of 200 seeds; each kind is on about half the time")
        }
    }

    @Test("every partition and outage printed is in the fault plan, and the plan holds no other")
    func cutsMatchTheirParameters() {
        var planned = 0
        for seed in UInt64(1)...200 {
            let swarm = SwarmFaults(seed: seed, clientNames: Self.names, duration: .seconds(40))
            let printed = swarm.parameters.filter { $0.hasPrefix("partition: ") || $0.hasPrefix("one-way partition: ") || $0.hasPrefix("outage: ") }
            let kinds = swarm.plan.partitions.map { cut in
                cut.clientName == nil ? "outage" : cut.direction == .both ? "partition" : "one-way partition"
            }
            #expect(printed == zip(kinds, swarm.plan.partitions).map { "\($0): \($1.summary)" }, "seed \(seed): printed \(printed), planned \(swarm.plan.partitions)")
            #expect(swarm.plan.partitions.allSatisfy { $0.start < $0.end && ($0.clientName.map { Self.names.contains($0) } ?? true) })
            planned += swarm.plan.partitions.count
        }
        #expect(planned > 200, "three cut kinds, each on half the time: about 300 cuts in 200 seeds, not \(planned)")
    }
}
