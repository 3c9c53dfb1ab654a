// The developer API's reference as view data: the OpenAPI document the contract writes
// (pocketbase/pb_hooks/lib/api/openapi.json) turned into groups of operations with their
// parameters, request and answer fields (nested objects flattened with dots), errors and a
// curl example at the shop's own address. Pure: the page renders it to static HTML.
import { siteUrl } from "@/lib/server/seo";
import { curlOf } from "@/features/api-reference/curl";
import type { OpenApiDocument, Operation, Parameter } from "@/features/api-reference/openapi-types";
import { PROBLEM_CODES, problemAnchor, type ProblemView } from "@/features/api-reference/problems";
import { descriptionOf, fieldsOf, slug, typeOf } from "@/features/api-reference/schema-fields";

export interface FieldView {
  /** Dotted path; `[]` marks the items of an array ("proxies[].id"). */
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export interface ParameterView extends FieldView {
  in: "path" | "query" | "header";
}

export interface ErrorView {
  status: string;
  description: string;
}

export interface OperationView {
  /** Anchor on the page. */
  id: string;
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  /** x-scope: an API key scope, "session" or "public". */
  scope: string;
  /** The scope in words, as the reference shows it. */
  access: string;
  parameters: ParameterView[];
  requestFields: FieldView[];
  /** The 2xx status and its fields. */
  responseStatus: string;
  responseMediaType: string;
  responseFields: FieldView[];
  errors: ErrorView[];
  curl: string;
}

export interface TagView {
  id: string;
  name: string;
  description: string;
  operations: OperationView[];
}

export interface ApiReferenceView {
  title: string;
  version: string;
  description: string;
  baseUrl: string;
  documentUrl: string;
  tags: TagView[];
  problems: ProblemView[];
}

/** Where the shop serves the document. */
export const OPENAPI_DOCUMENT_PATH = "/api/v1/openapi.json";

const SCOPE_TEXT: Record<string, string> = {
  session: "Signed-in session only (API keys cannot call this)",
  public: "None (public)",
};

const accessOf = (scope: string): string => SCOPE_TEXT[scope] ?? `API key with the ${scope} scope, or a session`;

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

function operationView(doc: OpenApiDocument, method: string, path: string, op: Operation, baseUrl: string): OperationView {
  const statuses = Object.keys(op.responses ?? {});
  const success = statuses.find((s) => s.startsWith("2")) ?? "200";
  const [mediaType, media] = Object.entries(op.responses?.[success]?.content ?? {})[0] ?? ["", {}];
  const requestSchema = op.requestBody?.content?.["application/json"]?.schema;
  const operationId = op.operationId ?? slug(`${method} ${path}`);
  return {
    id: `op-${slug(operationId)}`,
    operationId,
    method: method.toUpperCase(),
    path,
    summary: op.summary ?? `${method.toUpperCase()} ${path}`,
    description: op.description ?? "",
    scope: op["x-scope"] ?? "read",
    access: accessOf(op["x-scope"] ?? "read"),
    parameters: (op.parameters ?? [])
      .filter((p): p is Parameter & { in: ParameterView["in"] } => p.in === "path" || p.in === "query" || p.in === "header")
      .map((p) => ({
        in: p.in,
        name: p.name,
        type: typeOf(doc, p.schema),
        required: p.required ?? false,
        description: p.description ?? descriptionOf(doc, p.schema),
      })),
    requestFields: fieldsOf(doc, requestSchema),
    responseStatus: success,
    responseMediaType: mediaType,
    responseFields: fieldsOf(doc, media.schema),
    errors: statuses
      .filter((s) => !s.startsWith("2"))
      .map((status) => ({ status, description: op.responses?.[status]?.description ?? "" })),
    curl: curlOf(doc, method.toUpperCase(), path, op, baseUrl),
  };
}

/** The reference of `doc` with curl examples at `baseUrl` (the shop's public address). */
export function apiReference(doc: OpenApiDocument, baseUrl: string): ApiReferenceView {
  const base = baseUrl.replace(/\/+$/, "");
  const byTag = new Map<string, OperationView[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationView(doc, method, path, op, base)]);
    }
  }
  const declared = (doc.tags ?? []).map((t) => t.name);
  const names = [...declared.filter((n) => byTag.has(n)), ...[...byTag.keys()].filter((n) => !declared.includes(n))];
  return {
    title: doc.info?.title ?? "API reference",
    version: doc.info?.version ?? "",
    description: doc.info?.description ?? "",
    baseUrl: base,
    documentUrl: OPENAPI_DOCUMENT_PATH,
    tags: names.map((name) => ({
      id: `tag-${slug(name)}`,
      name,
      description: doc.tags?.find((t) => t.name === name)?.description ?? "",
      operations: byTag.get(name) ?? [],
    })),
    problems: PROBLEM_CODES.map((p) => ({ ...p, anchor: problemAnchor(p.code) })),
  };
}

/**
 * The shop's public address for the examples: the one the mails and the sitemap use
 * (SHOP_APP_URL, else APP_URL), else the page's own origin.
 */
export function apiBaseUrl(env: Record<string, string | undefined>, pageOrigin: string): string {
  const configured = [env["SHOP_APP_URL"], env["APP_URL"]].some((v) => v?.trim());
  return (configured ? siteUrl(env) : pageOrigin).replace(/\/+$/, "");
}
