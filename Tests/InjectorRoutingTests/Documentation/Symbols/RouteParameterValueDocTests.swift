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
import InjectorRouting
import Testing

// The snippet of RouteParameterValue's doc comment (Sources/InjectorRouting/Parameters/
// RouteParameterValue.swift): a type of yours read as a parameter, and the types that conform.

private struct NoteID: RawRepresentable, Equatable {
    let rawValue: String
    init?(rawValue: String) {
        guard rawValue.hasPrefix("n-") else { return nil }
        self.rawValue = rawValue
    }
}

extension NoteID: RouteParameterValue {
    init?(routeParameter text: String) { self.init(rawValue: text) }
}

@Suite struct RouteParameterValueDocTests {
    @Test func aTypeOfYoursIsReadThroughItsConformance() throws {
        let parameters: RouteParameters = ["note": "n-42", "other": "42"]

        #expect(try parameters.value("note", as: NoteID.self) == NoteID(rawValue: "n-42"))
        let error = routingError { _ = try parameters.value("other", as: NoteID.self) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message == "The parameter \"other\" is \"42\", which is not a NoteID. Fix: pass a NoteID there.")
    }

    @Test func stringIntDoubleBoolAndUUIDConform() throws {
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let parameters: RouteParameters = [
            "text": "hi", "count": "-7", "ratio": "1.5", "flag": "YES", "off": "0", "id": uuid.lowercased(),
        ]

        #expect(try parameters.value("text", as: String.self) == "hi")
        #expect(try parameters.value("count", as: Int.self) == -7)
        #expect(try parameters.value("ratio", as: Double.self) == 1.5)
        #expect(try parameters.value("flag", as: Bool.self))
        #expect(try !parameters.value("off", as: Bool.self))
        #expect(try parameters.value("id", as: UUID.self) == UUID(uuidString: uuid))
        #expect(Double(routeParameter: "nan") == nil)
        #expect(Double(routeParameter: "inf") == nil)
        #expect(Bool(routeParameter: "maybe") == nil)
    }
}
