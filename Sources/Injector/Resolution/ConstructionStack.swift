/// The services under construction in one resolution, outermost first: what cycle detection
/// searches and error paths show.
///
/// The innermost entry is kept apart from the rest, so that a resolve without nested resolves
/// allocates nothing. Entries are unretained: the registries that hold the providers outlive the
/// resolution.
struct ConstructionStack {
    private var innermost: Unmanaged<AnyProvider>?
    private var outer: [Unmanaged<AnyProvider>] = []

    var count: Int { innermost == nil ? 0 : outer.count + 1 }

    mutating func push(_ provider: AnyProvider) {
        if let innermost { outer.append(innermost) }
        innermost = .passUnretained(provider)
    }

    mutating func pop() {
        innermost = outer.popLast()
    }

    /// The entries from `provider`'s outermost occurrence to the innermost, if it is on the stack.
    func cycle(closedBy provider: AnyProvider) -> [AnyProvider]? {
        guard let innermost else { return nil }
        let entries = outer + [innermost]
        guard let start = entries.firstIndex(where: { $0.takeUnretainedValue() === provider }) else { return nil }
        return entries[start...].map { $0.takeUnretainedValue() }
    }

    /// Whether `provider` is on the stack; checks the innermost entry first, without allocating.
    func contains(_ provider: AnyProvider) -> Bool {
        guard let innermost else { return false }
        if innermost.toOpaque() == Unmanaged.passUnretained(provider).toOpaque() { return true }
        let target = Unmanaged.passUnretained(provider).toOpaque()
        return outer.contains { $0.toOpaque() == target }
    }

    /// The keys on the stack, outermost first.
    var keys: [ServiceKey] {
        guard let innermost else { return [] }
        return (outer + [innermost]).map { $0.takeUnretainedValue().key }
    }
}
