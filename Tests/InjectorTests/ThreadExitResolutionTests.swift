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

import Foundation
import Injector
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a thread-specific key's destructor resolves when its thread exits, and what it got.
private final class ResolveOnExit: @unchecked Sendable {
    let container: Container
    let resolved = NSLock()
    var outcome: String?

    init(container: Container) { self.container = container }

    func resolve() {
        let result = Result { try container.resolve(ExitNote.self) }
        resolved.withLock {
            outcome =
                switch result {
                case .success(let note): note.text
                case .failure(let error): "\(error)"
                }
        }
    }
}

private struct ExitNote { let text: String }

/// A key made after the container's own, so that its destructor runs after the thread's
/// resolution context has been released.
private let exitKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { value in
        guard let value else { return }
        Unmanaged<ResolveOnExit>.fromOpaque(value).takeRetainedValue().resolve()
    }
    return key
}()

@Suite struct ThreadExitResolutionTests {
    /// A destructor run as a thread exits (another library's thread-specific value, released then)
    /// resolves after the thread's own resolution context is gone: the resolve makes a new one,
    /// never reaching the released one.
    @Test func aResolveFromAThreadExitDestructorAfterTheThreadsContextIsReleasedSucceeds() async throws {
        let container = Container()
        container.register(ExitNote.self) { _ in ExitNote(text: "resolved at exit") }
        _ = try container.resolve(ExitNote.self)  // the container's key exists before `exitKey`
        for _ in 0..<20 {
            let onExit = ResolveOnExit(container: container)
            Thread {
                _ = try? container.resolve(ExitNote.self)  // the thread keeps a context
                pthread_setspecific(exitKey, Unmanaged.passRetained(onExit).toOpaque())
            }.start()
            let deadline = Date().addingTimeInterval(10)
            while onExit.resolved.withLock({ onExit.outcome }) == nil, Date() < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(onExit.resolved.withLock { onExit.outcome } == "resolved at exit")
        }
    }
}
