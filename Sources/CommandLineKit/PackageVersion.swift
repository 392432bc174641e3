/// The version of the Tandem package, which every executable's `--version` prints: the one
/// place it is written.
public enum PackageVersion {
  /// The release this build is, as `MAJOR.MINOR.PATCH` (semantic versioning).
  public static let current = "0.1.0"
}
