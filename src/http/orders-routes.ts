/** Orders endpoints of docs/contract/public-api.md 4.1 to 4.5 and 4.10, under /api/public/v1. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ORDER_STATUSES, type OrderStatus } from '../store/types.js';
import type { OrderService } from '../service/orders.js';
import { authOf } from './auth.js';
import { BODY_LIMITS, JSON_VALUES } from './limits.js';
import { DETAIL, HttpError, notFound } from './errors.js';
import {
  describeJsonType,
  parseOrderCreate,
  parseOrderPatch,
  serializeOrder,
  type CreateInput,
  type FieldErrors,
  type BulkResultView,
  type OrderHistoryView,
} from '../contract/order.js';
import { methodNotAllowed, pageAnswer, queryOf, readPage } from './request.js';


export { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './request.js';
export const BULK_MAX = 500;

function orderId(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  if (!/^\d{1,15}$/.test(raw)) throw notFound();
  return Number(raw);
}


export function registerOrderRoutes(app: FastifyInstance, orders: OrderService): void {
  const read = { scope: 'orders:read' as const };
  const write = { scope: 'orders:write' as const };

  // 4.1 create one order
  app.post('/orders/', { config: write }, async (request, reply) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError(400, {
        detail: `Invalid data. Expected a JSON object with the order fields, but got ${body === undefined ? 'an empty body' : describeJsonType(body)}.`,
      });
    }
    const parsed = parseOrderCreate(body, orders.today(company));
    if (!parsed.ok) throw new HttpError(400, parsed.errors);
    const { order, created } = await orders.create(company, parsed.value);
    reply.code(created ? 201 : 200);
    return serializeOrder(order);
  });

  // 4.3 list orders
  app.get('/orders/', { config: read }, async (request) => {
    const query = queryOf(request, ['status', 'external_id', 'page', 'page_size']);
    const { company } = authOf(request);
    const errors: FieldErrors = {};
    if (query.status !== undefined && !(ORDER_STATUSES as readonly string[]).includes(query.status)) {
      errors.status = [`Select a valid choice. "${query.status.slice(0, 64)}" is not one of ${ORDER_STATUSES.join(', ')}.`];
    }
    const page = readPage(errors, query);
    if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
    const { count, rows } = await orders.list(company, {
      status: query.status as OrderStatus | undefined,
      external_id: query.external_id,
      limit: page.limit,
      offset: page.offset,
    });
    const filters = { status: query.status, external_id: query.external_id };
    return pageAnswer(request, '/api/public/v1/orders/', filters, page, count, rows.map(serializeOrder));
  });
  methodNotAllowed(app, '/orders/', ['GET', 'POST']);

  // 4.2 bulk create
  // a body of more than 500 items is refused while it is scanned, before its items are built
  const bulkJson = {
    maxValues: JSON_VALUES.bulk,
    maxTopItems: { max: BULK_MAX, error: (n: number | string) => new HttpError(400, { detail: DETAIL.bulkTooMany(n) }) },
  };
  app.post('/orders/bulk/', { config: { ...write, json: bulkJson }, bodyLimit: BODY_LIMITS.bulk }, async (request) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const body = request.body;
    if (!Array.isArray(body) || body.length === 0) throw new HttpError(400, { detail: DETAIL.bulkNotList });
    if (body.length > BULK_MAX) throw new HttpError(400, { detail: DETAIL.bulkTooMany(body.length) });
    const today = orders.today(company);
    const parsed = body.map((item) => parseOrderCreate(item, today));
    const created = await orders.bulkCreate(
      company,
      parsed.map((p): CreateInput | undefined => (p.ok ? p.value : undefined)),
    );
    const summary = { created: 0, existing: 0, failed: 0 };
    const results = parsed.map((p, index) => {
      const item = body[index] as { external_id?: unknown } | null;
      const echo = p.ok
        ? p.value.external_id
        : typeof item === 'object' && item !== null && typeof item.external_id === 'string'
          ? item.external_id
          : null;
      const r = created[index];
      if (!p.ok || !r) {
        summary.failed++;
        return { index, external_id: echo, status: 'error' as const, id: null, errors: p.ok ? {} : p.errors };
      }
      if (r.created) summary.created++;
      else summary.existing++;
      return { index, external_id: echo, status: r.created ? ('created' as const) : ('exists' as const), id: r.order.id, errors: null };
    });
    return { results, summary } satisfies BulkResultView;
  });
  methodNotAllowed(app, '/orders/bulk/', ['POST']);

  // single order: GET (our addition), PATCH (4.4); PUT and DELETE 405
  app.get('/orders/:id/', { config: read }, async (request) => {
    queryOf(request, []);
    const order = await orders.get(authOf(request).company, orderId(request));
    if (!order) throw notFound();
    return serializeOrder(order);
  });

  app.patch('/orders/:id/', { config: write }, async (request) => {
    queryOf(request, []);
    const { company } = authOf(request);
    const id = orderId(request);
    const existing = await orders.get(company, id);
    if (!existing) throw notFound();
    const parsed = parseOrderPatch(request.body);
    if (!parsed.ok) throw new HttpError(400, 'detail' in parsed ? { detail: parsed.detail } : parsed.errors);
    const result = await orders.patch(company, id, parsed.value);
    switch (result.kind) {
      case 'ok':
        return serializeOrder(result.order);
      case 'not_found':
        throw notFound();
      case 'conflict':
        throw new HttpError(409, { detail: DETAIL.notUpdatable });
      case 'invalid':
        throw new HttpError(400, result.errors);
    }
  });
  methodNotAllowed(app, '/orders/:id/', ['GET', 'PATCH']);

  // 4.5 cancel
  app.post('/orders/:id/cancel/', { config: write }, async (request) => {
    queryOf(request, []);
    const result = await orders.cancel(authOf(request).company, orderId(request));
    if (result.kind === 'not_found') throw notFound();
    if (result.kind === 'conflict') {
      throw new HttpError(409, {
        detail: result.order.status === 'archived' ? DETAIL.alreadyCancelled : DETAIL.notCancellable,
      });
    }
    return serializeOrder(result.order);
  });
  methodNotAllowed(app, '/orders/:id/cancel/', ['POST']);

  // 4.10 order status history
  app.get('/orders/:id/events/', { config: read }, async (request) => {
    queryOf(request, []);
    const found = await orders.history(authOf(request).company, orderId(request));
    if (!found) throw notFound();
    return {
      order_id: found.order.id,
      external_id: found.order.external_id,
      current_status: found.order.status,
      events: found.events.map((e) => ({ status: e.status, previous_status: e.previous_status, at: e.at })),
    } satisfies OrderHistoryView;
  });
  methodNotAllowed(app, '/orders/:id/events/', ['GET']);
}
