import Drivers
import Simulation
import StageCore
import StageWorld
import Testing
@testable import Pictures

/// The pictures of a real simulated run: three clients on a lossy link, one partitioned for a
/// while, publishing and subscribing (issue 17).
@Suite("Pictures of a simulated run")
struct SimulatedRunTests {
    static let run: MonitoredRun = {
        let names = ["host", "guest", "viewer"]
        let clients = names.map { name in
            let claims = StageKeys.claims(participantId: name, stageId: "stage-1", userId: name)
            return ClientConfig(name: name, token: .raw(StageKeys.standard.token(.signed(claims, by: .app))), strategy: StrategySpec(publish: name != "viewer"))
        }
        let partition = Partition(clientName: "guest", direction: .both, start: .seconds(2), end: .milliseconds(2_600))
        var world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: LinkConditions(lossProbability: 0.2), seed: 5,
                          faults: FaultPlan(partitions: [partition]))
        for index in names.indices { world.scheduleHostCall(.join, clientIndex: index, at: .milliseconds(UInt64(index) * 100)) }
        return MonitoredRun(world: world, seed: 5, until: .seconds(6))
    }()

    @Test("an arrow per delivered frame and per lost transmission, a lifeline per client and the service, the partition's band")
    func diagram() {
        let run = Self.run
        let diagram = SequenceDiagram(title: "run", trace: run.trace, config: run.finalWorld.config, violations: run.violations)
        let delivered = run.trace.events.filter { if case .delivered = $0.kind { true } else { false } }.count
        let lost = run.trace.events.filter { if case .lost = $0.kind { true } else { false } }.count
        #expect(delivered > 20 && lost > 0)
        #expect(diagram.rows.filter { $0.family == .frame }.count == delivered)
        #expect(diagram.rows.filter { $0.family == .lost }.count == lost)
        #expect(diagram.rows.filter(\.isArrow).allSatisfy { diagram.lifelines.contains($0.sender ?? "") && $0.sender != $0.lifeline })
        let page = DiagramPage.html(diagram)
        #expect(page.components(separatedBy: "<g class=\"lifeline ").count - 1 == 4)
        #expect(page.components(separatedBy: "<g class=\"arrow delivered ").count - 1 == delivered)
        #expect(page.components(separatedBy: "<g class=\"band partition").count - 1 == 1)
    }

    @Test("its Trace Event Format file keeps the format's rules, with a flow per delivered frame")
    func traceEvents() {
        let run = Self.run
        let text = TraceEventsFile.json(trace: run.trace, config: run.finalWorld.config, violations: run.violations)
        #expect(TraceEventRules.problems(text) == [])
        let delivered = run.trace.events.filter { if case .delivered = $0.kind { true } else { false } }.count
        #expect(text.components(separatedBy: "\"flow_in\":true").count - 1 == delivered)
        #expect(text.contains("\"name\":\"connection\"") && text.contains("\"name\":\"publish host\""))
    }
}
