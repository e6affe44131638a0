/// Decodes a match's parameters into a `Decodable` type: each stored property is a parameter read from its text
/// (strings, integers, floating-point numbers, booleans, and types that decode from one of them such as
/// string-backed enums), optional properties may be absent, and arrays take every value of a repeated query key.
struct RouteParametersDecoder: Decoder {
    let parameters: RouteParameters
    let codingPath: [any CodingKey]
    /// The values a single-value or unkeyed container reads; nil at the top level.
    let values: [String]?

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(parameters: RouteParameters, codingPath: [any CodingKey] = [], values: [String]? = nil) {
        self.parameters = parameters
        self.codingPath = codingPath
        self.values = values
    }

    static func decode<T: Decodable>(_ type: T.Type, from parameters: RouteParameters) throws(RouteParameterError) -> T {
        do {
            return try T(from: RouteParametersDecoder(parameters: parameters))
        } catch let error as RouteParameterError {
            throw error
        } catch let error as DecodingError {
            throw Self.parameterError(error, type: T.self)
        } catch {
            throw RouteParameterError(parameter: "", type: String(reflecting: T.self), reason: .unsupported("\(error)"))
        }
    }

    private static func parameterError<T>(_ error: DecodingError, type: T.Type) -> RouteParameterError {
        let typeName = String(reflecting: T.self)
        switch error {
        case .keyNotFound(let key, let context):
            return RouteParameterError(parameter: name(context.codingPath + [key]), type: typeName, reason: .missing)
        case .valueNotFound(_, let context):
            return RouteParameterError(parameter: name(context.codingPath), type: typeName, reason: .missing)
        case .typeMismatch(let expected, let context):
            return RouteParameterError(
                parameter: name(context.codingPath), type: typeName,
                reason: .unsupported("expected \(expected): \(context.debugDescription)"))
        case .dataCorrupted(let context):
            // This decoder raises it with the expected type as the description and the text as the underlying
            // error; other decoding code raises it with a message of its own.
            guard let text = context.underlyingError as? Text else {
                return RouteParameterError(parameter: name(context.codingPath), type: typeName, reason: .unsupported(context.debugDescription))
            }
            return RouteParameterError(
                parameter: name(context.codingPath), type: typeName, reason: .mistyped(expected: context.debugDescription, value: text.description))
        @unknown default:
            return RouteParameterError(parameter: "", type: typeName, reason: .unsupported("\(error)"))
        }
    }

