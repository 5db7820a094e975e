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

/// A family of async resolutions building shared instances together: a top-level async resolution
/// and every resolution started within its async factories, in their tasks or in child tasks
/// (`async let`), which take the instance gates it holds and so run at the same time.
///
/// The first of the family to ask for an instance builds it; the others wait at the family's gate
/// for it and then share what it built, so that the factory runs once however the family asks. If
/// the builder fails, or the instance it built is discarded with a construction that failed, the
/// gate opens empty and the next one to ask builds.
///
/// This object is the family's identity: its gates live in `InstanceGates`' table (`pass`, `open`,
/// `discard`), so that a wait at one of them is part of the search for waits that can never end.
/// They are removed when the family's last resolution lets go of this object.
final class ConstructionGates: Sendable {
    deinit {
        InstanceGates.removeFamily(ObjectIdentifier(self))
    }
}
