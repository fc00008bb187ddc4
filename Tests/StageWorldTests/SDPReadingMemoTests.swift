import Foundation
import Testing
@testable import StageWorld

/// `PublisherLines.properties(fromSDP:)` is memoized by the exact SDP text: a text read again
/// gets the first reading's answer, a rejection included, and a text differing in one
/// character is read for real (SIG-8 holds for frames from outside whatever came before).
@Suite("Video SDP readings are memoized by their exact text")
struct SDPReadingMemoTests {
    static let valid = (["a=x-stagesim-video:fallback=true type=camera size=720x1280 fps=30"] + Fixture.layerLines).joined(separator: "\r\n")

    @Test func aRejectedSDPStaysRejectedWhenReadAgain() {
        let broken = Self.valid.replacingOccurrences(of: "fps=30", with: "fps=x")
        for _ in 0..<2 {
            #expect(throws: FrameError.self) { try PublisherLines.properties(fromSDP: broken) }
        }
    }

    @Test func aTextDifferingFromAnAcceptedOneIsReadForReal() throws {
        let accepted = try PublisherLines.properties(fromSDP: Self.valid)
        #expect(try PublisherLines.properties(fromSDP: Self.valid) == accepted)
        let doubled = Self.valid + "\r\n" + Fixture.layerLines[0]
        #expect(throws: FrameError.self) { try PublisherLines.properties(fromSDP: doubled) }
        #expect(try PublisherLines.properties(fromSDP: Self.valid.replacingOccurrences(of: "fps=30", with: "fps=15")).framesPerSecond == 15)
    }
}