    /// `tab`, or `tag[1]` for an element of a list.
    private static func name(_ path: [any CodingKey]) -> String {
        var name = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") { name += "[\(index)]" } else { name += key.stringValue }
        }
        return name
    }

    /// Decodes one parameter's values as `T`. A type that decodes from a value and refuses it (a string-backed
    /// enum given an unknown case) is reported as this text not being a valid `T`.
    static func decodeValue<T: Decodable>(_ type: T.Type, from values: [String], codingPath: [any CodingKey]) throws -> T {
        do {
            return try T(from: RouteParametersDecoder(parameters: RouteParameters(), codingPath: codingPath, values: values))
        } catch DecodingError.dataCorrupted(let context) where !(context.underlyingError is Text) {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "\(T.self)", underlyingError: Text(values.first ?? "")))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard values == nil else {
            throw DecodingError.typeMismatch(
                [String: String].self, DecodingError.Context(codingPath: codingPath, debugDescription: "parameters are not nested"))
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let values else {
            throw DecodingError.typeMismatch(
                [String].self, DecodingError.Context(codingPath: codingPath, debugDescription: "the parameters are not a list"))
        }
        return UnkeyedContainer(codingPath: codingPath, values: values)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard let values else {
            throw DecodingError.typeMismatch(
                String.self, DecodingError.Context(codingPath: codingPath, debugDescription: "the parameters are not one value"))
        }
        return SingleValue(codingPath: codingPath, text: values.first)
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: RouteParametersDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { decoder.parameters.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { decoder.parameters.contains(key.stringValue) }

        func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let value = decoder.parameters.value(forKey: key.stringValue) else {
                throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "missing"))
            }
            let values: [String]
            switch value {
            case .string(let string): values = [string]
            case .strings(let strings): values = strings
            case .object(let object):
                if let typed = object as? T { return typed }
                values = [String(describing: object)]
            }
            return try RouteParametersDecoder.decodeValue(T.self, from: values, codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(
                [String: String].self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "parameters are not nested"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            UnkeyedContainer(codingPath: codingPath + [key], values: decoder.parameters.strings(forKey: key.stringValue))
        }

        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }

    private struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue!)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    private struct UnkeyedContainer: UnkeyedDecodingContainer {
        let codingPath: [any CodingKey]
        let values: [String]
        var currentIndex = 0
        var count: Int? { values.count }
        var isAtEnd: Bool { currentIndex >= values.count }

        init(codingPath: [any CodingKey], values: [String]) {
            self.codingPath = codingPath
            self.values = values
        }

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let path = codingPath + [IndexKey(currentIndex)]
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(T.self, DecodingError.Context(codingPath: path, debugDescription: "no more values"))
            }
            let value = try RouteParametersDecoder.decodeValue(T.self, from: [values[currentIndex]], codingPath: path)
            currentIndex += 1
            return value
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(
                [String: String].self, DecodingError.Context(codingPath: codingPath, debugDescription: "parameters are not nested"))
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [String].self, DecodingError.Context(codingPath: codingPath, debugDescription: "lists of parameters are not nested"))
        }

        mutating func superDecoder() throws -> any Decoder {
            RouteParametersDecoder(parameters: RouteParameters(), codingPath: codingPath, values: values)
        }
    }

    /// Reads one parameter's text as the type asked for.
    private struct SingleValue: SingleValueDecodingContainer {
        let codingPath: [any CodingKey]
        let text: String?

        func decodeNil() -> Bool { text == nil }

        private func read<T>(_ type: T.Type, _ parse: (String) -> T?) throws -> T {
            guard let text else {
                throw DecodingError.valueNotFound(T.self, DecodingError.Context(codingPath: codingPath, debugDescription: "missing"))
            }
            guard let value = parse(text) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: codingPath, debugDescription: "\(T.self)", underlyingError: Text(text)))
            }
            return value
        }

        func decode(_ type: String.Type) throws -> String { try read(String.self) { $0 } }
        func decode(_ type: Bool.Type) throws -> Bool {
            try read(Bool.self) { text in
                switch text.lowercased() {
                case "true", "yes", "1": true
                case "false", "no", "0": false
                default: nil
                }
            }
        }
        func decode(_ type: Double.Type) throws -> Double { try read(Double.self, Double.init) }
        func decode(_ type: Float.Type) throws -> Float { try read(Float.self, Float.init) }
        func decode(_ type: Int.Type) throws -> Int { try read(Int.self) { Int($0) } }
        func decode(_ type: Int8.Type) throws -> Int8 { try read(Int8.self) { Int8($0) } }
        func decode(_ type: Int16.Type) throws -> Int16 { try read(Int16.self) { Int16($0) } }
        func decode(_ type: Int32.Type) throws -> Int32 { try read(Int32.self) { Int32($0) } }
        func decode(_ type: Int64.Type) throws -> Int64 { try read(Int64.self) { Int64($0) } }
        func decode(_ type: UInt.Type) throws -> UInt { try read(UInt.self) { UInt($0) } }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try read(UInt8.self) { UInt8($0) } }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try read(UInt16.self) { UInt16($0) } }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try read(UInt32.self) { UInt32($0) } }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try read(UInt64.self) { UInt64($0) } }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try RouteParametersDecoder.decodeValue(T.self, from: text.map { [$0] } ?? [], codingPath: codingPath)
        }
    }

    /// The text that did not read, carried as the underlying error.
    private struct Text: Error, CustomStringConvertible {
        let description: String
        init(_ text: String) { description = text }
    }
}

extension RouteParameters {
    /// Decodes the parameters into `type`: each stored property reads the parameter of its name.
    ///
    /// ```swift
    /// struct UserRoute: Decodable { var id: Int; var tab: String? }
    /// let route = try match.parameters.decode(UserRoute.self)
    /// ```
    ///
    /// - Throws: ``RouteParameterError`` naming the parameter that is missing or does not read as its type.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(RouteParameterError) -> T {
        try RouteParametersDecoder.decode(type, from: self)
    }
}
