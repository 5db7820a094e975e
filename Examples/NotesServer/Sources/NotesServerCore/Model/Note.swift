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
import GRDB
import Hummingbird

/// A note, as stored in the `note` table and as the API returns it.
public struct Note: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord, ResponseEncodable {
    public var id: String
    public var title: String
    public var body: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, title: String, body: String, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What a client sends to create or replace a note.
public struct NoteInput: Codable, Sendable {
    public var title: String
    public var body: String?

    public init(title: String, body: String? = nil) {
        self.title = title
        self.body = body
    }
}

/// The list of notes `GET /notes` returns.
public struct NoteList: Codable, Sendable, ResponseEncodable {
    public var notes: [Note]
}

/// The error body every 4xx and 5xx response carries.
public struct ErrorBody: Codable, Sendable {
    public struct Detail: Codable, Sendable {
        public var status: Int
        public var message: String
        public var requestID: String?
    }
    public var error: Detail
}
