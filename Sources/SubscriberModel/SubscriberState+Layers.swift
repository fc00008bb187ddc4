// SUB-8: the app's layer preferences.
extension SubscriberState {
    /// `preferredResolution`; (0, 0) clears it, negative or half-zero sizes are ignored.
    mutating func preferredResolutionStep(width: Int, height: Int) -> SubscriberStep {
        let wanted: OpenTokStream.VideoDimensions?
        if width == 0 && height == 0 {
            wanted = nil
        } else if width > 0 && height > 0 {
            wanted = OpenTokStream.VideoDimensions(width: width, height: height)
        } else {
            return .ignoring("setPreferredResolution ignored: \(width)x\(height) is not a size (use 0x0 to clear)")
        }
        preferences.resolution = wanted
        return SubscriberStep(events: announcePending())
    }

    /// `preferredFrameRate`; 0 clears it, negative, NaN or infinite rates are ignored.
    mutating func preferredFrameRateStep(_ fps: Double) -> SubscriberStep {
        guard fps.isFinite, fps >= 0 else {
            return .ignoring("setPreferredFrameRate ignored: \(fps) is not a frame rate (use 0 to clear)")
        }
        preferences.frameRate = fps == 0 ? nil : fps
        return SubscriberStep(events: announcePending())
    }
}
