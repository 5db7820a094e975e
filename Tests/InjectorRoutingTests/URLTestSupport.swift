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

@testable import InjectorRouting

/// A trie of `patterns`, each inserted with its text as the value.
func makeTrie(_ patterns: [String]) throws -> URLTrie<String> {
    var trie = URLTrie<String>()
    for text in patterns { trie.insert(try URLPattern(text), value: text) }
    return trie
}
