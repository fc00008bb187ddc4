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
    /// One pass over `layers`, allocating nothing: this runs at every link sample of every
    /// subscriber. Among the layers within the preferences, the largest the link carries, else
    /// the cheapest of them; when none is within them, the lowest layer stands in (whether the
    /// link carries it or not).
    public static func choose(
        from layers: [OpenTokStream.Layer],
        preferences: LayerPreferences,
        bandwidthBitsPerSecond: UInt64?
    ) -> OpenTokStream.Layer? {
        var largestCarried: OpenTokStream.Layer?
        var cheapestFitting: OpenTokStream.Layer?
        for layer in layers where fits(layer, preferences) {
            let carried = bandwidthBitsPerSecond.map { layer.bitsPerSecond <= $0 } ?? true
            if carried && largestCarried.map({ isSmaller($0, than: layer) }) ?? true { largestCarried = layer }
            if cheapestFitting.map({ isCheaper(layer, than: $0) }) ?? true { cheapestFitting = layer }
        }
        guard cheapestFitting != nil else { return smallest(of: layers) }
        return largestCarried ?? cheapestFitting
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
        for layer in layers where best.map({ isCheaper(layer, than: $0) }) ?? true {
            best = layer
        }
        return best
    }

    /// Whether `a` has a lower bitrate than `b`, or the same and is smaller.
    static func isCheaper(_ a: OpenTokStream.Layer, than b: OpenTokStream.Layer) -> Bool {
        a.bitsPerSecond < b.bitsPerSecond || (a.bitsPerSecond == b.bitsPerSecond && isSmaller(a, than: b))
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
