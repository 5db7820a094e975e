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
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// Turns every error into a JSON body with the status and a message people can act on:
/// `{"error": {"status": 404, "message": "…", "requestID": "…"}}`.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPParserError {
            // A request the client did not send as HTTP (a malformed chunk), or a body cut short
            // by a client that went away: Hummingbird answers 400 and closes the connection, which
            // can carry nothing more. Not the server's failure: no 500, no error logged.
            throw error
        } catch {
            let (status, message) = Self.describe(error, request: request, context: context)
            if status.code >= 500 {
                context.logger.error("request failed: \(error)")
            }
            let body = ErrorBody(error: .init(status: Int(status.code), message: message, requestID: context.id))
            let data = try JSONEncoder.notes.encode(body)
            var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
            headers[.requestID] = context.id
            if let httpError = error as? HTTPError { headers.append(contentsOf: httpError.headers) }
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    static func describe(_ error: any Error, request: Request, context: Context) -> (HTTPResponse.Status, String) {
        guard let error = error as? any HTTPResponseError else {
            return (.internalServerError, "The server failed to handle the request; nothing was saved.")
        }
        let message = (error as? HTTPError)?.body
        switch error.status {
        case .contentTooLarge:
            return (error.status, message ?? "The request body is larger than \(context.maxUploadSize) bytes.")
        case .notFound:
            return (error.status, message ?? "No route for \(request.method) \(request.uri.path).")
        case .methodNotAllowed:
            return (error.status, message ?? "\(request.method) is not allowed on \(request.uri.path).")
        default:
            return (error.status, message ?? error.status.reasonPhrase)
        }
    }
}
