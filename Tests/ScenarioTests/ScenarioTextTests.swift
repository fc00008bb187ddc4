import Foundation
import Testing
@testable import Scenario

/// Hostile scenario text (issue 13, point 8): bytes that are not UTF-8 and characters YAML does
/// not allow are reported where they are, not at 1:1.
@Suite("Scenario text: invalid UTF-8 and control characters")
struct ScenarioTextTests {
    /// Loads `bytes` from a file, as `stagesim run` does.
    private func error(_ bytes: [UInt8]) -> ScenarioError? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stagesim-text-\(UUID().uuidString).yaml").path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try ScenarioLoader.load(path: path)
            return nil
        } catch {
            return error as? ScenarioError
        }
    }

    private func error(_ text: String) -> ScenarioError? { error(Array(text.utf8)) }

    @Test("a byte that is not UTF-8 is reported at its line and column")
    func invalidUTF8() {
        let found = error(Array("name: x\nparticipants:\n  - name: a".utf8) + [0xFF] + Array("b\n".utf8))
        #expect(found?.line == 3)
        #expect(found?.column == 12)
        #expect(found?.message == "byte 0xFF is not UTF-8 text")
    }

    @Test("a truncated UTF-8 sequence after multi-byte characters is reported at its first byte, columns in characters")
    func truncatedSequence() {
        let found = error(Array("name: \"é😀".utf8) + [0xE2, 0x82] + Array("\"\n".utf8))
        #expect(found?.line == 1)
        #expect(found?.column == 10)
        #expect(found?.message == "byte 0xE2 is not UTF-8 text")
    }

    @Test("a control character is reported at its line and column, with its code")
    func controlCharacter() {
        let found = error("name: x\nparticipants:\n  - name: a\u{01}b\n")
        #expect(found?.line == 3)
        #expect(found?.column == 12)
        #expect(found?.message == "control character U+0001 is not allowed; YAML allows tab, line breaks and printable characters")
    }

    @Test("control characters inside quotes, after CR LF line ends and wide characters, are found too")
    func controlCharacterInQuotes() {
        let found = error("name: x\r\nparticipants:\r\n  - {name: \"é😀\u{7F}\"}\r\n")
        #expect(found?.line == 3)
        #expect(found?.column == 15)
        #expect(found?.message.hasPrefix("control character U+007F is not allowed") == true)
    }

    @Test("a NUL byte is a control character at its place")
    func nul() {
        let found = error(Array("name: x".utf8) + [0] + Array("\nparticipants: []\n".utf8))
        #expect(found.map { [$0.line, $0.column] } == [1, 8])
        #expect(found?.message.hasPrefix("control character U+0000 is not allowed") == true)
    }
}
