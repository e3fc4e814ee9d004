public enum NDEFCommandLine { public static func main(_ arguments: [String]) -> Int32 { 0 } }
