import Testing
@testable import StageWorld

/// `SessionLine.lines(of:)` splits an SDP at CRLF in its UTF-8 bytes; CRLF is one Character
/// wherever it occurs, so the lines must be exactly those a split by Character gives,
/// whatever surrounds the breaks (SIG-1, SIG-8: hostile SDPs go through it too).
@Suite("SDP lines split at CRLF")
struct SessionLineTests {
    static let sdps = [
        "", "\r\n", "\r\n\r\n", "v=0", "v=0\r\n", "\r\nv=0", "v=0\r\na=msid:p1", "v=0\r\n\r\na=x\r\n",
        "lone\rcr\nlf\r\n", "\r\r\n\n", "é\r\na=x-stagesim-token:é.ü", "a\r\n\u{301}b", "a\u{301}\r\nb\r",
        "v=0\r\na=x-stagesim-token:" + String(repeating: "eyJh.", count: 150),
    ]

    @Test("the lines are those a split by Character gives", arguments: sdps)
    func sameAsCharacterSplit(_ sdp: String) {
        #expect(SessionLine.lines(of: sdp).map(String.init) == sdp.split(separator: "\r\n").map(String.init))
    }

    @Test("a token line is found after other lines, and an SDP without one has none")
    func tokenLine() {
        #expect(SessionLine.token(inSDP: "v=0\r\na=msid:p1\r\na=x-stagesim-token:abc.def.ghi\r\n") == "abc.def.ghi")
        #expect(SessionLine.token(inSDP: "v=0\r\na=x-stagesim-tokenless") == nil)
    }
}
