extension SignalingMessage {
    /// The message as a JSON object: `type` first, then the payload's members in Sora's
    /// snake_case spelling; absent optionals are left out.
    public var jsonObject: JSONObject {
        var fields = SignalingFieldWriter(type: type)
        payload.write(into: &fields)
        return fields.object
    }

    /// The canonical JSON text of the message, as sent in a text frame.
    public var frame: String { JSONValue.object(jsonObject).jsonText }

    /// Reads one text frame arriving at `side`: a message that may not arrive there (SIG-2) is
    /// a protocol error like any other (SIG-8).
    public static func decode(frame: String, arrivingAt side: SignalingSide) -> Result<SignalingMessage, SignalingProtocolError> {
        decode(frame: frame).flatMap { message in
            message.direction.mayArrive(at: side) ? .success(message) : .failure(.wrongDirection(type: message.type.rawValue, side: side))
        }
    }

    /// Reads one text frame (SIG-1, SIG-8). Members the message does not know are ignored.
    public static func decode(frame: String) -> Result<SignalingMessage, SignalingProtocolError> {
        do {
            return decode(json: try JSONValue.parse(frame))
        } catch {
            return .failure(.notJSON(error))
        }
    }

    /// Reads an already parsed JSON value as a message.
    public static func decode(json: JSONValue) -> Result<SignalingMessage, SignalingProtocolError> {
        guard case .object(let object) = json else { return .failure(.notAnObject(found: json.kindName)) }
        guard let typeValue = object["type"] else { return .failure(.missingType) }
        guard case .string(let typeText) = typeValue else { return .failure(.typeNotAString(found: typeValue.kindName)) }
        guard let type = SignalingMessageType(rawValue: typeText) else { return .failure(.unknownType(typeText)) }
        let fields = SignalingFieldReader(type: typeText, object: object)
        do {
            return .success(try message(of: type, from: fields))
        } catch {
            return .failure(error)
        }
    }

    private static func message(of type: SignalingMessageType, from fields: SignalingFieldReader) throws(SignalingProtocolError) -> SignalingMessage {
        switch type {
        case .connect: .connect(try SignalingConnect(reading: fields))
        case .offer: .offer(try SignalingOffer(reading: fields))
        case .answer: .answer(try SignalingAnswer(reading: fields))
        case .update: .update(try SignalingUpdate(reading: fields))
        case .reOffer: .reOffer(try SignalingReOffer(reading: fields))
        case .reAnswer: .reAnswer(try SignalingReAnswer(reading: fields))
        case .candidate: .candidate(try SignalingCandidate(reading: fields))
        case .notify: .notify(try SignalingNotify(reading: fields))
        case .ping: .ping(try SignalingPing(reading: fields))
        case .pong: .pong(try SignalingPong(reading: fields))
        case .disconnect: .disconnect(try SignalingDisconnect(reading: fields))
        case .push: .push(try SignalingPush(reading: fields))
        case .request: .request(try SignalingRequest(reading: fields))
        }
    }

    private var payload: any SignalingPayload {
        switch self {
        case .connect(let payload): payload
        case .offer(let payload): payload
        case .answer(let payload): payload
        case .update(let payload): payload
        case .reOffer(let payload): payload
        case .reAnswer(let payload): payload
        case .candidate(let payload): payload
        case .notify(let payload): payload
        case .ping(let payload): payload
        case .pong(let payload): payload
        case .disconnect(let payload): payload
        case .push(let payload): payload
        case .request(let payload): payload
        }
    }
}
