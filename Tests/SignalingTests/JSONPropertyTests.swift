import Simulation
import Testing
import Signaling

/// Random JSON values and random (non-canonical) ways of writing them.
private struct ValueFactory {
    var random: SplitMix64

    mutating func scalar() -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x20...0x7E, 0x00...0x1F, 0x22...0x22, 0x5C...0x5C, 0x7F...0xFF,
            0x3040...0x30FF, 0x4E00...0x9FFF, 0x1F600...0x1F64F, 0x0300...0x036F, 0x10000...0x10FFFF,
        ]
        let range = ranges[random.below(ranges.count)]
        let value = range.lowerBound + UInt32(random.below(Int(range.upperBound - range.lowerBound) + 1))
        return Unicode.Scalar(value) ?? "?"
    }

    mutating func string() -> String {
        var text = ""
        for _ in 0..<random.below(12) { text.unicodeScalars.append(scalar()) }
        return text
    }

    mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(random.below(10))) })
    }

    mutating func number() -> JSONNumber {
        switch random.below(4) {
        case 0: return JSONNumber(Int(truncatingIfNeeded: random.next()) >> random.below(64))
        case 1:
            let double = Double(bitPattern: random.next())
            return JSONNumber(double) ?? JSONNumber(0)
        default:
            var text = random.percentChance(30) ? "-" : ""
            text += random.percentChance(20) ? "0" : String(1 + random.below(9)) + digits(random.below(25))
            if random.percentChance(50) { text += "." + digits(1 + random.below(8)) }
            if random.percentChance(40) {
                text += random.percentChance(50) ? "e" : "E"
                text += ["", "+", "-"][random.below(3)]
                text += digits(1 + random.below(4))
            }
            return JSONNumber(text: text) ?? JSONNumber(0)
        }
    }

    mutating func value(depth: Int = 0) -> JSONValue {
        let containers = depth < 6
        switch random.below(containers ? 8 : 5) {
        case 0: return .null
        case 1: return .bool(random.percentChance(50))
        case 2: return .number(number())
        case 3, 4: return .string(string())
        case 5, 6:
            return .array((0..<random.below(5)).map { _ in value(depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<random.below(5) {
                let key = string()
                if object[key] == nil { object[key] = value(depth: depth + 1) }
            }
            return .object(object)
        }
    }

    // MARK: a noisy writer: random whitespace, random escapes, same value

    mutating func whitespace() -> String {
        random.percentChance(60) ? "" : String((0..<random.below(3)).map { _ in [" ", "\t", "\n", "\r"][random.below(4)] })
    }

    mutating func hexEscape(_ unit: UInt32) -> String {
        let hex = String(unit, radix: 16, uppercase: random.percentChance(50))
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    mutating func noisyString(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where random.percentChance(50): out += "\\/"
            case _ where scalar.value < 0x20 || random.percentChance(20):
                if scalar.value > 0xFFFF {
                    let offset = scalar.value - 0x10000
                    out += hexEscape(0xD800 + (offset >> 10)) + hexEscape(0xDC00 + (offset & 0x3FF))
                } else {
                    out += hexEscape(scalar.value)
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    mutating func noisyText(_ value: JSONValue) -> String {
        switch value {
        case .null, .bool, .number: return whitespace() + value.jsonText + whitespace()
        case .string(let string): return whitespace() + noisyString(string) + whitespace()
        case .array(let elements):
            let inner = elements.map { noisyText($0) }.joined(separator: ",")
            return whitespace() + "[" + whitespace() + inner + "]" + whitespace()
        case .object(let object):
            let inner = object.members.map { whitespace() + noisyString($0.key) + whitespace() + ":" + noisyText($0.value) }
            return whitespace() + "{" + whitespace() + inner.joined(separator: ",") + "}" + whitespace()
        }
    }
}

@Suite("JSON properties")
struct JSONPropertyTests {
    @Test("2,000 random values: parse(v.jsonText) == v and the encoding is stable")
    func randomRoundTrip() throws {
        var factory = ValueFactory(random: SplitMix64(seed: 0x5167_2026))
        var kinds: Set<String> = []
        for iteration in 0..<2_000 {
            let value = factory.value()
            kinds.insert(value.kindName)
            let text = value.jsonText
            let reparsed = try JSONValue.parse(text)
            #expect(reparsed == value, "iteration \(iteration): \(text)")
            #expect(sameBytes(reparsed.jsonText, text), "iteration \(iteration): unstable encoding")
            #expect(sameBytes(value.jsonText, text))
        }
        #expect(kinds.count == 6)
    }

    @Test("2,000 random values written with noise parse to the same value")
    func noisyRoundTrip() throws {
        var factory = ValueFactory(random: SplitMix64(seed: 0xD00D_F00D))
        for iteration in 0..<2_000 {
            let value = factory.value()
            let noisy = factory.noisyText(value)
            let reparsed = try JSONValue.parse(noisy)
            #expect(sameBytes(reparsed.jsonText, value.jsonText), "iteration \(iteration): \(noisy)")
        }
    }

    @Test("random byte soup never crashes the parser or the frame decoder")
    func fuzz() {
        var random = SplitMix64(seed: 42)
        let alphabet = Array(#"{}[]:,"\\/ tfnrue0123456789.-+Eabc"#.unicodeScalars) + ["\u{1}", "あ", "😀"]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<random.below(40) { text.unicodeScalars.append(alphabet[random.below(alphabet.count)]) }
            if let value = try? JSONValue.parse(text) {
                #expect(sameBytes((try? JSONValue.parse(value.jsonText))?.jsonText ?? "", value.jsonText))
            }
            _ = SignalingMessage.decode(frame: text)
        }
    }
}
