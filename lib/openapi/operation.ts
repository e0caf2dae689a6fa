import { z } from "zod";
import type {
  ZodOpenApiOperationObject,
  ZodOpenApiResponseObject,
  ZodOpenApiResponsesObject,
} from "zod-openapi";
import { type ErrorBody, type ErrorCode, errorStatus } from "@/lib/errors";
import { MAX_BODY_BYTES } from "@/lib/http/read-json";
import { describes } from "./type-check";

/** How one operation is described: what it takes, what it answers, who may call it. */

const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];

export const errorBodySchema = describes<{ error: ErrorBody }>()(
  z
    .object({
      error: z.object({
        code: z.enum(errorCodes).meta({ description: "Stable, machine-readable: switch on it." }),
        message: z.string().meta({ description: "Written for the person who sent the request." }),
        fieldErrors: z
          .record(z.string(), z.array(z.string()))
          .optional()
          .meta({ description: 'Per field (dotted path, e.g. "auth.credential"), what is wrong with it.' }),
      }),
    })
    .meta({ id: "Error", description: "Every refusal and failure has this shape." }),
);

/**
 * Who may call it. read/decide/manage are workspace permissions (viewer ⊂ approver ⊂ admin; an
 * API key's scopes map onto them); owner is instance authority; caller is any member or a
 * principal's own gateway key, authorized by its grants; public needs no credential.
 */
export type Access = "public" | "read" | "decide" | "manage" | "owner" | "caller";

const accessText: Record<Access, string> = {
  public: "No credential needed.",
  read: "Any member of the workspace (viewer and up), or an API key with the admin scope.",
  decide: "Approvers and admins, or an API key with the admin scope.",
  manage: "Admins, or an API key with the admin scope.",
  owner: "Instance owners (their session, or a key with the owner scope), whatever their workspace role.",
  caller: "Any member, or a principal's own gateway key (authorized by the principal's grants).",
};

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 502 | 503 | 504;

const errorText: Record<ErrorStatus, string> = {
  400: "The request is invalid (`validation`): `fieldErrors` says what is wrong with each field.",
  401: "No valid session or API key (`unauthenticated`).",
  403: "The caller may not do this (`forbidden`), or a policy refuses it (`policy_denied`).",
  404: "Nothing of that name or id in this workspace (`not_found`).",
  409: "The request conflicts with the current state (`conflict`).",
  413: `The body is larger than ${MAX_BODY_BYTES / 1024} KiB (\`payload_too_large\`).`,
  415: "The body is not JSON (`unsupported_media_type`): send `Content-Type: application/json`.",
  429: "Too many attempts (`rate_limited`): wait, then try again.",
  500: "Something went wrong on the server (`internal`); it was logged.",
  502: "The MCP server answered with an error (`upstream_error`).",
  503: "The MCP server cannot be reached (`upstream_unavailable`).",
  504: "The MCP server did not answer in time (`timeout`).",
};

const errorResponse = (status: ErrorStatus, description = errorText[status]): ZodOpenApiResponseObject => ({
  description,
  content: { "application/json": { schema: errorBodySchema } },
  ...(status === 401
    ? {
        headers: {
          "WWW-Authenticate": { description: 'Bearer realm="switchboard"', schema: { type: "string" } },
        },
      }
    : {}),
});

type Success = {
  status: 200 | 201 | 202 | 204;
  description: string;
  /** the JSON body; none for 204 */
  schema?: z.ZodType;
  /** another media type than JSON (the event stream) */
  mediaType?: string;
  headers?: Record<string, { description: string }>;
};

export type OperationSpec = {
  /** unique, a verb first (`listServers`): the anchor on the reference page */
  id: string;
  summary: string;
  description?: string;
  access: Access;
  path?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  /** the zod schema the handler parses the body with */
  body?: z.ZodType;
  /** the body may be left out */
  isBodyOptional?: boolean;
  /** a body cap other than the default 256 KiB */
  bodyLimitKiB?: number;
  responses: Success[];
  /** statuses besides those that follow from the rest (auth, body, query, path) */
  errors?: Array<ErrorStatus | [ErrorStatus, string]>;
};

export function operation(tag: string, spec: OperationSpec): ZodOpenApiOperationObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const success of spec.responses) {
    responses[`${success.status}`] = {
      description: success.description,
      ...(success.schema
        ? { content: { [success.mediaType ?? "application/json"]: { schema: success.schema } } }
        : {}),
      ...(success.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(success.headers).map(([name, h]) => [
                name,
                { description: h.description, schema: { type: "string" } },
              ]),
            ),
          }
        : {}),
    };
  }
  for (const [status, description] of errorStatusesOf(spec)) {
    responses[`${status}`] = errorResponse(status, description);
  }
  return {
    operationId: spec.id,
    tags: [tag],
    summary: spec.summary,
    description: [spec.description, `**Who may call it:** ${accessText[spec.access]}`]
      .filter(Boolean)
      .join("\n\n"),
    "x-access": spec.access,
    ...(spec.access === "public" ? { security: [] } : {}),
    ...(spec.path || spec.query || spec.headers
      ? {
          requestParams: {
            ...(spec.path ? { path: spec.path } : {}),
            ...(spec.query ? { query: spec.query } : {}),
            ...(spec.headers ? { header: spec.headers } : {}),
          },
        }
      : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.isBodyOptional,
            content: { "application/json": { schema: spec.body } },
          },
        }
      : {}),
    responses,
  };
}

function errorStatusesOf(spec: OperationSpec): Array<[ErrorStatus, string | undefined]> {
  const statuses = new Map<ErrorStatus, string | undefined>();
  if (spec.body || spec.query) statuses.set(400, undefined);
  if (spec.access !== "public") {
    statuses.set(401, undefined);
    statuses.set(403, undefined);
  }
  if (spec.path) statuses.set(404, undefined);
  if (spec.body) {
    const limit = spec.bodyLimitKiB;
    statuses.set(413, limit ? `The body is larger than ${limit} KiB (\`payload_too_large\`).` : undefined);
    statuses.set(415, undefined);
  }
  for (const entry of spec.errors ?? []) {
    const [status, text] = Array.isArray(entry) ? entry : [entry, undefined];
    // A text naming its own code (403: forbidden or policy_denied) keeps it; others get theirs.
    statuses.set(status, text && (text.includes("`") ? `${text}.` : `${text} (\`${codeOf(status)}\`).`));
  }
  return [...statuses].sort(([a], [b]) => a - b);
}

const codeOf = (status: ErrorStatus) => errorCodes.find((code) => errorStatus[code] === status) ?? "internal";

/** `{name}` in a path: the resource's name or id, as the handler reads it. */
export const pathParams = <K extends string>(names: Record<K, string>) =>
  z.object(
    Object.fromEntries(
      Object.entries<string>(names).map(([name, description]) => [name, z.string().meta({ description })]),
    ) as Record<K, z.ZodString>,
  );
