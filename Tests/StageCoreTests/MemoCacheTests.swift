import StageCore
import Testing

/// `MemoCache`, the bounded memo of a pure function's answers: it answers from memory until
/// it holds `capacity` answers, then starts afresh.
@Suite("The bounded memo of pure answers")
struct MemoCacheTests {
    @Test("an answer is computed once while the memo has room, and again once the memo started afresh")
    func startsAfreshAtCapacity() {
        let memo = MemoCache<Int, Int>(capacity: 2)
        var computed: [Int] = []
        func square(_ key: Int) -> Int { memo.value(for: key) { computed.append(key); return key * key } }
        #expect([square(1), square(2), square(1), square(2)] == [1, 4, 1, 4])
        #expect(computed == [1, 2])
        #expect(square(3) == 9)
        #expect(square(1) == 1)
        #expect(computed == [1, 2, 3, 1])
    }
}
