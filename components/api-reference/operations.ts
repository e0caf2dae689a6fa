import type { Components, JsonSchema } from "./schema-fields";

/** The document's operations, grouped by tag in the document's order of tags. */

export type ApiDocument = {
  info: { title: string; version: string; description?: string };
  tags?: Array<{ name: string; description?: string }>;
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Components };
};

export type Parameter = {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
};

export type ApiOperation = {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  access: string;
  parameters: Parameter[];
  body: { schema: JsonSchema; isRequired: boolean } | null;
  responses: Array<{
    status: string;
    description: string;
    schema: JsonSchema | null;
    mediaType: string | null;
  }>;
};

export type TagGroup = { name: string; description: string; operations: ApiOperation[] };

const methods = ["get", "post", "put", "patch", "delete"];

type RawOperation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  "x-access"?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
};

export function groupByTag(document: ApiDocument): TagGroup[] {
  const groups = new Map<string, TagGroup>(
    (document.tags ?? []).map((t) => [
      t.name,
      { name: t.name, description: t.description ?? "", operations: [] },
    ]),
  );
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of methods) {
      const raw = item[method] as RawOperation | undefined;
      if (!raw) continue;
      const tag = raw.tags?.[0] ?? "Other";
      if (!groups.has(tag)) groups.set(tag, { name: tag, description: "", operations: [] });
      groups.get(tag)?.operations.push(toOperation(path, method, raw));
    }
  }
  return [...groups.values()].filter((g) => g.operations.length > 0);
}

function toOperation(path: string, method: string, raw: RawOperation): ApiOperation {
  const json = raw.requestBody?.content?.["application/json"]?.schema;
  return {
    id: raw.operationId ?? `${method}-${path}`,
    method: method.toUpperCase(),
    path,
    summary: raw.summary ?? "",
    // Who may call it is shown on its own line; the document's prose repeats it for other readers.
    description: (raw.description ?? "").replace(/\n*\*\*Who may call it:\*\*.*$/s, ""),
    access: /\*\*Who may call it:\*\* (.*)$/s.exec(raw.description ?? "")?.[1] ?? "",
    parameters: raw.parameters ?? [],
    body: json ? { schema: json, isRequired: raw.requestBody?.required === true } : null,
    responses: Object.entries(raw.responses ?? {}).map(([status, response]) => {
      const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [null, undefined];
      return { status, description: response.description ?? "", schema: media?.schema ?? null, mediaType };
    }),
  };
}
