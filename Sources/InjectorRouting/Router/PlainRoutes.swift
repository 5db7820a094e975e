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

/// The service routes that add nothing to their container registrations (no hooks, no parameters,
/// not reached through an adapter) while the router has no interceptor: for them,
/// `Router/makeDestination(to:)` is the container's resolve.
///
/// An open-addressing set of the protocols' identities, probed with a multiplicative hash: a lookup
/// costs a few instructions, where a `Set` would hash each key with SipHash. Immutable; built for each
/// table the router publishes.
final class PlainRoutes: Sendable {
    /// Type identities' bit patterns; 0 marks an empty slot (no type's metadata is at address 0).
    private let slots: [UInt]
    private let shift: UInt

    init(_ table: RouteTable) {
        let plain =
            table.interceptors.isEmpty
            ? table.records.values.filter { $0.key.kind == .service && $0.addsNothing }.map { $0.key.bits } : []
        var capacityLog = 2
        while 1 << capacityLog < plain.count * 2 { capacityLog += 1 }
        shift = UInt(UInt.bitWidth - capacityLog)
        var slots = [UInt](repeating: 0, count: 1 << capacityLog)
        for bits in plain {
            var index = Self.slot(bits, shift: shift)
            while slots[index] != 0 { index = (index + 1) & (slots.count - 1) }
            slots[index] = bits
        }
        self.slots = slots
    }

    /// Whether the route for `key` adds nothing to its registration.
    func contains(_ key: RouteKey) -> Bool {
        let bits = key.bits
        let mask = slots.count - 1
        var index = Self.slot(bits, shift: shift)
        while true {
            let slot = slots[index]
            if slot == bits { return key.kind == .service }
            if slot == 0 { return false }
            index = (index + 1) & mask
        }
    }

    /// Fibonacci hashing: the high bits of the identity times the golden ratio (its 64-bit
    /// constant truncated where `UInt` is 32 bits: watchOS's arm64_32).
    private static func slot(_ bits: UInt, shift: UInt) -> Int {
        Int(truncatingIfNeeded: (bits &* UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)) >> shift)
    }
}
