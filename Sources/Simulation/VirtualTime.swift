import Foundation

/// A point on the simulation's virtual clock, in integer nanoseconds since the run began (NET-1).
///
/// Nothing in the model reads the wall clock: time moves only when the driver fires an event.
public struct VirtualTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static let zero = VirtualTime(nanoseconds: 0)

    public static func milliseconds(_ value: UInt64) -> VirtualTime { VirtualTime(nanoseconds: value * 1_000_000) }
    public static func seconds(_ value: UInt64) -> VirtualTime { VirtualTime(nanoseconds: value * 1_000_000_000) }

    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public static func + (lhs: VirtualTime, rhs: VirtualDuration) -> VirtualTime {
        VirtualTime(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }
    public static func - (lhs: VirtualTime, rhs: VirtualTime) -> VirtualDuration {
        VirtualDuration(nanoseconds: lhs.nanoseconds >= rhs.nanoseconds ? lhs.nanoseconds - rhs.nanoseconds : 0)
    }

    /// `12.345s`, millisecond precision: the timeline's time column.
    public var description: String { VirtualDuration(nanoseconds: nanoseconds).secondsText }
}

/// A span of virtual time in integer nanoseconds: latencies, timeouts, backoffs.
public struct VirtualDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static let zero = VirtualDuration(nanoseconds: 0)
    public static func milliseconds(_ value: UInt64) -> VirtualDuration { VirtualDuration(nanoseconds: value * 1_000_000) }
    public static func seconds(_ value: UInt64) -> VirtualDuration { VirtualDuration(nanoseconds: value * 1_000_000_000) }

    public static func < (lhs: VirtualDuration, rhs: VirtualDuration) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public static func + (lhs: VirtualDuration, rhs: VirtualDuration) -> VirtualDuration {
        VirtualDuration(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }
    /// The difference, or zero when `rhs` is longer (durations are never negative).
    public static func - (lhs: VirtualDuration, rhs: VirtualDuration) -> VirtualDuration {
        VirtualDuration(nanoseconds: lhs.nanoseconds >= rhs.nanoseconds ? lhs.nanoseconds - rhs.nanoseconds : 0)
    }
    public static func * (lhs: VirtualDuration, rhs: UInt64) -> VirtualDuration {
        VirtualDuration(nanoseconds: lhs.nanoseconds &* rhs)
    }

    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    /// Seconds with millisecond precision, e.g. `1.250s`.
    public var secondsText: String {
        let millis = nanoseconds / 1_000_000
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }

    /// The shortest exact spelling in the scenario format: `1500ms`, `2s`, `250us`.
    public var description: String {
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000)s" }
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
        if nanoseconds % 1_000 == 0 { return "\(nanoseconds / 1_000)us" }
        return "\(nanoseconds)ns"
    }

    /// Parses `250ms`, `1.5s`, `30s`, `100us`, `7ns`; nil when the text is not a duration.
    public init?(parsing text: String) {
        let units: [(suffix: String, nanosecondsPerUnit: Double)] = [
            ("ms", 1_000_000), ("us", 1_000), ("ns", 1), ("s", 1_000_000_000),
        ]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let unit = units.first(where: { trimmed.hasSuffix($0.suffix) }) else { return nil }
        let number = trimmed.dropLast(unit.suffix.count)
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }),
              let value = Double(number), value >= 0, value * unit.nanosecondsPerUnit < 1.8e19
        else { return nil }
        self.nanoseconds = UInt64((value * unit.nanosecondsPerUnit).rounded())
    }
}
