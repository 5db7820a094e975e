//===----------------------------------------------------------------------===//
//
// This source file is part of the Injector open source project
//
// Copyright (c) 2026 the Injector project authors
// Licensed under Apache License v2.0
//
// See LICENSE.txt for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import InjectorAtomics

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a resolution when the thread's stack is about to run out, so that a very deep chain of
/// nested resolves fails with ``InjectionError/Code/resolutionTooDeep`` instead of crashing.
///
/// A resolution bound to a thread checks from its first level: threads can be made with small
/// stacks (256 KiB, and less), on which a debug build's few kilobytes per level run out within tens
/// of levels. The stack bounds are read once per thread (the thread's context keeps them); from then
/// on each level compares an address. An async resolution, which moves between threads and keeps
/// its frames off the thread's stack, checks from `asyncCheckedDepth` levels, looking the bounds up
/// at each check; the sync resolutions nested in it are thread-bound and check from their first.
struct StackGuard {
    /// Depth from which an async resolution checks the stack of the thread it runs on.
    static let asyncCheckedDepth = 64
    /// Stack kept free for the factories and the error path, at most: more than any one level uses.
    static let largestReserve: UInt = 192 * 1024
    /// The depth allowed where the platform does not tell a thread's stack bounds: what fits in
    /// 512 KiB, the smallest default thread stack of the supported platforms, in a debug build.
    static let depthWithoutBounds = 100

    private enum Limit {
        case unknown
        /// The lowest address a level may use, and the thread's stack.
        case address(UInt, stack: Range<UInt>)
        case depth(Int)
    }

    private var limit = Limit.unknown
    /// For a thread-bound guard whose limit is an address: the addresses of the thread's stack a
    /// level may use, which each check compares first (`roomy`), without the switch on `limit`.
    /// Empty until then, and for an async resolution's guard.
    private var roomy: Range<UInt> = 0..<0
    private var checkedDepth: Int
    /// Whether the resolution stays on one thread, so that the limit found once holds. An async
    /// resolution moves between threads: its guard looks the limit up at each check.
    private let isThreadBound: Bool

    init(isThreadBound: Bool = true) {
        self.isThreadBound = isThreadBound
        checkedDepth = isThreadBound ? 0 : Self.asyncCheckedDepth
    }

    @inline(__always)
    mutating func hasRoom(atDepth depth: Int) -> Bool {
        guard depth >= checkedDepth else { return true }
        let address = UInt(injector_frame_address())
        if roomy.contains(address) { return true }  // the usual answer, once the limit is known
        return hasRoom(atDepth: depth, at: address)
    }

    /// Whether a level at `depth` whose frame is at `address` leaves room on the stack.
    ///
    /// An address that is not on the thread's stack says nothing of it: the depth then decides, as
    /// where the platform does not tell the stack's bounds.
    mutating func hasRoom(atDepth depth: Int, at address: UInt) -> Bool {
        if !isThreadBound { limit = .unknown }
        resolveLimit()
        switch limit {
        case .address(let lowestUsable, let stack):
            if stack.contains(address) { return address > lowestUsable }
            return depth < Self.depthWithoutBounds
        case .depth(let maximum):
            return depth < maximum
        case .unknown:
            return true
        }
    }

    /// A guard for a resolution nested in another on this thread: it checks from the first level,
    /// with the limit this guard has found (looking it up now if need be).
    mutating func forNestedResolution() -> StackGuard {
        if isThreadBound { resolveLimit() }
        var nested = isThreadBound ? self : StackGuard()
        nested.resolveLimit()
        nested.checkedDepth = 0
        return nested
    }

    private mutating func resolveLimit() {
        guard case .unknown = limit else { return }
        guard let (bottom, size) = Self.currentThreadStack() else {
            limit = .depth(Self.depthWithoutBounds)
            return
        }
        // A quarter of a small stack: on a 256 KiB one, 64 KiB, several levels and the error path.
        let lowestUsable = bottom + min(Self.largestReserve, size / 4)
        limit = .address(lowestUsable, stack: bottom..<bottom + size)
        if isThreadBound { roomy = lowestUsable + 1..<bottom + size }
    }

    /// The lowest address of the current thread's stack (stacks grow down) and its size, if the
    /// platform says.
    private static func currentThreadStack() -> (bottom: UInt, size: UInt)? {
        #if canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        let size = UInt(pthread_get_stacksize_np(pthread_self()))
        return (top - size, size)
        #elseif canImport(Glibc) || canImport(Musl)
        // pthread_getattr_np is a GNU extension the Glibc module does not import: look it up.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
        let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0 else { return nil }
        return (UInt(bitPattern: address), UInt(size))
        #else
        return nil
        #endif
    }
}
