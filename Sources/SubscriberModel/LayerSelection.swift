/// A subscriber's `preferredResolution` and `preferredFrameRate` (SUB-8). `nil` means no
/// preference (the SDK's "unset"); the subscriber then takes the largest layer the link carries.
public struct LayerPreferences: Sendable, Hashable {
    public var resolution: OpenTokStream.VideoDimensions?
    public var frameRate: Double?

    public init(resolution: OpenTokStream.VideoDimensions? = nil, frameRate: Double? = nil) {
        self.resolution = resolution
        self.frameRate = frameRate
    }
}

/// The Media Router's choice of the scalable-video layer a subscriber receives (SUB-8):
/// the largest layer not exceeding the preferences that the link's bandwidth can carry.
///
/// "Largest" orders by pixel count, then frame rate, then bitrate. If every layer exceeds the
/// preferences, the lowest layer stands in for them *(assumed)*; if the link carries none of
/// the candidates, the lowest-bitrate candidate is sent *(assumed: the router never sends
/// nothing; quality fallback, SUB-5, is what drops video)*. Unknown bandwidth carries all.
public enum LayerSelection {
    public static func choose(
        from layers: [OpenTokStream.Layer],
        preferences: LayerPreferences,
        bandwidthBitsPerSecond: UInt64?
    ) -> OpenTokStream.Layer? {
        guard let lowest = smallest(of: layers) else { return nil }
        let withinPreferences = layers.filter { fits($0, preferences) }
        let pool = withinPreferences.isEmpty ? [lowest] : withinPreferences
        let carried = pool.filter { layer in
            bandwidthBitsPerSecond.map { layer.bitsPerSecond <= $0 } ?? true
        }
        if let best = largest(of: carried) { return best }
        return cheapest(of: pool)
    }

    /// The largest layer, ignoring preferences and bandwidth (what a relayed session sends).
    public static func largest(of layers: [OpenTokStream.Layer]) -> OpenTokStream.Layer? {
        var best: OpenTokStream.Layer?
        for layer in layers where best.map({ isSmaller($0, than: layer) }) ?? true {
            best = layer
        }
        return best
    }

    /// The smallest layer by the same order.
    public static func smallest(of layers: [OpenTokStream.Layer]) -> OpenTokStream.Layer? {
        var best: OpenTokStream.Layer?
        for layer in layers where best.map({ isSmaller(layer, than: $0) }) ?? true {
            best = layer
        }
        return best
    }

    /// The layer with the lowest bitrate (ties: the smaller layer).
    public static func cheapest(of layers: [OpenTokStream.Layer]) -> OpenTokStream.Layer? {
        var best: OpenTokStream.Layer?
        for layer in layers {
            guard let current = best else { best = layer; continue }
            if layer.bitsPerSecond < current.bitsPerSecond
                || (layer.bitsPerSecond == current.bitsPerSecond && isSmaller(layer, than: current)) {
                best = layer
            }
        }
        return best
    }

    static func fits(_ layer: OpenTokStream.Layer, _ preferences: LayerPreferences) -> Bool {
        if let resolution = preferences.resolution,
           layer.width > resolution.width || layer.height > resolution.height {
            return false
        }
        if let frameRate = preferences.frameRate, !(layer.framesPerSecond <= frameRate) {
            return false
        }
        return true
    }

    static func isSmaller(_ a: OpenTokStream.Layer, than b: OpenTokStream.Layer) -> Bool {
        let pixelsA = Double(a.width) * Double(a.height)
        let pixelsB = Double(b.width) * Double(b.height)
        if pixelsA != pixelsB { return pixelsA < pixelsB }
        if a.framesPerSecond != b.framesPerSecond { return a.framesPerSecond < b.framesPerSecond }
        return a.bitsPerSecond < b.bitsPerSecond
    }
}
