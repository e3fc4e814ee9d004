import Foundation

/// Checks JSON against the JSON Schema files of `Fixtures/schemas/` (draft 2020-12, the part
/// those files use): `type` (one or a list, `integer` for whole numbers), `properties`,
/// `required`, `additionalProperties` (`false` or a schema), `items`, `enum`, `const`, `pattern`,
/// `minimum`, `maximum`, `minItems`, `oneOf`, `anyOf` and `$ref` to `#/$defs/...` of the same file
/// or of another file of the folder (`definitions.schema.json#/$defs/chip`).
///
/// A keyword outside that part is an error of the schema, so a schema never checks less than it
/// says.
public struct JSONSchemaValidator {
    /// The folder of the schema files.
    public let folder: URL
    private var documents: [String: Any] = [:]

    /// A validator for the schema files in `folder` (default: `Fixtures/schemas`).
    public init(folder: URL = PackagePaths.fixtures.appendingPathComponent("schemas")) {
        self.folder = folder
    }

    static let keywords: Set<String> = [
        "$schema", "$id", "$defs", "$ref", "$comment", "title", "description", "type", "properties", "required",
        "additionalProperties", "items", "enum", "const", "pattern", "minimum", "maximum", "minItems", "oneOf",
        "anyOf", "examples",
    ]

    /// The problems of `json` (text) against the schema file `name`: one line each, with the path
    /// of the value (`$.chip.name`); empty when it is valid.
    public mutating func problems(_ json: String, schema name: String) throws -> [String] {
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        let schema = try document(name)
        var problems: [String] = []
        try check(value, against: schema, file: name, path: "$", problems: &problems)
        return problems
    }

    private mutating func document(_ name: String) throws -> Any {
        if let cached = documents[name] { return cached }
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        let parsed = try JSONSerialization.jsonObject(with: data)
        documents[name] = parsed
        return parsed
    }

    private mutating func resolve(_ reference: String, from file: String) throws -> (Any, String) {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let target = parts[0].isEmpty ? file : String(parts[0])
        var node = try document(target)
        let pointer = parts.count > 1 ? parts[1] : ""
        for key in pointer.split(separator: "/") {
            guard let object = node as? [String: Any], let next = object[String(key)] else {
                throw SchemaError("\(file): $ref \(reference) names nothing")
            }
            node = next
        }
        return (node, target)
    }

    private mutating func check(
        _ value: Any, against schema: Any, file: String, path: String, problems: inout [String]
    ) throws {
        if let flag = schema as? Bool {
            if !flag { problems.append("\(path): not allowed") }
            return
        }
        guard let schema = schema as? [String: Any] else { throw SchemaError("\(file): a schema is not an object") }
        for key in schema.keys where !Self.keywords.contains(key) {
            throw SchemaError("\(file): keyword \(key) is not supported by the test's validator")
        }
        if let reference = schema["$ref"] as? String {
            let (target, targetFile) = try resolve(reference, from: file)
            try check(value, against: target, file: targetFile, path: path, problems: &problems)
        }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [types as? String].compactMap { $0 }
            if !allowed.contains(where: { Self.value(value, is: $0) }) {
                problems.append("\(path): \(Self.describe(value)) is not \(allowed.joined(separator: " or "))")
                return
            }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal($0, value) }) {
            problems.append("\(path): \(Self.describe(value)) is not one of \(options)")
        }
        if let constant = schema["const"], !Self.equal(constant, value) {
            problems.append("\(path): \(Self.describe(value)) is not \(constant)")
        }
        if let text = value as? String, let pattern = schema["pattern"] as? String,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            problems.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        if let number = value as? NSNumber, !Self.isBool(value) {
            if let minimum = schema["minimum"] as? NSNumber, number.doubleValue < minimum.doubleValue {
                problems.append("\(path): \(number) is under \(minimum)")
            }
            if let maximum = schema["maximum"] as? NSNumber, number.doubleValue > maximum.doubleValue {
                problems.append("\(path): \(number) is over \(maximum)")
            }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                problems.append("\(path): \(name) is missing")
            }
            for (name, item) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties[name] {
                    try check(item, against: property, file: file, path: "\(path).\(name)", problems: &problems)
                } else if let additional = schema["additionalProperties"] {
                    try check(item, against: additional, file: file, path: "\(path).\(name)", problems: &problems)
                }
            }
        }
        if let array = value as? [Any] {
            if let minimum = schema["minItems"] as? Int, array.count < minimum {
                problems.append("\(path): \(array.count) items, under \(minimum)")
            }
            if let items = schema["items"] {
                for (index, item) in array.enumerated() {
                    try check(item, against: items, file: file, path: "\(path)[\(index)]", problems: &problems)
                }
            }
        }
        for (keyword, needsOne) in [("oneOf", true), ("anyOf", false)] {
            guard let options = schema[keyword] as? [Any] else { continue }
            var matching = 0
            for option in options {
                var found: [String] = []
                try check(value, against: option, file: file, path: path, problems: &found)
                if found.isEmpty { matching += 1 }
            }
            if matching == 0 || (needsOne && matching > 1) {
                problems.append("\(path): \(Self.describe(value)) matches \(matching) of the \(keyword) choices")
            }
        }
    }

    /// Whether a parsed value is `true` or `false` (JSONSerialization gives booleans as numbers
    /// of Objective-C type `c`; whole numbers are `i` or `q`).
    private static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func value(_ value: Any, is type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "boolean": return isBool(value)
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        case "number": return value is NSNumber && !isBool(value)
        case "integer":
            guard let number = value as? NSNumber, !isBool(value) else { return false }
            return number.doubleValue == number.doubleValue.rounded()
        default: return false
        }
    }

    private static func equal(_ left: Any, _ right: Any) -> Bool {
        if let left = left as? String, let right = right as? String { return left == right }
        if isBool(left) || isBool(right) {
            return isBool(left) && isBool(right) && (left as? NSNumber) == (right as? NSNumber)
        }
        if let left = left as? NSNumber, let right = right as? NSNumber { return left == right }
        return left is NSNull && right is NSNull
    }

    private static func describe(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if isBool(value) { return "a boolean" }
        if value is String { return "a string" }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        return "a number"
    }
}

/// A schema file the validator cannot use.
public struct SchemaError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
