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

// The dependencies a registration's factory resolved: the edges of the dependency graph.

extension AnyProvider {
    /// One lock for every registration's dependencies: they are written only until a
    /// registration's first construction completes, so a lock each would cost every registration
    /// for nothing. Taken with `lock()`, not `withLock`: a `Locked<Void>`'s empty state shares its
    /// address with the mutex, and ThreadSanitizer reads `withLock`'s access to it as a race with
    /// `lock()`.
    private static let dependencyLock = Locked.make(())

    /// The services the factory resolved, in the order it first resolved them. (Ask the record.)
    var dependencies: [ServiceKey] {
        Self.dependencyLock.lock()
        defer { Self.dependencyLock.unlock() }
        return recordedDependencies
    }

    /// Whether dependencies resolved now still need recording. (Ask the record.)
    var isRecordingDependencies: Bool { !dependenciesKnown.load(ordering: .relaxed) }

    /// Records a dependency of the registration. (On the record.)
    func recordDependency(_ key: ServiceKey) {
        Self.dependencyLock.lock()
        defer { Self.dependencyLock.unlock() }
        if !recordedDependencies.contains(key) { recordedDependencies.append(key) }
    }

    /// Ends recording, after a construction completed. (On the record.)
    func completeRecording() {
        if isRecordingDependencies { dependenciesKnown.store(true, ordering: .relaxed) }
    }
}
