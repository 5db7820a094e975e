/// Where a registration was written: `#fileID:#line`, named in duplicate-registration errors.
struct RegistrationSite: Hashable, Sendable, CustomStringConvertible {
    let fileID: String
    let line: UInt

    init(fileID: StaticString, line: UInt) {
        self.fileID = "\(fileID)"
        self.line = line
    }

    var description: String { "\(fileID):\(line)" }
}
