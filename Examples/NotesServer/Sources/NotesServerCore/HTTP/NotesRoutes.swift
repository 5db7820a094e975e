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

import Hummingbird

/// The notes API. The handlers are the same under both groups: they ask the context for the
/// request's `NotesService`, whether a lifetime scope or the hand-wired middleware made it.
public enum NotesRoutes {
    public static func add(to group: RouterGroup<AppRequestContext>) {
        group.get { _, context in
            NoteList(notes: try await context.notes().list())
        }
        group.post { request, context in
            let input = try await request.decode(as: NoteInput.self, context: context)
            let note = try context.notes().create(input)
            return EditedResponse(status: .created, headers: [.location: "/notes/\(note.id)"], response: note)
        }
        group.post("batch") { request, context in
            let inputs = try await request.decode(as: [NoteInput].self, context: context)
            let notes = try context.notes().create(batch: inputs)
            return EditedResponse(status: .created, response: NoteList(notes: notes))
        }
        group.get(":id") { _, context in
            try await context.notes().note(id: context.parameters.require("id"))
        }
        group.put(":id") { request, context in
            let input = try await request.decode(as: NoteInput.self, context: context)
            return try await context.notes().update(id: context.parameters.require("id"), with: input)
        }
        group.delete(":id") { _, context in
            try await context.notes().delete(id: context.parameters.require("id"))
            return HTTPResponse.Status.noContent
        }
    }
}
