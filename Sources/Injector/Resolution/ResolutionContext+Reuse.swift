#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Each thread keeps the context of its last resolve, so that the next one allocates none.

extension ResolutionContext {
    /// The thread-specific slot holding a thread's cached context (retained; released when the
    /// thread exits).
    private static let cacheKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { context in
            guard let context else { return }
            Unmanaged<ResolutionContext>.fromOpaque(context).release()
        }
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    /// A context for a new top-level resolve: this thread's cached one when it is free, or a new one
    /// when a resolve is already running on this thread (a factory resolving from a container
    /// rather than its resolver). Pair with `end()`.
    @usableFromInline static func begin() -> ResolutionContext {
        guard let cached = pthread_getspecific(cacheKey) else {
            let context = ResolutionContext()
            pthread_setspecific(cacheKey, Unmanaged.passRetained(context).toOpaque())
            context.isInUse = true
            return context
        }
        let context = Unmanaged<ResolutionContext>.fromOpaque(cached).takeUnretainedValue()
        guard !context.isInUse else {
            let nested = ResolutionContext(nestedIn: context.innermostNested ?? context)
            context.innermostNested = nested
            nested.isInUse = true
            return nested
        }
        context.isInUse = true
        return context
    }
}
