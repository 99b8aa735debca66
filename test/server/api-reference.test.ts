/**
 * docs/api.md cannot drift from the server. The reference's checked tables are found by their header
 * cell: **Endpoint** (`METHOD /path/{param}`), **Error code** (`CODE`) and **Snapshot field**
 * (`data.scores.readiness_score`, `data.top_gaps[].title`). They must list exactly:
 * - the operations of the OpenAPI document of an app with the dev API on (HEAD and OPTIONS aside: the
 *   reference says every GET route also answers HEAD);
 * - the error codes the server can send (lib's `API_ERROR_CODES`, the server's `LOCAL_DEFENCE_ERROR_CODES`
 *   and any code the OpenAPI document names);
 * - the leaf fields of `snapshotSuccessEnvelopeSchema` (arrays of objects as `name[]`), which the
 *   OpenAPI document's 200 schema must match too. Rows for the containers (`data.top_gaps`) are allowed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_ERROR_CODES } from '../../lib/core/api-errors';
import { snapshotSuccessEnvelopeSchema } from '../../lib/core/schemas/snapshot';
import { LOCAL_DEFENCE_ERROR_CODES, V1_ERROR_CODES } from '../../server/platform/http/errors';
import { makeApp, withSharedApp, type TestApp } from './support/harness';

const DOC_PATH = path.resolve(import.meta.dirname, '../../docs/api.md');
const SNAPSHOT_OPENAPI_PATH = '/api/v1/compliance-status/{token}';

let t: TestApp;
// The dev API and the operator API on: every endpoint the server can have.
withSharedApp((_app, db) => {
  t = makeApp(db, { config: { dev: true, operatorSecret: 'operator-secret-for-the-reference' } });
});

// ---- reading the reference ----

interface Table {
  header: string[];
  rows: string[][];
}

/** Cells of a Markdown table row; `\|` inside a cell is not a separator. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

const DELIMITER_ROW = /^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$/;

/** Every pipe table outside fenced code blocks. */
function markdownTables(markdown: string): Table[] {
  const tables: Table[] = [];
  const lines = markdown.split(/\r?\n/);
  let inFence = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (/^\s*(?:```|~~~)/.test(line)) inFence = !inFence;
    const next = lines[i + 1] ?? '';
    if (inFence || !line.trim().startsWith('|') || !DELIMITER_ROW.test(next.trim())) continue;
    const table: Table = { header: cells(line), rows: [] };
    i += 2;
    while (i < lines.length && (lines[i] ?? '').trim().startsWith('|')) {
      table.rows.push(cells(lines[i] ?? ''));
      i += 1;
    }
    i -= 1;
    tables.push(table);
  }
  return tables;
}

/** The cells under the header cell `name`, in every table that has one. */
function column(tables: readonly Table[], name: string): string[] {
  return tables.flatMap((table) => {
    const index = table.header.indexOf(name);
    return index < 0 ? [] : table.rows.map((row) => row[index] ?? '');
  });
}

const ENDPOINT_CELL = /^`(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\/[^`\s]*)`$/;
const ERROR_CODE_CELL = /^`([A-Z][A-Z0-9_]*)`$/;
const FIELD_CELL = /^`([a-z_][a-z0-9_]*(?:\[\])?(?:\.[a-z_][a-z0-9_]*(?:\[\])?)*)`$/;

interface DocumentedApi {
  endpoints: string[];
  errorCodes: string[];
  fields: string[];
  /** Cells of a checked column that are not in the expected format (so they cannot be skipped silently). */
  malformed: string[];
}

function readReference(markdown: string): DocumentedApi {
  const tables = markdownTables(markdown);
  const malformed: string[] = [];
  const pick = (name: string, pattern: RegExp, format: (match: RegExpExecArray) => string) =>
    column(tables, name).flatMap((cell) => {
      const match = pattern.exec(cell);
      if (match) return [format(match)];
      malformed.push(`${name}: ${cell}`);
      return [];
    });
  return {
    endpoints: pick('Endpoint', ENDPOINT_CELL, (m) => `${m[1]} ${m[2]}`),
    errorCodes: pick('Error code', ERROR_CODE_CELL, (m) => m[1] ?? ''),
    fields: pick('Snapshot field', FIELD_CELL, (m) => m[1] ?? ''),
    malformed,
  };
}

// ---- what the server has ----

interface Drift {
  /** The server has it; the reference does not. */
  missing: string[];
  /** The reference names it; the server does not have it. */
  unknown: string[];
  /** Listed more than once in the reference. */
  duplicated: string[];
}

function drift(actual: Iterable<string>, documented: readonly string[], alsoAllowed: Iterable<string> = []): Drift {
  const have = new Set(actual);
  const allowed = new Set([...have, ...alsoAllowed]);
  const written = new Set(documented);
  return {
    missing: [...have].filter((item) => !written.has(item)).sort(),
    unknown: [...written].filter((item) => !allowed.has(item)).sort(),
    duplicated: [...new Set(documented.filter((item, i) => documented.indexOf(item) !== i))].sort(),
  };
}

const NO_DRIFT: Drift = { missing: [], unknown: [], duplicated: [] };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});
type OpenApiDocument = z.infer<typeof openApiDocumentSchema>;

/** `METHOD /path` of every operation, HEAD and OPTIONS aside. */
function openApiEndpoints(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    HTTP_METHODS.filter((method) => method in item && method !== 'head' && method !== 'options').map(
      (method) => `${method.toUpperCase()} ${route}`,
    ),
  );
}

/** Every value inside a JSON value, itself included. */
function* walkJson(value: unknown): Generator<unknown> {
  yield value;
  if (Array.isArray(value)) for (const item of value) yield* walkJson(item);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) yield* walkJson(item);
}

/** The error envelope's schema as OpenAPI writes it: its `code` enum lists codes. */
const errorEnvelopeJsonSchema = z.object({
  properties: z.object({
    success: z.object({ enum: z.tuple([z.literal(false)]) }),
    code: z.object({ enum: z.array(z.string()) }),
  }),
});
/** Error responses say which codes they answer with: "Error: TIER_REQUIRED, CROSS_ORIGIN_REQUEST". */
const errorResponseDescription = z.object({ description: z.string().regex(/^Error: /) });

function openApiErrorCodes(doc: OpenApiDocument): string[] {
  const codes = new Set<string>();
  for (const node of walkJson(doc.paths)) {
    const envelope = errorEnvelopeJsonSchema.safeParse(node);
    if (envelope.success) for (const code of envelope.data.properties.code.enum) codes.add(code);
    const response = errorResponseDescription.safeParse(node);
    if (response.success) {
      for (const code of response.data.description.replace(/^Error: /, '').split(',')) codes.add(code.trim());
    }
  }
  return [...codes];
}

interface FieldPaths {
  leaves: string[];
  containers: string[];
}

const join = (prefix: string, key: string) => (prefix === '' ? key : `${prefix}.${key}`);

/** Leaf paths of a zod schema: objects are walked, arrays of objects become `name[]`, anything else is a leaf. */
function zodFieldPaths(schema: z.core.$ZodType, prefix = '', into: FieldPaths = { leaves: [], containers: [] }): FieldPaths {
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return zodFieldPaths(schema.unwrap(), prefix, into);
  if (schema instanceof z.ZodObject) {
    if (prefix !== '') into.containers.push(prefix);
    for (const [key, child] of Object.entries(schema.shape)) {
      if (!(child instanceof z.ZodType)) throw new Error(`${join(prefix, key)}: not a zod schema`);
      zodFieldPaths(child, join(prefix, key), into);
    }
    return into;
  }
  if (schema instanceof z.ZodArray) {
    let element: z.core.$ZodType = schema.element;
    while (element instanceof z.ZodNullable || element instanceof z.ZodOptional) element = element.unwrap();
    if (element instanceof z.ZodObject) {
      into.containers.push(prefix);
      return zodFieldPaths(element, `${prefix}[]`, into);
    }
  }
  into.leaves.push(prefix);
  return into;
}

const jsonSchemaNode = z.looseObject({
  $ref: z.string().optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
  items: z.unknown().optional(),
  anyOf: z.array(z.unknown()).optional(),
  oneOf: z.array(z.unknown()).optional(),
});

/** The same walk over a JSON Schema (the OpenAPI document's); `null` branches of a union are skipped. */
function jsonSchemaFieldPaths(value: unknown, prefix = '', into: FieldPaths = { leaves: [], containers: [] }): FieldPaths {
  const node = jsonSchemaNode.parse(value);
  if (node.$ref !== undefined)
    throw new Error(`${prefix}: $ref ${node.$ref} is not followed; inline the schema or extend this walk`);
  const branches = [...(node.anyOf ?? []), ...(node.oneOf ?? [])].filter(
    (branch) => !z.object({ type: z.literal('null') }).safeParse(branch).success,
  );
  if (branches.length === 1) return jsonSchemaFieldPaths(branches[0], prefix, into);
  if (node.properties !== undefined) {
    if (prefix !== '') into.containers.push(prefix);
    for (const [key, child] of Object.entries(node.properties)) jsonSchemaFieldPaths(child, join(prefix, key), into);
    return into;
  }
  if (node.items !== undefined && jsonSchemaNode.parse(node.items).properties !== undefined) {
    into.containers.push(prefix);
    return jsonSchemaFieldPaths(node.items, `${prefix}[]`, into);
  }
  into.leaves.push(prefix);
  return into;
}

const snapshotResponseSchema = z.object({
  get: z.object({
    responses: z.object({ 200: z.object({ content: z.object({ 'application/json': z.object({ schema: z.unknown() }) }) }) }),
  }),
});

// ---- the checks ----

const reference = readFileSync(DOC_PATH, 'utf8');
const documented = readReference(reference);
const serverErrorCodes = [...API_ERROR_CODES, ...LOCAL_DEFENCE_ERROR_CODES, ...V1_ERROR_CODES];
const snapshotFields = zodFieldPaths(snapshotSuccessEnvelopeSchema);

async function openApiDocument(): Promise<OpenApiDocument> {
  const response = await t.request('/api/openapi.json');
  expect(response.status).toBe(200);
  return openApiDocumentSchema.parse(await response.json());
}

describe('docs/api.md matches the server', () => {
  it('has well-formed checked tables, each one non-empty', () => {
    expect(documented.malformed).toEqual([]);
    expect(documented.endpoints.length).toBeGreaterThan(0);
    expect(documented.errorCodes.length).toBeGreaterThan(0);
    expect(documented.fields.length).toBeGreaterThan(0);
  });

  it('lists every endpoint of the OpenAPI document (dev API on), and no other', async () => {
    const endpoints = openApiEndpoints(await openApiDocument());
    expect(endpoints).toContain(`GET ${SNAPSHOT_OPENAPI_PATH}`);
    expect(drift(endpoints, documented.endpoints)).toEqual(NO_DRIFT);
    // Leaving HEAD out of the tables is only right while the reference says GET routes answer it.
    expect(reference).toContain('Every `GET` route also answers `HEAD`');
  });

  it('lists every error code the server can send, and no other', async () => {
    const fromOpenApi = openApiErrorCodes(await openApiDocument());
    expect(fromOpenApi).toEqual(expect.arrayContaining(['NOT_FOUND', 'HOST_NOT_ALLOWED']));
    expect(drift([...serverErrorCodes, ...fromOpenApi], documented.errorCodes)).toEqual(NO_DRIFT);
  });

  it('lists every field of the snapshot success envelope, and no other', () => {
    expect(snapshotFields.leaves).toEqual(expect.arrayContaining(['data.scores.readiness_score', 'data.top_gaps[].title']));
    expect(drift(snapshotFields.leaves, documented.fields, snapshotFields.containers)).toEqual(NO_DRIFT);
  });

  it('the OpenAPI 200 schema of the snapshot has the same fields as the zod schema', async () => {
    const item = snapshotResponseSchema.parse((await openApiDocument()).paths[SNAPSHOT_OPENAPI_PATH]);
    const fromOpenApi = jsonSchemaFieldPaths(item.get.responses[200].content['application/json'].schema);
    expect([...fromOpenApi.leaves].sort()).toEqual([...snapshotFields.leaves].sort());
    expect([...fromOpenApi.containers].sort()).toEqual([...snapshotFields.containers].sort());
  });
});

describe('the checker bites', () => {
  // Against a server that has exactly what the reference lists, so these hold whatever the live comparison says.
  const without = (needle: string) =>
    reference
      .split('\n')
      .filter((line) => !line.startsWith(`| ${needle} |`))
      .join('\n');

  it('reports an endpoint dropped from the reference as missing, and an invented one as unknown', () => {
    const dropped = readReference(without('`POST /api/founder/dd-packs`'));
    expect(drift(documented.endpoints, dropped.endpoints)).toEqual({ ...NO_DRIFT, missing: ['POST /api/founder/dd-packs'] });
    const invented = readReference(`${reference}\n\n| Endpoint |\n|---|\n| \`DELETE /api/v1/compliance-status/{token}\` |\n`);
    expect(drift(documented.endpoints, invented.endpoints)).toEqual({
      ...NO_DRIFT,
      unknown: ['DELETE /api/v1/compliance-status/{token}'],
    });
  });

  it('reports a dropped error code as missing, a made-up one as unknown, a repeated row as duplicated', () => {
    const edited = without('410')
      .replace('`RATE_LIMITED`', '`SLOW_DOWN`')
      .replace(/^(\| 413 \|.*)$/m, '$1\n$1');
    expect(drift(documented.errorCodes, readReference(edited).errorCodes)).toEqual({
      missing: ['EXPIRED', 'RATE_LIMITED'],
      unknown: ['SLOW_DOWN'],
      duplicated: ['PAYLOAD_TOO_LARGE'],
    });
  });

  it('reports a renamed snapshot field both ways, and a malformed cell', () => {
    const edited = reference
      .replace('| `meta.view_count` |', '| `meta.views` |')
      .replace('| `data.company.name` |', '| data.company.name |');
    const read = readReference(edited);
    expect(drift(documented.fields, read.fields)).toEqual({
      ...NO_DRIFT,
      missing: ['data.company.name', 'meta.view_count'],
      unknown: ['meta.views'],
    });
    expect(read.malformed).toEqual(['Snapshot field: data.company.name']);
  });

  it('ignores tables inside code blocks and reads only the named columns', () => {
    const read = readReference(
      [
        '```',
        '| Endpoint |',
        '|---|',
        '| `GET /in/a/fence` |',
        '```',
        '| Code | Label |',
        '|---|---|',
        '| `DAX` | Digital Asset Exchange |',
      ].join('\n'),
    );
    expect(read).toEqual({ endpoints: [], errorCodes: [], fields: [], malformed: [] });
  });
});
