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

/// A group of registrations that belong together, applied with `Container.install(_:)`.
///
/// ```swift
/// struct StorageModule: Module {
///     func register(into container: Container) {
///         container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
///         container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
///     }
/// }
/// ```
public protocol Module {
    /// Registers this module's services into `container`.
    func register(into container: Container)
}
