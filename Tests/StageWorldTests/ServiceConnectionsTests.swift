import Testing
@testable import StageWorld

/// `StageServer.holdsExactly` answers what comparing a list with `connections` answers,
/// without building the list (the world asks it after every service step).
@Suite("The service's open connections, compared in place")
struct ServiceConnectionsTests {
    @Test("the list of open connections is held exactly; one with an entry missing, added, moved or of another epoch is not")
    func comparedLikeTheList() throws {
        let server = threeClientStage().server
        let open = server.connections
        try #require(open.count == 3)
        #expect(server.holdsExactly(open))
        #expect(!server.holdsExactly(Array(open.dropLast())))
        #expect(!server.holdsExactly(open + [ServiceConnection(clientIndex: 9, epoch: 1)]))
        #expect(!server.holdsExactly(open.reversed()))
        var otherEpoch = open
        otherEpoch[1].epoch += 1
        #expect(!server.holdsExactly(otherEpoch))
        #expect(!server.holdsExactly([]))
    }

    @Test("an interrupted participant's connection is no longer held, and the list without it is")
    func interruptedConnectionLeaves() {
        var server = threeClientStage().server
        let before = server.connections
        server.participants[0].isInterrupted = true
        #expect(!server.holdsExactly(before))
        #expect(server.holdsExactly(server.connections))
        #expect(server.holdsExactly(Array(before.dropFirst())), "connections are listed in participant order")
    }
}
