/// Where a registration was written: `#fileID:#line`, named in duplicate-registration errors.
struct RegistrationSite: Sendable, CustomStringConvertible {
    let fileID: StaticString
    let line: UInt

    var description: String { "\(fileID):\(line)" }
}
