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

import Injector
import Testing

// The docs' "Collections: resolveAll": one instance per registration of a type without
// arguments, named and unnamed, parents' registrations first, each in registration order.

private protocol Plugin { var name: String { get } }
private struct SpellingPlugin: Plugin { let name = "spelling" }
private struct WordCountPlugin: Plugin { let name = "word count" }
private struct NamedPlugin: Plugin { let name: String }

@Suite struct ReadmeResolveAllTests {
    @Test func resolveAllReturnsOneInstancePerRegistrationInRegistrationOrder() throws {
        let container = Container()

        // README begins
        container.register(Plugin.self, name: "spelling") { _ in SpellingPlugin() }
        container.register(Plugin.self, name: "word count") { _ in WordCountPlugin() }
        let plugins = try container.resolveAll(Plugin.self)
        // README ends

        #expect(plugins.map(\.name) == ["spelling", "word count"])
    }

    @Test func resolveAllListsTheParentsRegistrationsFirstAndLeavesOutThoseWithArguments() throws {
        let parent = Container()
        parent.register(Plugin.self, name: "spelling") { _ in SpellingPlugin() }
        let child = parent.makeChild()
        child.register(Plugin.self) { _ in NamedPlugin(name: "unnamed") }
        child.register(Plugin.self) { (_, name: String) in NamedPlugin(name: name) }
        child.register(Plugin.self, name: "word count") { _ in WordCountPlugin() }
        parent.register(Plugin.self, name: "late") { _ in NamedPlugin(name: "late") }

        #expect(try child.resolveAll(Plugin.self).map(\.name) == ["spelling", "late", "unnamed", "word count"])
        #expect(try parent.resolveAll(Plugin.self).map(\.name) == ["spelling", "late"])
    }
}
