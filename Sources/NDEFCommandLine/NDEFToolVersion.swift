/// The version of `ndeftool`, printed by `ndeftool --version`.
public enum NDEFToolVersion {
    /// The current version (semantic versioning).
    public static let current = "0.1.0"
}
