import Testing
@testable import StageWorld

/// `FrameContent` equality, which `Envelope`'s and so `World`'s equality rest on: two frames
/// are equal exactly when they carry the same text in the same direction (SIG-1).
@Suite("Frame content equality")
struct FrameContentEqualityTests {
    @Test("same text and direction are equal; another text or another direction is not")
    func equalExactlyOnTextAndDirection() {
        let ping = #"{"type":"ping"}"#
        let pong = #"{"type":"pong"}"#
        #expect(FrameContent(text: ping, atServer: false) == FrameContent(text: ping, atServer: false))
        #expect(FrameContent(text: ping, atServer: false) != FrameContent(text: pong, atServer: false))
        #expect(FrameContent(text: ping, atServer: false) != FrameContent(text: ping, atServer: true))
        #expect(FrameContent(text: ping, atServer: true) != FrameContent(text: pong, atServer: false))
    }
}
