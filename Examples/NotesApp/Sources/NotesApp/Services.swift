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

// The app's services: made on any thread, so they opt out of the module's main-actor default, as a
// Swift 6.2 app's model layer does.
import Injector

/// A note.
nonisolated struct Note: Sendable, Equatable {
    let id: Int
    var text: String
}

/// Where notes are kept.
nonisolated protocol NoteStore: Sendable {
    func note(_ id: Int) -> Note?
}

nonisolated final class MemoryNoteStore: NoteStore {
    private let notes: [Int: Note]
    init(_ notes: [Note]) { self.notes = Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0) }) }
    func note(_ id: Int) -> Note? { notes[id] }
}

/// Tells the time; a test swaps it for a fixed one.
nonisolated protocol Clock: Sendable {
    var now: String { get }
}

nonisolated struct SystemClock: Clock {
    var now: String { "now" }
}

/// One editing session's draft, closed with its scope.
nonisolated final class Draft: Disposable, @unchecked Sendable {  // touched by one session at a time
    var text = ""
    private(set) var isDiscarded = false
    func dispose() { isDiscarded = true }
}

extension ScopeTag {
    /// An editing session.
    nonisolated static let session: ScopeTag = "session"
}
