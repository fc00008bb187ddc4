import Signaling
import Testing

/// The parser against the cases of the public JSONTestSuite (github.com/nst/JSONTestSuite):
/// every `y_` document is accepted except the two that repeat a key, which StageSim rejects by
/// design (SIG-4: a signaling message with two values for one member is ambiguous); every
/// `n_` document is rejected, and none traps, however deep it nests. The documents are our
/// own copies, named as in the suite without the `y_`/`n_` prefix and `.json` suffix.
@Suite("JSON parser conformance (JSONTestSuite, SIG-4)")
struct JSONConformanceTests {
    @Test("accepted: every y_ document but the two with duplicate keys", arguments: JSONConformanceCases.acceptedDocuments)
    func accepted(_ entry: (name: String, document: JSONConformanceCases.Document)) {
        let result = entry.document.parsed()
        if JSONConformanceCases.duplicateKeyDocuments.contains(entry.name) {
            guard case .failure(let error) = result, case .duplicateKey = error.kind else {
                Issue.record("\(entry.name): a repeated key must be rejected, got \(result)")
                return
            }
        } else if case .failure(let error) = result {
            Issue.record("\(entry.name): rejected with \(error)")
        }
    }

    @Test("rejected: every n_ document", arguments: JSONConformanceCases.rejectedDocuments)
    func rejected(_ entry: (name: String, document: JSONConformanceCases.Document)) {
        if case .success(let value) = entry.document.parsed() {
            Issue.record("\(entry.name): accepted as \(value.jsonText)")
        }
    }

    @Test("the counts are the suite's: 93 of 95 y_ accepted, 188 of 188 n_ rejected")
    func counts() {
        let accepted = JSONConformanceCases.acceptedDocuments.filter { $0.document.parsed().isSuccess }
        let rejected = JSONConformanceCases.rejectedDocuments.filter { !$0.document.parsed().isSuccess }
        #expect(JSONConformanceCases.acceptedDocuments.count == 95)
        #expect(accepted.count == 93)
        #expect(JSONConformanceCases.rejectedDocuments.count == 188)
        #expect(rejected.count == 188)
    }

    @Test("bytes that are not UTF-8 are an error at the first bad byte")
    func invalidUTF8() {
        #expect(throws: JSONParseError(offset: 2, kind: .invalidUTF8)) { try JSONValue.parse(utf8: [0x5B, 0x22, 0xFF, 0x22, 0x5D]) }
        #expect(throws: JSONParseError(offset: 4, kind: .invalidUTF8)) { try JSONValue.parse(utf8: Array("[\"é".utf8) + [0xC3]) }
        #expect((try? JSONValue.parse(utf8: Array("[\"é\"]".utf8))) == .array([.string("é")]))
    }
}

extension Result where Success == JSONValue, Failure == JSONParseError {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
