/// Where a registration was written: `#fileID:#line`, named in duplicate-registration errors.
struct RegistrationSite: Sendable, CustomStringConvertible {
    let fileID: StaticString
    /// 32 bits, so that a site packs into 24 bytes with the file's 17.
    let line: UInt32

    init(fileID: StaticString, line: UInt) {
        self.fileID = fileID
        self.line = UInt32(truncatingIfNeeded: line)
    }

    var description: String { "\(fileID):\(line)" }
}
