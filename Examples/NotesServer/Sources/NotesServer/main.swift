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
import NotesServerCore

// swift run --package-path Examples/NotesServer NotesServer [--data-dir PATH] [--port N] (--help for all)
do {
    let options = try NotesServerOptions.parse(Array(CommandLine.arguments.dropFirst()))
    try await NotesServer(options: options).run()
} catch let error as NotesServerOptions.UsageError {
    if error.isHelp {
        print(error)
        exit(0)
    }
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("NotesServer: \(error)\n".utf8))
    exit(1)
}
