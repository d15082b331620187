/**
 * Checks a live answer of the server against the OpenAPI document (src/http/openapi.ts): the path
 * and method are an operation of the document (or, for a 405, a method the path lists in
 * `x-methods-not-allowed`; for a 404, a path the document does not have), the status is documented
 * for that operation, the body validates against the documented schema (ajv, JSON Schema 2020-12,
 * formats checked), and every header the document marks required is there with a valid value.
 * With the request body of a 2xx answer, that body must validate against the operation's request
 * schema too (a document stricter than the server would break generated clients).
 *
 * Any suite can call it: `conformance.check({ method, url, status, headers, body })` throws an
 * Error naming the operation and what is wrong; `conformance.covered` records operation -> statuses.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApi } from '../../src/http/openapi.js';

type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface LiveAnswer {
  method: string;
  /** Path with query, or a whole URL. */
  url: string;
  status: number;
  /** fetch's Headers, or a plain object of lower-case names (app.inject). */
  headers: Headers | Record<string, unknown>;
  /** The parsed JSON body; undefined when empty. */
  body: unknown;
  /** The request body as sent (parsed JSON), to check it against the request schema on a 2xx. */
  requestBody?: unknown;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const DOC_ID = 'https://delivery-planner.invalid/openapi.json';
const pointer = (parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function validEncoding(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

interface Template {
  path: string;
  regex: RegExp;
  params: number;
}

export class OpenApiConformance {
  readonly doc: Json;
  /** operationId (or `405 <path>`, `404 unknown path`) -> statuses seen. */
  readonly covered = new Map<string, Set<number>>();
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Template[];

  constructor(doc: Json = buildOpenApi()) {
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...structuredClone(doc), $id: DOC_ID });
    this.templates = Object.keys(doc.paths)
      .map((path) => {
        const source = path
          .replace(/\/$/, '')
          .split(/\{[^}]+\}/)
          .map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+');
        return { path, regex: new RegExp(`^${source}/?$`), params: (path.match(/\{/g) ?? []).length };
      })
      // a literal segment wins over a parameter, as in the server's router
      .sort((a, b) => a.params - b.params);
  }

  /** Every operationId of the document. */
  operationIds(): string[] {
    const ids: string[] = [];
    for (const item of Object.values(this.doc.paths) as Json[]) for (const m of METHODS) if (item[m]) ids.push(item[m].operationId);
    return ids;
  }

  /** Operations no checked answer has touched yet. */
  uncovered(): string[] {
    return this.operationIds().filter((id) => !this.covered.has(id));
  }

  /** Throws when the answer is not what the document says; returns the operationId it checked. */
  check(answer: LiveAnswer): string {
    const method = answer.method.toLowerCase();
    const path = new URL(answer.url, 'http://x').pathname;
    const where = `${answer.method.toUpperCase()} ${path} -> ${answer.status}`;
    const template = this.templates.find((t) => t.regex.test(path));
    const get = (name: string) => {
      const h = answer.headers;
      const v = h instanceof Headers ? h.get(name) : h[name.toLowerCase()];
      return v === null || v === undefined ? undefined : String(v);
    };
    if (!template) {
      // the router refuses a path that is not valid percent-encoding before it looks for a route
      const expected = validEncoding(path) ? 404 : 400;
      this.expect(answer.status === expected, `${where}: a path the document does not have must be ${expected}`);
      this.validate(['components', 'schemas', 'Detail'], answer.body, where);
      return this.record('404 unknown path', answer.status);
    }
    const item = this.doc.paths[template.path] as Json;
    const operation = item[method] as Json | undefined;
    if (!operation) {
      const refused = (item['x-methods-not-allowed'] ?? []) as string[];
      this.expect(refused.includes(method.toUpperCase()), `${where}: ${method.toUpperCase()} is neither an operation of ${template.path} nor in its x-methods-not-allowed`);
      // an unknown or missing key is refused before the method is (401); the rest is 405 {detail}
      this.expect([405, 401].includes(answer.status), `${where}: expected 405 (or 401 without a valid key)`);
      this.validate(['components', 'schemas', 'Detail'], answer.body, where);
      if (answer.status === 405) {
        const allow = (get('allow') ?? '').split(/,\s*/).sort();
        const taken = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase()).sort();
        this.expect(JSON.stringify(allow) === JSON.stringify(taken), `${where}: Allow ${JSON.stringify(allow)} but the document has ${JSON.stringify(taken)}`);
      }
      return this.record(`${answer.status} ${method.toUpperCase()} ${template.path}`, answer.status);
    }
    const id = operation.operationId as string;
    const status = String(answer.status);
    const responses = operation.responses as Json;
    this.expect(status in responses, `${where} (${id}): status ${status} is not documented (documented: ${Object.keys(responses).join(', ')}); body ${JSON.stringify(answer.body)?.slice(0, 300)}`);
    let base = ['paths', template.path, method, 'responses', status];
    let response = responses[status] as Json;
    if (response.$ref) {
      base = (response.$ref as string).slice(2).split('/');
      response = base.reduce((node: Json, key) => node[key], this.doc);
    }
    const schema = response.content?.['application/json']?.schema;
    if (schema) {
      this.expect(answer.body !== undefined, `${where} (${id}): the document promises a JSON body, the answer has none`);
      this.validate([...base, 'content', 'application/json', 'schema'], answer.body, `${where} (${id})`);
    } else {
      this.expect(answer.body === undefined, `${where} (${id}): the document has no body for this answer, the server sent one`);
    }
    for (const [name, raw] of Object.entries((response.headers ?? {}) as Json)) {
      const spec: Json = raw.$ref ? (raw.$ref as string).slice(2).split('/').reduce((node: Json, key: string) => node[key], this.doc) : raw;
      const value = get(name);
      if (value === undefined) {
        this.expect(!spec.required, `${where} (${id}): required header ${name} is missing`);
        continue;
      }
      const typed = spec.schema?.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      const ok = this.ajv.validate(spec.schema ?? {}, typed);
      this.expect(ok, `${where} (${id}): header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(this.ajv.errors)}`);
    }
    if (answer.status < 300 && answer.requestBody !== undefined && operation.requestBody) {
      const requestSchema = ['paths', template.path, method, 'requestBody', 'content', 'application/json', 'schema'];
      if (id === 'bulkCreateOrders') {
        // items are taken or refused one by one: each taken item must be a valid OrderInput
        const results = (answer.body as { results: Array<{ status: string }> }).results;
        (answer.requestBody as unknown[]).forEach((item, i) => {
          if (results[i]?.status !== 'error') this.validate(['components', 'schemas', 'OrderInput'], item, `${where} (${id}) request item ${i}`);
        });
      } else {
        this.validate(requestSchema, answer.requestBody, `${where} (${id}) request body`);
      }
    }
    return this.record(id, answer.status);
  }

  private record(key: string, status: number): string {
    if (!this.covered.has(key)) this.covered.set(key, new Set());
    this.covered.get(key)!.add(status);
    return key;
  }

  private validate(parts: string[], value: unknown, where: string): void {
    const at = `${DOC_ID}#/${pointer(parts)}`;
    let validator = this.validators.get(at);
    if (!validator) {
      validator = this.ajv.compile({ $ref: at });
      this.validators.set(at, validator);
    }
    if (!validator(value)) {
      throw new Error(`${where}: the body does not match the document: ${this.ajv.errorsText(validator.errors, { separator: '; ' })}\nbody: ${JSON.stringify(value)?.slice(0, 600)}`);
    }
  }

  private expect(condition: boolean, message: string): void {
    if (!condition) throw new Error(message);
  }
}

let shared: OpenApiConformance | undefined;
/** One checker per test process (compiling the validators once). */
export function conformance(): OpenApiConformance {
  shared ??= new OpenApiConformance();
  return shared;
}

/** Reads a fetch Response as the checker wants it (JSON or nothing) and checks it. */
export async function checkFetch(method: string, url: string, response: Response, requestBody?: unknown): Promise<{ status: number; body: any }> {
  const text = await response.text();
  const body = text === '' ? undefined : (JSON.parse(text) as unknown);
  conformance().check({ method, url, status: response.status, headers: response.headers, body, requestBody });
  return { status: response.status, body };
}

/** Checks an `app.inject()` answer (light-my-request) the same way. */
export function checkInject(
  method: string,
  url: string,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  requestBody?: unknown,
): void {
  const body = res.body === '' ? undefined : (JSON.parse(res.body) as unknown);
  conformance().check({ method, url, status: res.statusCode, headers: res.headers, body, requestBody });
}
