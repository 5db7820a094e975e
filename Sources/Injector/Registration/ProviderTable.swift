/// An open-addressing hash table from a key to its provider, built once when registration finishes.
///
/// It replaces `Dictionary` on the resolve path: a key's service and argument types are two type
/// identities, which a multiplicative hash spreads well, where `Dictionary` would run SipHash over
/// the whole key on every lookup. A name, when there is one, is hashed in too. Providers are handed out unretained: the registry that built
/// the table keeps them alive, and shared objects on the resolve path are better left unretained,
/// since every retain is an atomic write to a cache line that all resolving threads read.
///
/// The entries live in a buffer the table owns, rather than an array, so that a lookup retains
/// nothing.
final class ProviderTable: @unchecked Sendable {
    private struct Entry {
        let group: GroupKey
        let name: String?
        let provider: Unmanaged<AnyProvider>?
    }

    private let entries: UnsafeMutableBufferPointer<Entry>
    private let shift: Int

    /// Builds the table over `providers`, which the caller keeps alive for the table's lifetime.
    init(_ providers: [AnyProvider]) {
        // At most half full, so that probe sequences stay short.
        var capacityBits = 3
        while 1 << capacityBits < providers.count * 2 { capacityBits += 1 }
        shift = UInt.bitWidth - capacityBits
        let empty = Entry(group: Self.emptyGroup, name: nil, provider: nil)
        entries = .allocate(capacity: 1 << capacityBits)
        entries.initialize(repeating: empty)
        let mask = entries.count - 1
        for provider in providers {
            let key = provider.key.lookupKey
            var index = Self.index(of: key, shift: shift)
            while entries[index].provider != nil { index = (index + 1) & mask }
            entries[index] = Entry(group: key.group, name: key.name, provider: .passUnretained(provider))
        }
    }

    deinit {
        entries.deinitialize()
        entries.deallocate()
    }

    func provider(for key: LookupKey) -> Unmanaged<AnyProvider>? {
        let mask = entries.count - 1
        var index = Self.index(of: key, shift: shift)
        while true {
            if entries[index].group == key.group {
                if entries[index].name == key.name { return entries[index].provider }
            } else if entries[index].provider == nil {
                return nil
            }
            index = (index + 1) & mask
        }
    }

    /// The group of empty entries: the identity of a type no one can register.
    private static let emptyGroup = GroupKey(service: ObjectIdentifier(Empty.self), arguments: ObjectIdentifier(Empty.self))
    private enum Empty {}

    /// Fibonacci hashing of both identities (and the name's hash): the top bits of the product
    /// index the table.
    private static func index(of key: LookupKey, shift: Int) -> Int {
        var mixed = UInt(bitPattern: key.group.service) &+ UInt(bitPattern: key.group.arguments) &* 0x9E37_79B9_7F4A_7C15
        if let name = key.name { mixed ^= UInt(bitPattern: name.hashValue) }
        mixed &*= 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> UInt(shift))
    }
}
