import Foundation
import Signaling

/// Received arbitrary JSON as the Sora SDK hands it to the app (SIG-2, SIG-4): "任意の JSON 値の
/// 型は Any? です" (an arbitrary JSON value has the type `Any?`), parsed by `JSONSerialization`
/// into NSString, NSNumber, NSArray, NSDictionary or NSNull, so the page's
/// `notify.metadata as? [String: Any]` finds the object. Absent is nil; `null` is NSNull.
extension SignalingNotify {
    /// `metadata`, as the SDK's `Any?`; `metadataValue` holds it typed.
    public var metadata: Any? { metadataValue.foundationObject }
    /// `authn_metadata`, as the SDK's `Any?`; `authnMetadataValue` holds it typed.
    public var authnMetadata: Any? { authnMetadataValue.foundationObject }
    /// `authz_metadata`, as the SDK's `Any?`; `authzMetadataValue` holds it typed.
    public var authzMetadata: Any? { authzMetadataValue.foundationObject }
}

extension SignalingPush {
    /// `data`, as the SDK's `Any?`; `dataValue` holds it typed.
    public var data: Any? { dataValue.foundationObject }
}

extension Optional where Wrapped == JSONValue {
    /// The value as `JSONSerialization` parses its text; nil when absent, or for a value
    /// `JSONSerialization` does not take (a number beyond a Double's range, such as `1e400`).
    var foundationObject: Any? {
        guard let value = self else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(value.jsonText.utf8), options: [.fragmentsAllowed])
    }
}
