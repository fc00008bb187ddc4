import Testing
@testable import StageWorld

/// `StageServer.holdsExactly` answers what comparing a list with `registrations` answers,
/// without building the list (the world asks it after every service step), and the open
/// connections are the registrations not interrupted.
@Suite("The service's registrations and open connections, compared in place")
struct ServiceConnectionsTests {
    @Test("the list of registrations is held exactly; one with an entry missing, added, moved, of another epoch or interrupted is not")
    func comparedLikeTheList() throws {
        let server = threeClientStage().server
        let registered = server.registrations
        try #require(registered.count == 3)
        #expect(server.holdsExactly(registered))
        #expect(!server.holdsExactly(Array(registered.dropLast())))
        #expect(!server.holdsExactly(registered + [StageServer.Registration(connection: ServiceConnection(clientIndex: 9, epoch: 1), isInterrupted: false)]))
        #expect(!server.holdsExactly(registered.reversed()))
        var otherEpoch = registered
        otherEpoch[1].connection.epoch += 1
        #expect(!server.holdsExactly(otherEpoch))
        var interrupted = registered
        interrupted[2].isInterrupted = true
        #expect(!server.holdsExactly(interrupted))
        #expect(!server.holdsExactly([]))
    }

    @Test("an interrupted participant's connection is no longer open, while it stays registered")
    func interruptedConnectionLeaves() {
        var server = threeClientStage().server
        let before = server.registrations
        let openBefore = server.connections
        #expect(openBefore == StageServer.openConnections(of: before))
        server.participants[0].isInterrupted = true
        #expect(!server.holdsExactly(before))
        #expect(server.registrations.count == 3)
        #expect(server.connections == Array(openBefore.dropFirst()), "connections are listed in participant order")
    }
}
