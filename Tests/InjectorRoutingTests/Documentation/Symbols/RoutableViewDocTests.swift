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
import InjectorRouting
import Testing

// The swift block of RoutableView's doc comment, verbatim: a view protocol declared routable, and
// a route to it pushed. The fixtures have an `EditorView` of their own, so the comment's lives in
// the namespace below; its declaring extension finds it through the typealias of this file.

/// The doc comment's types, and its tests.
enum RoutableViewDoc {
    fileprivate struct Note { let title: String }

    fileprivate protocol EditorView: AnyObject { var note: Note? { get set } }

    fileprivate final class EditorScreen: EditorView, CustomStringConvertible {
        var note: Note?
        var description: String { "EditorScreen" }
    }
}

extension RoutableView {
    /// The doc comment's `EditorView`, for the declaring extension below, in this file only.
    fileprivate typealias EditorView = RoutableViewDoc.EditorView
}

extension RoutableView where Protocol == any EditorView {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

extension RoutableViewDoc {
    @MainActor
    struct RoutableViewDocTests {
        @Test func aDeclaredViewProtocolIsRoutedTo() throws {
            let home = HomeScreen()
            let host = HeadlessNavigationHost(navigationStackWith: home)
            let router = Router(container: Container(), host: host)
            router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }

            try router.perform(to: RoutableView<any EditorView>(), path: .push(from: home))

            #expect(
                host.description == "HomeScreen (root of a navigation stack)\n└─ EditorScreen (pushed from HomeScreen)"
            )
        }
    }
}
