import StageCore

/// A local capture device, as the SDK's `IVSDevice` (STR-4): what a `LocalStageStream` is made
/// from (`IVSLocalStageStream(device: camera)`), and so what media the stream carries. Device
/// discovery (`IVSDeviceDiscovery`) is not modelled: a test makes the device it needs.
public protocol LocalDevice: AnyObject {
    /// What the device captures.
    var mediaKind: MediaKind { get }
}

/// The SDK's `IVSCamera`: a video device.
public final class IVSCamera: LocalDevice {
    public init() {}
    public var mediaKind: MediaKind { .video }
}

/// The SDK's `IVSMicrophone`: an audio device.
public final class IVSMicrophone: LocalDevice {
    public init() {}
    public var mediaKind: MediaKind { .audio }
}
