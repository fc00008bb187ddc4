import Testing
@testable import StageWorld

/// `WorldComponents`, the set of components a step changed that the model checker rehashes
/// (its incremental fingerprints): a fresh set holds none, each insert marks exactly its
/// components, and a client past the 31 the bits hold marks every component.
@Suite("The components a step changed")
struct WorldComponentsTests {
    @Test("a fresh set holds no component")
    func freshSetIsEmpty() {
        let components = WorldComponents()
        #expect(!components.containsEveryComponent)
        #expect((0..<64).allSatisfy { !components.contains(component: $0) })
    }

    @Test("the service, a client and a client's traffic mark exactly their components")
    func insertsMarkTheirComponents() {
        var components = WorldComponents()
        components.insertService()
        components.insert(client: 2)
        components.insert(trafficOf: 30)
        #expect((0..<64).filter { components.contains(component: $0) } == [0, 5, 6, 62])
        #expect(!components.containsEveryComponent)
    }

    @Test("a client the bits cannot hold marks every component", arguments: [31, 40])
    func clientPastTheBitsMarksAll(index: Int) {
        var state = WorldComponents()
        state.insert(client: index)
        var traffic = WorldComponents()
        traffic.insert(trafficOf: index)
        for components in [state, traffic] {
            #expect(components.containsEveryComponent)
            #expect(components.contains(component: 2 * index + 2))
        }
    }
}
