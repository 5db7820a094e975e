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

/// An error whose message says how to fix it (a routing error): a failure that quotes it, such as
/// a factory's, adds no fix of its own.
package protocol ErrorWithFix: Error {}
